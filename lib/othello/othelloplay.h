/* othelloplay: Othello players for matches: random, flat Monte Carlo (mc:N)
 * and UCT (mcts:N). Every random choice draws from the generator the
 * caller passes, so a game replays exactly from its stream. */
#ifndef YOMI_OTHELLOPLAY_H
#define YOMI_OTHELLOPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rng.h"
#include "othello/othello.h"
#include "search/mcts.h"

typedef enum { OTHELLOPLAY_RANDOM, OTHELLOPLAY_MC, OTHELLOPLAY_MCTS } othelloplay_kind;

typedef struct {
	othelloplay_kind kind;
	uint32_t playouts;  /* mc: per legal move; mcts: per decision */
	double ucb;         /* mcts exploration constant */
	uint32_t threshold; /* mcts: visits before a leaf is expanded */
	mcts_tree tree;
} othelloplay;

enum { OTHELLOPLAY_MAX_PLAYOUTS = 100000000 };

/* Parses "random", "mc:N" or "mcts:N" (1 <= N <= OTHELLOPLAY_MAX_PLAYOUTS)
 * into P with the given mcts settings; false if SPEC is none of them. */
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
