/* calcwin: Calculation's window game, a sub-game solved exactly, as the
 * evaluation of a player who cannot see the stock. Research tool for
 * issue 27.
 *
 * The window game of a position and a width W: each foundation must take
 * its next W cards (or be complete). A card whose rank no foundation
 * still needs within its window is junk: it never goes up, and on a pile
 * it buries for good the cards under it. So a pile counts only by the
 * cards above its topmost junk card, and the unseen cards only by the
 * ranks the windows need and by how many are junk. Each card turned is
 * placed on a foundation that takes it or on a pile, and every pile top
 * that fits goes up at once. The value is the chance that every window
 * fills before the stock runs out, for a player who places each card as
 * well as possible knowing which cards are unseen but not their order:
 * an expectimax over the next card's rank, with a memo.
 *
 * The player: at each turned card, every placement (the hand up, or on
 * each pile, one empty pile for all) is settled (tops up) and valued by
 * the window game with the windows of the position before the move, so
 * that placements are judged against the same goal, in the widest windows
 * up to W whose games every placement settles within NODES positions;
 * from EXACT unseen down by the exact chance (calcsolve_expect, eager
 * lines). Ties go to the weighted rule's placement. Over the decks of
 * DECKS (rows with a deck column) it writes
 *
 *   player,deals,won,rest
 *
 * and each deal's cards left on stderr.
 *   calcwin W EXACT NODES DECKS
 * W 1..6, EXACT 0..12, NODES 1..10^9. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc/calc.h"
#include "calc/calcsolve.h"
#include "core/cli.h"
#include "core/table.h"
#include "core/util.h"

#include "calcafter.h"

#define CW_USAGE "usage: calcwin W EXACT NODES DECKS"

enum { CW_EXACT_BUDGET = 2000000, CW_MEMO_CAP = 1 << 21 };

typedef struct {
	uint8_t f[4], tgt[4];
	uint8_t npiles;
	uint8_t len[4];
	uint8_t seg[4][52]; /* the cards above the topmost junk, bottom first */
	uint8_t cnt[14];    /* unseen cards of ranks a window needs */
	uint8_t junk;       /* unseen junk */
} cw_state;

/* The memo of window games (calcsolve's map), emptied when it holds
 * CW_MEMO_CAP of them, and the positions expanded against the budget. */
static calcsolve_memo cw_memo;
static uint64_t cw_nodes, cw_budget;

static calcsolve cw_sv;

/* The ranks some window still needs, as a mask of bits 1..13. */
static unsigned cw_live(const cw_state *s)
{
	unsigned m = 0;
	for (int k = 0; k < 4; k++)
		for (int n = s->f[k]; n < s->tgt[k]; n++)
			m |= 1u << calc_need(k, n);
	return m;
}

/* Turns cards no window needs into junk: unseen ones into the count,
 * and on a pile everything from the topmost one down out of reach. */
static void cw_normalize(cw_state *s)
{
	unsigned live = cw_live(s);
	for (int r = 1; r <= 13; r++)
		if (!(live >> r & 1) && s->cnt[r]) {
			s->junk += s->cnt[r];
			s->cnt[r] = 0;
		}
	for (int w = 0; w < s->npiles; w++) {
		int i = s->len[w];
		while (i > 0 && live >> s->seg[w][i - 1] & 1)
			i--;
		if (i) {
			memmove(s->seg[w], s->seg[w] + i, (size_t)(s->len[w] - i));
			s->len[w] = (uint8_t)(s->len[w] - i);
		}
	}
}

/* The foundation whose window takes RANK now, or -1. */
static int cw_taker(const cw_state *s, int rank)
{
	for (int k = 0; k < 4; k++)
		if (s->f[k] < s->tgt[k] && calc_need(k, s->f[k]) == rank)
			return k;
	return -1;
}

/* Sends up every pile top that fits, then drops what became junk. */
static void cw_settle(cw_state *s)
{
	for (bool moved = true; moved;) {
		moved = false;
		for (int w = 0; w < s->npiles; w++) {
			int k;
			if (s->len[w] && (k = cw_taker(s, s->seg[w][s->len[w] - 1])) >= 0) {
				s->f[k]++;
				s->len[w]--;
				moved = true;
			}
		}
	}
	cw_normalize(s);
}

static bool cw_done(const cw_state *s)
{
	for (int k = 0; k < 4; k++)
		if (s->f[k] < s->tgt[k])
			return false;
	return true;
}

/* Whether a foundation's next card has no copy left within reach. */
static bool cw_hopeless(const cw_state *s)
{
	for (int k = 0; k < 4; k++) {
		if (s->f[k] >= s->tgt[k])
			continue;
		int r = calc_need(k, s->f[k]), n = s->cnt[r];
		for (int w = 0; w < s->npiles && !n; w++)
			n += memchr(s->seg[w], r, s->len[w]) != NULL;
		if (!n)
			return true;
	}
	return false;
}

static uint64_t cw_mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
	h *= 0xbf58476d1ce4e5b9u;
	return h ^ (h >> 31);
}

/* The state's key: the piles taken as a multiset (their order is no
 * matter), so their hashes are summed. */
static uint64_t cw_key(const cw_state *s)
{
	uint64_t h = 1;
	for (int k = 0; k < 4; k++)
		h = cw_mix(h, (uint64_t)s->f[k] << 8 | s->tgt[k]);
	for (int r = 1; r <= 13; r++)
		h = cw_mix(h, s->cnt[r]);
	h = cw_mix(h, s->junk);
	uint64_t piles = 0;
	for (int w = 0; w < s->npiles; w++) {
		uint64_t p = 7;
		for (int i = 0; i < s->len[w]; i++)
			p = cw_mix(p, s->seg[w][i]);
		piles += cw_mix(p, s->len[w]);
	}
	return cw_mix(h, piles);
}

static void cw_put(uint64_t key, double v)
{
	if (cw_memo.used >= CW_MEMO_CAP)
		calcsolve_memo_clear(&cw_memo);
	calcsolve_memo_put(&cw_memo, key, v);
}

static double cw_value(const cw_state *s);

/* The best placement's value for card RANK (taken from the unseen
 * already), or 0 for junk: junk goes on a pile with nothing in reach if
 * there is one (which changes nothing), else it buries one pile's. */
static double cw_place(const cw_state *s, int rank)
{
	double best = 0;
	bool empty = false;
	int k = rank ? cw_taker(s, rank) : -1;
	if (k >= 0) {
		cw_state u = *s;
		u.f[k]++;
		cw_settle(&u);
		best = cw_value(&u);
	}
	for (int w = 0; w < s->npiles && best < 1; w++) {
		if (!s->len[w]) {
			if (empty)
				continue;
			empty = true;
			if (!rank)
				return cw_value(s);
		}
		cw_state u = *s;
		if (rank)
			u.seg[w][u.len[w]++] = (uint8_t)rank;
		else
			u.len[w] = 0;
		cw_settle(&u);
		double v = cw_value(&u);
		if (v > best)
			best = v;
	}
	return best;
}

/* The chance of filling every window from S (hand empty, settled). */
static double cw_value(const cw_state *s)
{
	if (cw_done(s))
		return 1;
	int total = s->junk;
	for (int r = 1; r <= 13; r++)
		total += s->cnt[r];
	if (!total || cw_hopeless(s))
		return 0;
	uint64_t key = cw_key(s);
	double v;
	if (calcsolve_memo_get(&cw_memo, key, &v))
		return v;
	if (++cw_nodes > cw_budget)
		return 0;
	double sum = 0;
	for (int r = 0; r <= 13; r++) {
		int c = r ? s->cnt[r] : s->junk;
		if (!c)
			continue;
		cw_state t = *s;
		if (r)
			t.cnt[r]--;
		else
			t.junk--;
		sum += c * cw_place(&t, r);
	}
	v = sum / total;
	if (cw_nodes <= cw_budget)
		cw_put(key, v);
	return v;
}

/* The window game of afterstate A (hand empty) with windows TGT; -1 past
 * the budget. */
static double cw_window(const calc_state *a, const uint8_t *tgt)
{
	cw_state s = {.npiles = a->npiles, .junk = 0};
	memcpy(s.f, a->found, 4);
	memcpy(s.tgt, tgt, 4);
	for (int w = 0; w < a->npiles; w++) {
		s.len[w] = a->len[w];
		memcpy(s.seg[w], a->pile[w], a->len[w]);
	}
	for (int i = a->next; i < a->ncards; i++)
		s.cnt[a->stock[i]]++;
	cw_settle(&s);
	cw_nodes = 0;
	double v = cw_value(&s);
	return cw_nodes > cw_budget ? -1 : v;
}

/* Afterstate A's exact chance when it has EXACT or fewer cards unseen,
 * else -1 (or past the budget). */
static double cw_exact(const calc_state *a, int exact)
{
	int n = a->ncards - a->next;
	double v;
	if (!n)
		return calc_success(a);
	if (n <= exact && calcsolve_expect(&cw_sv, a, 1, CW_EXACT_BUDGET, true, &v))
		return v;
	return -1;
}

/* V[i] for the K options O of S: exact chances if every one has them,
 * else the window game's, in the widest windows up to WIDTH that every
 * option's game settles within the budget (0 if none does). */
static void cw_values(const calc_state *s, const calc_state *o, int k, int width, int exact,
		      double *v)
{
	bool all = true;
	for (int i = 0; i < k; i++)
		all = all && (v[i] = cw_exact(&o[i], exact)) >= 0;
	if (all)
		return;
	for (int w = width; w >= 1; w--) {
		uint8_t tgt[4];
		for (int f = 0; f < 4; f++)
			tgt[f] = (uint8_t)(s->found[f] + w > 13 ? 13 : s->found[f] + w);
		all = true;
		for (int i = 0; i < k && all; i++)
			all = (v[i] = cw_window(&o[i], tgt)) >= 0;
		if (all)
			return;
	}
	for (int i = 0; i < k; i++)
		v[i] = 0;
}

/* Choices with two placements or more, and those of them where two or
 * more share the best value (the weighted rule's to break the tie). */
static long cw_choices, cw_ties;

/* The option of the K valued V that S's player takes: the best, and
 * among ties the weighted rule's placement, else the first. */
static int cw_pick(const calc_state *s, const int *mv, const double *v, int k)
{
	int pick = 0, rule = calc_weighted_move(s), tied = 0;
	for (int i = 1; i < k; i++)
		if (v[i] > v[pick] + 1e-9)
			pick = i;
	double best = v[pick];
	for (int i = 0; i < k; i++)
		tied += v[i] >= best - 1e-9;
	int j = CALC_FROM(rule) ? -1 : after_option_of(s, mv, k, rule);
	if (j >= 0 && v[j] >= best - 1e-9)
		pick = j;
	cw_choices += k > 1;
	cw_ties += tied > 1;
	return pick;
}

/* The player's choice among the K options O of S: their values by
 * cw_values (CTX points to W and EXACT), picked by cw_pick. */
static int cw_choose(void *ctx, const calc_state *s, const calc_state *o, const int *mv, int k)
{
	const int *we = ctx;
	double v[AFTER_MAX];
	cw_values(s, o, k, we[0], we[1], v);
	return cw_pick(s, mv, v, k);
}

int main(int argc, char **argv)
{
	if (argc != 5)
		die("%s", CW_USAGE);
	int we[2] = {(int)cli_i64("W", argv[1], 1, 6), (int)cli_i64("EXACT", argv[2], 0, 12)};
	calcsolve_init(&cw_sv, 20, false);
	calcsolve_memo_clear(&cw_memo);
	cw_budget = (uint64_t)cli_i64("NODES", argv[3], 1, 1000000000);
	table *t = table_open(argv[4], NULL);
	int col = table_need_col(t, "deck");
	long n = 0, won = 0, rest = 0;
	printf("player,deals,won,rest\n");
	while (table_read_row(t)) {
		int r = after_play("calcwin", table_field(t, (size_t)col), cw_choose, we);
		n++;
		won += !r;
		rest += r;
		fprintf(stderr, "deal %ld: %d left\n", n, r);
	}
	table_close(t);
	fprintf(stderr, "choices %ld, ties left to the weighted rule %ld\n", cw_choices, cw_ties);
	printf("window%d,%ld,%ld,%.2f\n", we[0], n, won, n ? (double)rest / (double)n : 0.0);
	return 0;
}
