/* calcafter: the afterstates of a Calculation position, for the research
 * tools that value placements (calcvi, calcwin, calcnn): the hand placed
 * and every pile top that fits sent up, the next card left face down, so
 * that a value can average over it; their exact chances, a game loop over
 * a tool's choice, and games that wander off the weighted rule's lines.
 * Inline, for tools that are one file each. */
#ifndef YOMI_CALCAFTER_H
#define YOMI_CALCAFTER_H

#include <math.h>

#include "calc/calc.h"
#include "calc/calcrows.h"
#include "calc/calcsolve.h"
#include "core/rng.h"
#include "core/util.h"

/* Afterstates a position can have: the hand up, or on one of four piles. */
enum { AFTER_MAX = 5 };

/* Sends up every pile top that fits, first foundation first, the hand
 * left unturned. */
static inline void after_settle(calc_state *s)
{
	for (bool moved = true; moved;) {
		moved = false;
		for (int w = 0; w < s->npiles; w++) {
			if (!s->len[w])
				continue;
			unsigned m = calc_accepting(s, s->pile[w][s->len[w] - 1]);
			if (m) {
				calc_play_unturned(s, CALC_MOVE(w + 1, __builtin_ctz(m)));
				moved = true;
			}
		}
	}
}

/* The afterstates of S (hand turned) into OUT and the hand's moves into
 * MOVE: the hand up (first foundation that takes it) or on each pile (one
 * empty pile for all), each settled. Returns their number. */
static inline int after_options(const calc_state *s, calc_state *out, int *move)
{
	int n = 0;
	unsigned m = calc_accepting(s, s->hand);
	if (m)
		move[n++] = CALC_MOVE(0, __builtin_ctz(m));
	bool empty = false;
	for (int w = 0; w < s->npiles; w++) {
		if (!s->len[w]) {
			if (empty)
				continue;
			empty = true;
		}
		move[n++] = CALC_MOVE(0, 4 + w);
	}
	for (int i = 0; i < n; i++) {
		out[i] = *s;
		calc_play_unturned(&out[i], move[i]);
		after_settle(&out[i]);
	}
	return n;
}

/* Which of the K options of S (moves MV, as after_options lists them)
 * the hand's move MOVE is: the same move, or both up, or both to an
 * empty pile; -1 if none. */
static inline int after_option_of(const calc_state *s, const int *mv, int k, int move)
{
	int to = CALC_TO(move);
	for (int j = 0; j < k; j++) {
		int tj = CALC_TO(mv[j]);
		if (mv[j] == move || (to < 4 && tj < 4) ||
		    (to >= 4 && tj >= 4 && !s->len[to - 4] && !s->len[tj - 4]))
			return j;
	}
	return -1;
}

/* How a player picks among the K afterstates O of S (reached by the
 * hand's moves MV): the index of its choice. */
typedef int after_choose(void *ctx, const calc_state *s, const calc_state *o, const int *mv,
			 int k);

/* Plays DECK (a standard deal as playout's --deals rows write it) to the
 * end, every turned card placed as CHOOSE picks and every pile top that
 * fits sent up; returns the cards left. TOOL names the caller in errors. */
static inline int after_play(const char *tool, const char *deck, after_choose *choose, void *ctx)
{
	calc_state s;
	const char *err = calc_deal_text(&s, NULL, deck);
	if (err)
		die("%s: %s", tool, err);
	while (!calc_over(&s)) {
		if (!s.hand) {
			after_settle(&s);
			calc_turn(&s);
			continue;
		}
		calc_state o[AFTER_MAX];
		int mv[AFTER_MAX] = {0}, k = after_options(&s, o, mv);
		calc_play(&s, mv[choose(ctx, &s, o, mv, k)]);
		after_settle(&s);
	}
	return calc_rest(&s);
}

/* Whether some pile top of S fits a foundation. */
static inline bool after_top_fits(const calc_state *s)
{
	for (int w = 0; w < s->npiles; w++)
		if (s->len[w] && calc_accepting(s, s->pile[w][s->len[w] - 1]))
			return true;
	return false;
}

/* The exact chance of afterstate S for a player who cannot see the stock
 * (calcsolve_expect over eager lines, with SV), or -1 past BUDGET
 * positions. */
static inline double after_chance(calcsolve *sv, const calc_state *s, uint64_t budget)
{
	if (s->ncards == s->next)
		return calc_success(s);
	double v;
	if (!calcsolve_expect(sv, s, 1, budget, true, &v))
		return -1;
	return v;
}

/* Cards face down in S. */
static inline int after_unseen(const calc_state *s)
{
	return s->ncards - s->next;
}

/* Judges whose choices after_regret scores, at most, and the moves of a
 * game it replays. */
enum { AFTER_JUDGES = 8, AFTER_MAX_MOVES = 2 * 52 };

/* How a tool's judges pick among the K afterstates O of S (the hand's
 * moves MV) at U unseen: PICK[q] for each judge q; false leaves the
 * choice out. */
typedef bool after_judge(void *ctx, const calc_state *s, const calc_state *o, const int *mv,
			 int k, int u, int *pick);

/* What after_regret found: the choices scored and those left out because
 * an exact chance passed the budget, and for each judge the chance it
 * lost against the best placement and how often it lost none, summed. */
typedef struct {
	long choices, unsolved;
	double loss[AFTER_JUDGES], hit[AFTER_JUDGES];
} after_score;

/* Where after_replay sends each position of a replayed game. */
typedef void after_replayed(void *ctx, const calc_state *s, const calc_state *before);

/* Replays every game of PATH (playout's rows with --deals --moves): VISIT
 * sees each position with the hand turned, before its move, and the
 * position before that one (NULL at a game's first). */
static inline void after_replay(const char *path, after_replayed *visit, void *ctx)
{
	static calc_state hist[AFTER_MAX_MOVES + 1];
	int played[AFTER_MAX_MOVES];
	calcrows rows;
	calcrows_open(&rows, path);
	while (calcrows_read(&rows)) {
		int h = calcrows_replay(&rows, hist, played, AFTER_MAX_MOVES);
		for (int i = 0; i < h; i++)
			if (hist[i].hand)
				visit(ctx, &hist[i], i ? &hist[i - 1] : NULL);
	}
	calcrows_close(&rows);
}

/* after_regret's arguments, as after_replay passes them on. */
typedef struct {
	int lo, hi, judges;
	calcsolve *sv;
	uint64_t budget;
	after_judge *judge;
	void *ctx;
	after_score *out;
} after_regret_run;

static inline void after_regret_at(void *ctx, const calc_state *s, const calc_state *before)
{
	after_regret_run *a = ctx;
	calc_state o[AFTER_MAX];
	int mv[AFTER_MAX], u = after_unseen(s), pick[AFTER_JUDGES] = {0};
	(void)before;
	if (u < a->lo || u > a->hi || after_top_fits(s))
		return;
	int k = after_options(s, o, mv);
	if (k < 2)
		return;
	double v[AFTER_MAX], top = 0, low = 1;
	for (int j = 0; j < k; j++) {
		v[j] = after_chance(a->sv, &o[j], a->budget);
		top = fmax(top, v[j]);
		low = fmin(low, v[j]);
	}
	a->out->unsolved += low < 0;
	if (low < 0 || !a->judge(a->ctx, s, o, mv, k, u, pick))
		return;
	a->out->choices++;
	for (int q = 0; q < a->judges; q++) {
		a->out->loss[q] += top - v[pick[q]];
		a->out->hit[q] += v[pick[q]] == top;
	}
}

/* How well JUDGES judges rank placements where the exact chances are
 * known: over the positions of PATH's games (playout's rows with --deals
 * --moves) at LO to HI unseen with two placements or more and no pile top
 * to send up, every placement's exact chance (after_chance with SV within
 * BUDGET positions) against the one each judge picks (JUDGE). */
static inline void after_regret(const char *path, int lo, int hi, calcsolve *sv, uint64_t budget,
				int judges, after_judge *judge, void *ctx, after_score *out)
{
	*out = (after_score){0};
	after_regret_run a = {lo, hi, judges, sv, budget, judge, ctx, out};
	after_replay(path, after_regret_at, &a);
}

/* Where after_wander sends each turned position of its games. */
typedef void after_visit(void *ctx, const calc_state *s);

/* Plays S to the end by the weighted rule, a fifth of its placements of
 * the hand made at random from R instead, for tools that want positions
 * off the rule's own lines: VISIT sees every position with the hand
 * turned, before its move. */
static inline void after_wander(calc_state *s, rng *r, after_visit *visit, void *ctx)
{
	while (!calc_over(s)) {
		if (!s->hand) {
			calc_play(s, calc_weighted_move(s));
			continue;
		}
		visit(ctx, s);
		int m = calc_weighted_move(s);
		if (CALC_FROM(m) == 0 && rng_below32(r, 5) == 0) {
			int mv[CALC_MAX_MOVES];
			int k = calc_moves(s, mv, false);
			int hand[CALC_MAX_MOVES], h = 0;
			for (int i = 0; i < k; i++)
				if (CALC_FROM(mv[i]) == 0)
					hand[h++] = mv[i];
			m = hand[rng_below32(r, (uint32_t)h)];
		}
		calc_play(s, m);
	}
}

/* after_wander over GAMES standard deals of stream SEED. */
static inline void after_explore(long games, uint64_t seed, after_visit *visit, void *ctx)
{
	rng r;
	rng_seed(&r, seed);
	for (long g = 0; g < games; g++) {
		uint8_t deck[52];
		calc_state s;
		calc_shuffle(0, &r, deck);
		calc_deal(&s, 0, deck);
		after_wander(&s, &r, visit, ctx);
	}
}

#endif
