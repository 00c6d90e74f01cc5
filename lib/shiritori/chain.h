/* chain: shiritori rules, game state and the players' move choice.
 *
 * Rules: the start word is turn 0 and counts as used. Player 1 moves at odd
 * turns, player 2 at even ones. A word is legal when unused and its head
 * equals the previous word's tail. A player with no legal word is stuck and
 * loses. Playing a word whose tail is a lose-tail key loses at once. After
 * 2R moves the higher total (points plus handicap) wins; equal totals draw.
 *
 * Values (what the players maximise): the mover's points minus the
 * opponent's from this move to the search horizon, where a player stuck at
 * their turn, or having played a lose-tail word, counts CHAIN_LOSS against
 * them. The horizon never passes the end of the game. Greedy is the search
 * at depth 1 (the longest word, avoiding lose-tail words while it can); the
 * seed's one-reply lookahead is depth 2.
 *
 * Why only the longest unused word of each (head, tail) class is searched
 * (an exchange argument): let u and v be unused words of one class with
 * len(u) >= len(v). Map every line of play L after the mover plays v to
 * the line L' after u in which v is played wherever L plays u. L' is legal
 * (u and v share head and tail, so the same words are playable at every
 * point, the same players get stuck and the same lose-tail moves lose),
 * and it is a bijection on the opponent's choices. The mover's first move
 * earns len(u) - len(v) more in L'; if L later has the opponent play u,
 * the opponent earns that much less in L', and if the mover plays it, the
 * mover's total is unchanged. So every outcome after u is at least as good
 * for the mover as its image after v, and value(u) >= value(v). The search
 * therefore branches on classes, always taking a class's longest unused
 * word, and a position is fully described by how many words of each class
 * are used, the current tail and the turn. The transposition table keys on
 * a Zobrist hash over used words, which under this canonical order is a
 * hash of those counts (and stays exact when earlier moves, e.g. a random
 * player's, used words out of that order). tests/unit/test_chain.c checks
 * the values against a
 * brute-force search over every word. */
#ifndef YOMI_CHAIN_H
#define YOMI_CHAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rng.h"
#include "words/dict.h"

#define CHAIN_LOSS 10000
#define CHAIN_DEPTH_END (-1)
#define CHAIN_MAX_ROUNDS 10000

typedef enum { CHAIN_GREEDY, CHAIN_LOOKAHEAD, CHAIN_RANDOM } chain_kind;

typedef struct {
	chain_kind kind;
	int depth;   /* lookahead: plies, or CHAIN_DEPTH_END */
	double time; /* lookahead: > 0 deepens iteratively within this many seconds */
} chain_strategy;

/* Parses "greedy", "random", "lookahead", "lookahead:D", "lookahead:end"
 * into *s; false on anything else. */
bool chain_strategy_parse(const char *text, chain_strategy *s);
/* "greedy", "random", "lookahead:2", "lookahead:end", "lookahead:time" */
void chain_strategy_name(const chain_strategy *s, char *buf, size_t n);

typedef struct {
	int rounds;
	int64_t handicap[2];
	uint8_t *lose_tail; /* per key id, or NULL */
} chain_rules;

typedef enum { CHAIN_RUNNING, CHAIN_SCORE, CHAIN_STUCK, CHAIN_LOSE_TAIL } chain_end;

typedef struct {
	const dict *d;
	const chain_rules *r;
	uint8_t *used;  /* per word */
	uint32_t *next; /* per class: index in cwords of its longest unused word */
	uint32_t *avail; /* per key: classes with that head and an unused word */
	uint32_t tail;  /* key the next word must start with */
	int turn;       /* moves played; the start word is turn 0 */
	int64_t score[2];
	uint64_t hash;
	const uint64_t *zobrist; /* per word */
	chain_end end;
	int winner; /* 1, 2, or 0 for a draw; valid once ended */
} chain_game;

/* Per-word Zobrist keys for D (fixed, independent of any --seed). */
uint64_t *chain_zobrist(const dict *d);
void chain_init(chain_game *g, const dict *d, const chain_rules *r, const uint64_t *zobrist);
/* Starts a game from word START (turn 0). */
void chain_start(chain_game *g, uint32_t start);
void chain_free(chain_game *g);
/* Player to move: 1 or 2. */
int chain_mover(const chain_game *g);
/* NULL if W is legal now, else why not. */
const char *chain_illegal(const chain_game *g, uint32_t w);
/* Plays W (assumed legal): scores it and ends the game when the rules say. */
void chain_play(chain_game *g, uint32_t w);
/* The mover has no legal word: the game ends with their loss. */
void chain_stuck(chain_game *g);
bool chain_can_move(const chain_game *g);
/* Debug builds (YOMI_DEBUG): dies if the state's redundant parts disagree. */
void chain_check(const chain_game *g);

/* A candidate a player considered. value_known is false for random. */
typedef struct {
	uint32_t word;
	int64_t value;
	bool value_known, chosen;
} chain_cand;

typedef struct {
	chain_cand *c;
	size_t n, cap;
	int depth_done; /* lookahead: the deepest completed search */
} chain_trace;

typedef struct chain_search chain_search;

chain_search *chain_search_new(const dict *d, const chain_rules *r);
void chain_search_free(chain_search *s);
uint64_t chain_search_nodes(const chain_search *s);

/* Chooses the mover's word by strategy ST, breaking ties with the stream
 * (seed, turn). Returns false when the mover is stuck. With TRACE, every
 * legal word is listed with its value (exact for every candidate);
 * without, only what the choice needs is searched. */
bool chain_choose(chain_search *s, chain_game *g, const chain_strategy *st, uint64_t seed,
		  chain_trace *trace, uint32_t *word);

/* Exact negamax value of the position for the mover, searched to DEPTH
 * plies (or the end). Exposed for tests and benchmarks. */
int64_t chain_value(chain_search *s, chain_game *g, int depth);

#endif
