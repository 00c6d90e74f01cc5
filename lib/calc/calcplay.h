/* calcplay: Calculation players: random, greedy and weighted (the rules
 * of calc.h), mcts (UCT with chance nodes on the next stock card), simple
 * (the seed's fixed-depth tree) and best (rollouts, and in the endgame
 * sampled orders solved exactly). The searching players see the unseen
 * cards as a multiset, never their order: each playout or sample first
 * reshuffles the face-down cards, as the seed's Java drew each turned
 * card at random from those left.
 * Apart from them, clairvoyant sees the stock (calcsolve_nested): not a
 * player, but a bound on what any player could win. So do mcts and simple
 * with peek: their tree and playouts turn the stock in its true order. */
#ifndef YOMI_CALCPLAY_H
#define YOMI_CALCPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "calc/calc.h"
#include "calc/calcsolve.h"
#include "core/rng.h"
#include "search/mcts.h"

typedef enum {
	CALCPLAY_RANDOM,
	CALCPLAY_GREEDY,
	CALCPLAY_MCTS,
	CALCPLAY_SIMPLE,
	CALCPLAY_BEST,
	CALCPLAY_CLAIRVOYANT,
	CALCPLAY_WEIGHTED
} calcplay_kind;

/* Positions best's endgame search may expand per sampled order and
 * placement. An order it cannot settle counts as lost, so past about 14
 * unseen the sampled orders rank moves partly by how easily a win is
 * found. Each order solves every placement of the next card, so budget
 * and samples set the time; a larger budget over fewer orders settles
 * more of them, which pays more than sampling more (the trials are in
 * tests/bench/NOTES.md). */
enum { CALCPLAY_SOLVE_BUDGET = 500 };
/* The budget is spent in that many short searches in perturbed orders
 * (calcsolve_restarts), which settle more orders than one search does. */
enum { CALCPLAY_SOLVE_RUNS = 20 };
/* Positions the solver may expand to end one rollout (--solve-from): the
 * rollouts are many, so a small bound; past it the greedy rule plays on. */
enum { CALCPLAY_ROLLOUT_SOLVE_BUDGET = 50 };
/* Positions best's exact endgame may expand per move before it gives way
 * to sampled orders: a bound on its time a move. */
enum { CALCPLAY_EXACT_BUDGET = 100000 };
/* Best's race between candidate moves (--rounds): a move trailing the
 * leader by more than CALCPLAY_RACE_Z standard errors of the paired
 * difference drops out, and the race ends early when every other move is
 * that surely within CALCPLAY_RACE_EPS of the leader (a won rollout is
 * worth 1000, so a twentieth of a won rollout in a hundred: moves that
 * differ less than that are not worth rollouts to tell apart). */
#define CALCPLAY_RACE_Z 2.0
#define CALCPLAY_RACE_EPS 0.5
/* The same race over best's sampled orders (--samples): none drops out
 * before CALCPLAY_RACE_ORDERS orders, and the rest count as equal once
 * surely within CALCPLAY_RACE_SHARE of the orders of the leader. */
enum { CALCPLAY_RACE_ORDERS = 16 };
#define CALCPLAY_RACE_SHARE 0.1
/* Best keeps every rollout of a leaf for the race: at most this many
 * (--playouts times 1 + --rounds), about 4 MB a leaf. */
enum { CALCPLAY_MAX_ROLLOUTS = 1 << 20 };

typedef struct {
	calcplay_kind kind;
	uint32_t playouts;  /* mcts: per move; best: rollouts per leaf */
	double ucb;
	uint32_t threshold;
	double bad;         /* reward for two cards left; < 0: binary reward */
	int level, width;   /* simple; level: clairvoyant's nesting too */
	int endgame;        /* best: solve sampled orders from this many unseen */
	uint32_t samples;   /* best: orders sampled per candidate there */
	int exact;          /* best: exact information-set search from this many unseen */
	int exact_all;      /* best: the same over every move, not eager lines */
	int hold;           /* best: from this many unseen on, a card that fits a
			     * foundation may also wait: every move a candidate */
	int rounds;         /* best: rounds of rollouts the race may add */
	int solve_from;     /* best: a rollout hands over to the eager solver,
			     * its own order in view, at this many unseen (0:
			     * greedy plays it to the end) */
	bool waits;         /* best: its exact chances over eager lines let a
			     * card wait while a copy of its rank lies buried
			     * in another pile (calcsolve's waits) */
	bool cascade;       /* greedy, weighted: the cascade's moves up
			     * (calc_cascade_move); best: rollouts by it */
	bool peek;          /* mcts, simple: see the stock's order (a bound, not
			     * a player) */
	bool eager;         /* mcts, simple: playouts move a card up whenever one
			     * can go */
	bool up_first;      /* mcts, simple: the tree lists the moves that put a
			     * card on a foundation first (ties go to them) */
	bool binary_ends;   /* simple: a game over inside the tree scores 1 or 0,
			     * not the shaped reward (the seed's simpletree) */
	bool per_card;      /* simple: a chance node has a subtree for each card
			     * unseen, not for each rank (the seed's simpletree) */
	mcts_tree tree;
	calcsolve solver;   /* best, set up on first use */
	calcsolve exact_solver, all_solver;
	int last_unseen;     /* best: unseen cards at its last move (a new game
			      * has more: its exact chances are then forgotten) */
	calcsolve_line line; /* clairvoyant: the line it follows, */
	int line_at;         /* the next move's index in it */
	calc_state line_next; /* and the position that move is for */
	calcsolve_memo memo;  /* simple with peek: values by position and level */
} calcplay;

/* The policies' names, in calcplay_kind order (NULL-terminated). */
extern const char *const calcplay_policies[];
/* The player's label in output rows: its policy and the settings that
 * make it (e.g. "mcts:10000", "simple:5x5"). */
void calcplay_name(const calcplay *p, char *buf, size_t size);

/* The reward of a finished game: 1 for success; with B >= 0 the seed's
 * shaped reward B (1 - (rest - 2) / 26)^2 for rest <= 26 (half the deck),
 * else 0. */
double calcplay_reward(const calc_state *s, double bad);
/* The player's move in S (not over). */
int calcplay_move(calcplay *p, const calc_state *s, rng *r);
void calcplay_free(calcplay *p);

#endif
