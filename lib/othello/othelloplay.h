/* othelloplay: Othello players for matches: random, flat Monte Carlo (mc:N),
 * UCT (mcts:N) and perfect (exact from max_empties empty squares on, UCT
 * before). Every random choice draws from the generator the caller
 * passes, so a game replays exactly from its stream. */
#ifndef YOMI_OTHELLOPLAY_H
#define YOMI_OTHELLOPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rng.h"
#include "othello/othello.h"
#include "othello/othellosolve.h"
#include "search/mcts.h"

typedef enum {
	OTHELLOPLAY_RANDOM, OTHELLOPLAY_MC, OTHELLOPLAY_MCTS, OTHELLOPLAY_PERFECT
} othelloplay_kind;

typedef struct {
	othelloplay_kind kind;
	uint32_t playouts;  /* mc: per legal move; mcts, perfect: per decision */
	double ucb;         /* mcts exploration constant */
	uint32_t threshold; /* mcts: visits before a leaf is expanded */
	int max_empties;    /* perfect: exact from this many empty squares on */
	mcts_tree tree;
	othellosolve *solver; /* perfect: made at its first exact move */
} othelloplay;

enum { OTHELLOPLAY_MAX_PLAYOUTS = 100000000 };
/* The perfect player's UCT playouts before the endgame (perfect:N sets
 * them): a strong player there at a modest cost a move. */
enum { OTHELLOPLAY_PERFECT_PLAYOUTS = 10000 };
/* The default for max_empties (playout --max-empties). */
enum { OTHELLOPLAY_MAX_EMPTIES = 26 };
/* The perfect player's transposition table: 2^20 positions, 32 MB. */
enum { OTHELLOPLAY_SOLVER_BITS = 20 };

/* Parses "random", "mc:N", "mcts:N", "perfect" or "perfect:N" (1 <= N <=
 * OTHELLOPLAY_MAX_PLAYOUTS) into P with the given mcts settings and
 * OTHELLOPLAY_MAX_EMPTIES; false if SPEC is none of them. */
bool othelloplay_parse(const char *spec, double ucb, uint32_t threshold, othelloplay *p);
/* The player's move in POS, a position where the side to move has a move
 * or must pass (the game is not over). Random choices come from D (the
 * game's draws; the searches draw from D's generator). */
int othelloplay_choose(othelloplay *p, const othello_pos *pos, rng_draw *d);
void othelloplay_free(othelloplay *p);

/* Reward in [0, 1] of a final disc difference D for the side it counts. */
static inline double othelloplay_reward(int d)
{
	return d > 0 ? 1.0 : d < 0 ? 0.0 : 0.5;
}

#endif
