/* calcreach: how much of what greedy rollouts lose is lost in the last
 * cards. Reads playout's rows (-g calc with --deals and --moves, any
 * variant); in each game, the position with UNSEEN cards face down (the
 * hand turned) is played on ROLLOUTS times by the greedy rule, the unseen
 * cards reshuffled each time (stream k of seed 1), as best's rollouts play
 * it. One row per game that reaches that position:
 *
 *   game,unseen,rollouts,greedy,reach12,reach10,reach8,reach6
 *
 * greedy: the share of the rollouts won; reachK: the share whose position
 * with K cards face down could still be won with the stock in view (a win
 * proved by the eager solver within BUDGET positions, so a lower bound).
 * Where reachK stands well above greedy, the rollouts lose most of their
 * games after K, by the rule's play, not by the position they were given.
 *   calcreach UNSEEN ROLLOUTS [BUDGET [FILE]]
 * UNSEEN 13..51, ROLLOUTS 1..1000000, BUDGET (default 20000) 1..10^9;
 * FILE defaults to stdin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc/calc.h"
#include "calc/calcrows.h"
#include "calc/calcsolve.h"
#include "core/cli.h"
#include "core/util.h"

#define REACH_USAGE "usage: calcreach UNSEEN ROLLOUTS [BUDGET [FILE]]"

/* Every card moves at most twice: from the hand, and off a pile. */
enum { REACH_KS = 4, REACH_MAX_MOVES = 2 * 52 };
static const int reach_k[REACH_KS] = {12, 10, 8, 6};

typedef struct {
	long won, reach[REACH_KS];
} reach_tally;

/* The row's game replayed into S up to the position with UNSEEN cards
 * face down and the hand turned; false if the game never gets there. */
static bool reach_position(const calcrows *rows, int unseen, calc_state *s)
{
	static calc_state hist[REACH_MAX_MOVES + 1];
	int played[REACH_MAX_MOVES];
	int n = calcrows_replay(rows, hist, played, REACH_MAX_MOVES);
	int i = calc_find_unseen(hist, n, unseen);
	if (i >= 0)
		*s = hist[i];
	return i >= 0;
}

/* One greedy rollout from S, reshuffled by stream K: whether it won, and
 * at each K of reach_k whether its position there could still be won. */
static void reach_rollout(calcsolve *sv, const calc_state *s, uint64_t k, uint64_t budget,
			  reach_tally *t)
{
	calc_state c = *s;
	rng r;
	rng_stream(&r, 1, k);
	calc_resample(&c, &r);
	for (int i = 0; i < REACH_KS; i++) {
		calc_greedy_playout_to(&c, reach_k[i]);
		if (!c.hand)
			break; /* the game ended first (UNSEEN is above every count) */
		t->reach[i] += calcsolve_run(sv, &c, budget, NULL) == CALCSOLVE_WON;
	}
	calc_greedy_playout(&c);
	t->won += calc_success(&c);
}

int main(int argc, char **argv)
{
	util_init(argv[0]);
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		puts(REACH_USAGE);
		return 0;
	}
	if (argc < 3 || argc > 5)
		die_usage("%s", REACH_USAGE);
	int unseen = (int)cli_i64("UNSEEN", argv[1], 13, 51);
	long rollouts = (long)cli_i64("ROLLOUTS", argv[2], 1, 1000000);
	uint64_t budget = argc > 3 ? (uint64_t)cli_i64("BUDGET", argv[3], 1, 1000000000) : 20000;
	calcrows rows;
	calcrows_open(&rows, argc > 4 ? argv[4] : "-");
	calcsolve sv;
	calcsolve_init(&sv, 18, false);
	puts("game,unseen,rollouts,greedy,reach12,reach10,reach8,reach6");
	while (calcrows_read(&rows)) {
		calc_state s;
		if (!reach_position(&rows, unseen, &s))
			continue;
		reach_tally tally = {0};
		for (long k = 0; k < rollouts; k++)
			reach_rollout(&sv, &s, (uint64_t)k, budget, &tally);
		printf("%s,%d,%ld,%.4f", calcrows_field(&rows, rows.game), unseen, rollouts,
		       (double)tally.won / (double)rollouts);
		for (int i = 0; i < REACH_KS; i++)
			printf(",%.4f", (double)tally.reach[i] / (double)rollouts);
		putchar('\n');
		fflush(stdout);
	}
	calcrows_close(&rows);
	calcsolve_free(&sv);
	return 0;
}
