/* calcrun: what `playout --game calc` does: games of Calculation, one row
 * per game (game,seed,variant,policy,success,rest,steps[,moves]), from
 * seeded shuffles or from decks in tables (a `deck` column of rank
 * letters A23456789TJQK, top of the stock first; other columns are
 * carried after a `deal` column), or one game drawn for people.
 *
 * Streams: game i of deal p draws from rng_stream(seed, p * 2^40 + i)
 * (p = 0: the shuffled deals, whose shuffle comes first from the same
 * stream), so shards (--first-game, -n) reproduce the unsplit run. */
#ifndef YOMI_CALCRUN_H
#define YOMI_CALCRUN_H

#include <stdbool.h>
#include <stdint.h>

#include "calc/calcplay.h"
#include "core/cli.h"

typedef struct {
	uint64_t seed;
	int64_t first, games;
	bool moves, show, quiet;
	int variant;
	calcplay player;
	const char *policy_name;
	cli_output out;
	char **files;
	int nfiles;
} calcrun_opts;

int calcrun_main(calcrun_opts *o);

#endif
