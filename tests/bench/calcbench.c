/* Calculation games per second, dealt and played. Random games: calcbatch
 * (eight games a vector instruction, 64 games a call as playout makes
 * them), lib/calc's counting playout one game at a time, and the generic
 * loop (list the moves, draw one, play it); all three make the same moves
 * draw for draw (tests/unit/test_calc checks that), so they win the same
 * games. Greedy games (best's rollouts): calcbatch against lib/calc's
 * table-driven playout, again the same moves; and best's rollouts as it
 * plays them, reshuffles of one dealt position's unseen cards played by
 * the plain rule or with the cascade (calcbatch_resampled).
 *   calcbench batch|lib|generic|greedy-batch|greedy-lib|rollouts|cascade GAMES
 *     ->  "GAMES games in S s: R games/s, W won" */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc/calc.h"
#include "calc/calcbatch.h"
#include "core/util.h"

enum { BATCH = 64 };

static void generic_playout(calc_state *s, rng *r)
{
	int moves[CALC_MAX_MOVES], n;
	while ((n = calc_moves(s, moves, false)) > 0)
		calc_play(s, moves[rng_below32(r, (uint32_t)n)]);
}

int main(int argc, char **argv)
{
	const char *mode = argc == 3 ? argv[1] : "";
	if (strcmp(mode, "batch") && strcmp(mode, "lib") && strcmp(mode, "generic") &&
	    strcmp(mode, "greedy-batch") && strcmp(mode, "greedy-lib") && strcmp(mode, "rollouts") &&
	    strcmp(mode, "cascade")) {
		fputs("usage: calcbench batch|lib|generic|greedy-batch|greedy-lib|rollouts|cascade GAMES\n",
		      stderr);
		return 2;
	}
	long games = atol(argv[2]), won = 0;
	static uint8_t decks[BATCH][52];
	static rng gens[BATCH];
	static calcbatch_outcome res[BATCH];
	static calc_state states[BATCH];
	double t0 = util_seconds(false);
	for (long i = 0; i < games; i += BATCH) {
		int n = games - i < BATCH ? (int)(games - i) : BATCH;
		for (int g = 0; g < n; g++) {
			rng_stream(&gens[g], 1, (uint64_t)(i + g));
			calc_shuffle(0, &gens[g], decks[g]);
		}
		if (!strcmp(mode, "batch")) {
			calcbatch_random(0, decks, gens, (size_t)n, res);
			for (int g = 0; g < n; g++)
				won += res[g].success;
			continue;
		}
		if (!strcmp(mode, "rollouts") || !strcmp(mode, "cascade")) {
			calc_deal(&states[0], 0, decks[0]);
			calcbatch_resampled(&states[0], 2, (uint64_t)i, (size_t)n, !strcmp(mode, "cascade"),
					    res);
			for (int g = 0; g < n; g++)
				won += res[g].success;
			continue;
		}
		if (!strcmp(mode, "greedy-batch")) {
			for (int g = 0; g < n; g++)
				calc_deal(&states[g], 0, decks[g]);
			calcbatch_greedy(states, (size_t)n, res);
			for (int g = 0; g < n; g++)
				won += res[g].success;
			continue;
		}
		for (int g = 0; g < n; g++) {
			calc_state s;
			calc_deal(&s, 0, decks[g]);
			if (!strcmp(mode, "greedy-lib"))
				calc_greedy_playout(&s);
			else if (!strcmp(mode, "lib"))
				calc_random_playout(&s, &gens[g]);
			else
				generic_playout(&s, &gens[g]);
			won += calc_success(&s);
		}
	}
	double t = util_seconds(false) - t0;
	printf("%ld games in %.3f s: %.0f games/s, %ld won\n", games, t, (double)games / t, won);
	return 0;
}
