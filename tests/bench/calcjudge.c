/* calcjudge: what each way of judging a rollout's end finds, and what it
 * costs. Reads playout's rows (-g calc with --deals and --moves, any
 * variant); in each game, at each position with the hand turned and 44,
 * 38, 32, 26 or 20 cards face down, plays ROLLOUTS greedy rollouts (the
 * unseen cards reshuffled by stream (game * 100 + that position's place
 * in the list, k)) as best's rollouts do, each stopped where FROM cards
 * are left face down (calc_greedy_playout_to). Then every judge takes
 * every position so collected, with the rollout's own order in view, and
 * one row per judge is written:
 *
 *   judge,positions,won,us
 *
 * won: the share of the positions the judge wins; us: its microseconds
 * a position (CPU time). The judges: greedy (the greedy rule to the end,
 * what a plain rollout does), solve5 to solve20000 (the eager solver
 * within 5, 10, 20, 50 or 20,000 positions; best's --solve-from takes 50),
 * nested1 and nested2 (calcsolve_nested at levels 1 and 2).
 *   calcjudge FROM ROLLOUTS [FILE]
 * FROM 1..19, ROLLOUTS 1..10000; FILE defaults to stdin. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calc/calc.h"
#include "calc/calcrows.h"
#include "calc/calcsolve.h"
#include "core/cli.h"
#include "core/table.h"
#include "core/util.h"

#define JUDGE_USAGE "usage: calcjudge FROM ROLLOUTS [FILE]"

enum { JUDGE_MAX_MOVES = 2 * 52, JUDGE_SOLVERS = 5 };
static const int judge_unseen[] = {44, 38, 32, 26, 20};
static const uint64_t judge_budget[JUDGE_SOLVERS] = {5, 10, 20, 50, 20000};

typedef struct {
	calc_state *s;
	size_t n, cap;
} judge_positions;

static void judge_keep(judge_positions *p, const calc_state *s)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 4096;
		p->s = xrealloc(p->s, p->cap * sizeof *p->s);
	}
	p->s[p->n++] = *s;
}

/* The rollouts of one game: its positions at judge_unseen, each played
 * ROLLOUTS times by the greedy rule to FROM unseen. */
static void judge_game(const calcrows *rows, long game, int from, long rollouts, judge_positions *p)
{
	static calc_state hist[JUDGE_MAX_MOVES + 1];
	int played[JUDGE_MAX_MOVES];
	int n = calcrows_replay(rows, hist, played, JUDGE_MAX_MOVES);
	for (size_t q = 0; q < sizeof judge_unseen / sizeof *judge_unseen; q++) {
		int i = calc_find_unseen(hist, n, judge_unseen[q]);
		if (i < 0)
			continue;
		for (long k = 0; k < rollouts; k++) {
			calc_state c = hist[i];
			rng r;
			rng_stream(&r, (uint64_t)game * 100 + q, (uint64_t)k);
			calc_resample(&c, &r);
			calc_greedy_playout_to(&c, from);
			if (c.hand)
				judge_keep(p, &c);
		}
	}
}

/* Whether judge J wins S. */
static bool judge_wins(int j, calcsolve *sv, const calc_state *s)
{
	if (j == 0) {
		calc_state c = *s;
		calc_greedy_playout(&c);
		return calc_success(&c);
	}
	if (j <= JUDGE_SOLVERS)
		return calcsolve_run(sv, s, judge_budget[j - 1], NULL) == CALCSOLVE_WON;
	calcsolve_line line;
	calcsolve_nested(s, j - JUDGE_SOLVERS, &line);
	return line.rest == 0;
}

int main(int argc, char **argv)
{
	util_init(argv[0]);
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		puts(JUDGE_USAGE);
		return 0;
	}
	if (argc < 3 || argc > 4)
		die_usage("%s", JUDGE_USAGE);
	int from = (int)cli_i64("FROM", argv[1], 1, 19);
	long rollouts = (long)cli_i64("ROLLOUTS", argv[2], 1, 10000);
	calcrows rows;
	calcrows_open(&rows, argc > 3 ? argv[3] : "-");
	judge_positions p = {0};
	while (calcrows_read(&rows)) {
		int64_t game;
		const char *g = calcrows_field(&rows, rows.game);
		if (!util_parse_i64(g, 0, INT64_MAX / 128, &game))
			die_at(table_name(rows.t), table_line(rows.t),
			       "column 'game': '%s' is not a game number", g);
		judge_game(&rows, (long)game, from, rollouts, &p);
	}
	calcrows_close(&rows);
	static const char *const name[] = {"greedy", "solve5", "solve10", "solve20", "solve50", "solve20000", "nested1",
					   "nested2"};
	calcsolve sv;
	calcsolve_init(&sv, 18, false);
	puts("judge,positions,won,us");
	for (int j = 0; j < (int)(sizeof name / sizeof *name); j++) {
		size_t won = 0;
		clock_t start = clock();
		for (size_t i = 0; i < p.n; i++)
			won += judge_wins(j, &sv, &p.s[i]);
		double us = (double)(clock() - start) / CLOCKS_PER_SEC * 1e6;
		printf("%s,%zu,%.4f,%.2f\n", name[j], p.n, p.n ? (double)won / (double)p.n : 0.0,
		       p.n ? us / (double)p.n : 0.0);
	}
	calcsolve_free(&sv);
	free(p.s);
	return 0;
}
