/* Random Calculation games per second: lib/calc's counting playout against
 * the generic loop (list the moves, draw one, play it), which makes the same
 * moves draw for draw (tests/unit/test_calc checks that).
 *   calcbench lib|generic GAMES  ->  "GAMES games in S s: R games/s, W won" */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calc.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void generic_playout(calc_state *s, rng_t *r)
{
	int moves[CALC_MAX_MOVES], n;
	while ((n = calc_moves(s, moves, false)) > 0)
		calc_play(s, moves[rng_below32(r, (uint32_t)n)]);
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "lib") && strcmp(argv[1], "generic"))) {
		fputs("usage: calcbench lib|generic GAMES\n", stderr);
		return 2;
	}
	bool lib = !strcmp(argv[1], "lib");
	long games = atol(argv[2]), won = 0;
	double t0 = now();
	for (long i = 0; i < games; i++) {
		rng_t r;
		rng_stream(&r, 1, (uint64_t)i);
		uint8_t deck[52];
		calc_shuffle(0, &r, deck);
		calc_state s;
		calc_deal(&s, 0, deck);
		if (lib)
			calc_random_playout(&s, &r);
		else
			generic_playout(&s, &r);
		won += calc_success(&s);
	}
	double t = now() - t0;
	printf("%ld games in %.3f s: %.0f games/s, %ld won\n", games, t, (double)games / t, won);
	return 0;
}
