/* calcturn: where a Calculation game turned from winnable to lost, with
 * the stock in view. Reads playout's rows (-g calc with --deals and
 * --moves, any variant), replays each game that did not succeed, and
 * finds the last position from which the deal could still be won by a
 * player who sees the stock. Writes one row per lost game:
 *
 *   game,status,unseen,move,kind,keep,piles,found
 *
 * status: turned (the move after that position is proved to lose the
 * deal), unknown (the position after it is neither proved won nor proved
 * lost), never (no position, not even the deal, is proved winnable).
 * unseen: the cards face down at that position, hand excluded; move: the
 * move played there, kind: up (to a foundation) or place (to a pile);
 * keep: the moves there that keep the deal winnable (space-separated);
 * piles: the waste piles bottom first, '.' for an empty one; found: the
 * cards on F1..F4.
 *
 * A win is proved by a nested search over greedy lines (levels 2 and 3,
 * as playout's clairvoyant) or by the exact solver; a loss only by the
 * exact solver, tried from TURN_EXACT unseen cards on within TURN_BUDGET
 * positions (keep lists the moves a nested search wins after, so it may
 * miss some). So far from the end "unknown" is the usual answer for a
 * position no line wins.
 *   calcturn [FILE]   (default stdin) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc/calc.h"
#include "calc/calcrows.h"
#include "calc/calcsolve.h"
#include "core/table.h"
#include "core/util.h"

enum { TURN_EXACT = 26, TURN_BUDGET = 5000000, TURN_MAX_MOVES = 2 * 52 + 4 };
enum { TURN_WON = 1, TURN_LOST = 0, TURN_UNKNOWN = -1 };

static calcsolve solver;

/* Whether S can be won with its stock in view: TURN_WON, TURN_LOST or
 * TURN_UNKNOWN; with only NESTED, never TURN_LOST (no exact search). */
static int turn_winnable(const calc_state *s, bool nested)
{
	if (calc_over(s))
		return calc_success(s) ? TURN_WON : TURN_LOST;
	calcsolve_line line;
	for (int level = 2; level <= 3; level++) {
		calcsolve_nested(s, level, &line);
		if (!line.rest)
			return TURN_WON;
	}
	if (nested || s->ncards - s->next > TURN_EXACT)
		return TURN_UNKNOWN;
	switch (calcsolve_run(&solver, s, TURN_BUDGET, NULL)) {
	case CALCSOLVE_WON:
		return TURN_WON;
	case CALCSOLVE_LOST:
		return TURN_LOST;
	default:
		return TURN_UNKNOWN;
	}
}

static void turn_print_position(const calc_state *s)
{
	putchar(',');
	for (int w = 0; w < s->npiles; w++) {
		if (w)
			putchar(' ');
		if (!s->len[w])
			putchar('.');
		for (int k = 0; k < s->len[w]; k++)
			putchar(calc_rank_char(s->pile[w][k]));
	}
	printf(",%d %d %d %d\n", s->found[0], s->found[1], s->found[2], s->found[3]);
}

/* One lost game: the last position proved winnable and what was played. */
static void turn_game(const char *game, const calc_state *hist, const int *played, int n)
{
	int last = -1, after = TURN_UNKNOWN;
	for (int j = 0; j <= n; j++) {
		int w = turn_winnable(&hist[j], false);
		if (w != TURN_WON) {
			after = w;
			break;
		}
		last = j;
	}
	if (last < 0 || last == n) {
		printf("%s,never,,,,,,\n", game);
		return;
	}
	const calc_state *c = &hist[last];
	char name[16];
	calc_move_name(c, played[last], name);
	printf("%s,%s,%d,%s,%s,", game, after == TURN_LOST ? "turned" : "unknown",
	       c->ncards - c->next, name, CALC_TO(played[last]) < 4 ? "up" : "place");
	int moves[CALC_MAX_MOVES], nm = calc_moves(c, moves, true), kept = 0;
	for (int i = 0; i < nm; i++) {
		calc_state d = *c;
		calc_play(&d, moves[i]);
		if (moves[i] != played[last] && turn_winnable(&d, true) == TURN_WON) {
			calc_move_name(c, moves[i], name);
			printf("%s%s", kept++ ? " " : "", name);
		}
	}
	turn_print_position(c);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	util_init(argv[0]);
	if (argc > 2)
		die_usage("usage: calcturn [FILE]");
	calcrows rows;
	calcrows_open(&rows, argc == 2 ? argv[1] : "-");
	int cs = table_need_col(rows.t, "success");
	static calc_state hist[TURN_MAX_MOVES];
	int played[TURN_MAX_MOVES];
	calcsolve_init(&solver, 22, true);
	puts("game,status,unseen,move,kind,keep,piles,found");
	while (calcrows_read(&rows)) {
		if (!strcmp(calcrows_field(&rows, cs), "1"))
			continue;
		int n = calcrows_replay(&rows, hist, played, TURN_MAX_MOVES - 1);
		turn_game(calcrows_field(&rows, rows.game), hist, played, n);
	}
	calcrows_close(&rows);
	calcsolve_free(&solver);
	return 0;
}
