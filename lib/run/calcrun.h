/* calcrun: what `playout --game calc` does: games of Calculation, one row
 * per game (game,seed,variant,policy,success,rest,steps[,moves]), from
 * seeded shuffles or from decks in tables (a `deck` column of rank
 * letters A23456789TJQK, top of the stock first; other columns are
 * carried after a `deal` column), or one game drawn for people.
 *
 * Streams: game i of deal p draws from rng_key(p, 0, i) (p = 0: the
 * shuffled deals, whose shuffle comes first from the same stream), so
 * shards (--first-game, -n) reproduce the unsplit run. */
#ifndef YOMI_CALCRUN_H
#define YOMI_CALCRUN_H

#include <stdbool.h>

#include "calc/calcplay.h"
#include "run/playoutgame.h"

typedef struct {
	run_opts common;     /* count: games per deal */
	int variant;         /* CALC_NOFOUND, CALC_THREE */
	calcplay player;
	bool deals;          /* --deals: a deck column, each game's deal */
	unsigned set;        /* the policy options given, as bits of calcrun.c's
			      * table of what each applies to */
	char policy_name[64];
} calcrun_opts;

extern const playoutgame calcrun_game;

#endif
