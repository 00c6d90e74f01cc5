/* Random Othello games per second: lib/othello (batched bitboards) against
 * a plain baseline written the obvious way (a shift-and-mask step per
 * direction, one square at a time), same generator, same rules.
 *   othbench lib|plain GAMES  ->  "GAMES games in S s: R games/s, P plies/game" */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "othello/othello.h"

/* The baseline: shifts with edge masks, direction by direction. */
static const int plain_shift[8] = {1, -1, 8, -8, 7, -7, 9, -9};
static const uint64_t plain_mask[8] = {
	0xfefefefefefefefeULL, 0x7f7f7f7f7f7f7f7fULL, ~0ULL, ~0ULL,
	0x7f7f7f7f7f7f7f7fULL, 0xfefefefefefefefeULL, 0xfefefefefefefefeULL, 0x7f7f7f7f7f7f7f7fULL,
};

static uint64_t plain_step(uint64_t b, int d)
{
	int s = plain_shift[d];
	return (s > 0 ? b << s : b >> -s) & plain_mask[d];
}

static uint64_t plain_moves(uint64_t me, uint64_t opp)
{
	uint64_t empty = ~(me | opp), m = 0;
	for (int d = 0; d < 8; d++) {
		uint64_t t = plain_step(me, d) & opp;
		for (int k = 0; k < 5; k++)
			t |= plain_step(t, d) & opp;
		m |= plain_step(t, d) & empty;
	}
	return m;
}

static uint64_t plain_flips(uint64_t me, uint64_t opp, int sq)
{
	uint64_t f = 0, x = 1ULL << sq;
	for (int d = 0; d < 8; d++) {
		uint64_t run = 0, t = plain_step(x, d);
		while (t & opp) {
			run |= t;
			t = plain_step(t, d);
		}
		if (t & me)
			f |= run;
	}
	return f;
}

static int plain_game(rng *r)
{
	othello_pos p;
	othello_start(&p);
	uint64_t me = p.me, opp = p.opp;
	int plies = 0;
	for (;;) {
		uint64_t m = plain_moves(me, opp);
		if (!m) {
			if (!plain_moves(opp, me))
				break;
		} else {
			unsigned k = (unsigned)rng_below(r, (uint64_t)__builtin_popcountll(m));
			while (k--)
				m &= m - 1;
			int sq = __builtin_ctzll(m);
			uint64_t f = plain_flips(me, opp, sq);
			me |= f | 1ULL << sq;
			opp ^= f;
		}
		uint64_t t = me;
		me = opp;
		opp = t;
		plies++;
	}
	return plies;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	long n = atol(argv[2]);
	long plies = 0;
	double t0 = util_seconds(false);
	if (!strcmp(argv[1], "plain")) {
		rng r;
		for (long i = 0; i < n; i++) {
			rng_stream(&r, 1, (uint64_t)i);
			plies += plain_game(&r);
		}
	} else {
		othello_pos s[OTHELLO_BATCH];
		rng r[OTHELLO_BATCH];
		othello_game g[OTHELLO_BATCH];
		for (int j = 0; j < OTHELLO_BATCH; j++)
			othello_start(&s[j]);
		for (long i = 0; i < n; i += OTHELLO_BATCH) {
			int b = n - i < OTHELLO_BATCH ? (int)(n - i) : OTHELLO_BATCH;
			for (int j = 0; j < b; j++)
				rng_stream(&r[j], 1, (uint64_t)(i + j));
			othello_random_games(s, r, g, b, false);
			for (int j = 0; j < b; j++)
				plies += g[j].plies;
		}
	}
	double t = util_seconds(false) - t0;
	printf("%ld games in %.3f s: %.0f games/s, %.2f plies/game\n", n, t, (double)n / t,
	       (double)plies / (double)n);
	return 0;
}
