#include "calc.h"

#include <string.h>

#include "util.h"

static const char RANKS[] = "A23456789TJQK";

char calc_rank_char(int rank)
{
	return rank >= 1 && rank <= 13 ? RANKS[rank - 1] : '?';
}

int calc_stock_size(int variant)
{
	return variant & CALC_NOFOUND ? 52 : 48;
}

/* The stock's cards in rank order: four of each rank, less the foundation
 * starters A, 2, 3, 4 unless the variant starts with empty foundations. */
static void full_deck(int variant, uint8_t out[52])
{
	int n = 0;
	for (int r = 1; r <= 13; r++) {
		int copies = !(variant & CALC_NOFOUND) && r <= 4 ? 3 : 4;
		for (int c = 0; c < copies; c++)
			out[n++] = (uint8_t)r;
	}
}

void calc_shuffle(int variant, rng_t *r, uint8_t out[52])
{
	int n = calc_stock_size(variant);
	full_deck(variant, out);
	for (int i = n - 1; i > 0; i--) {
		int j = (int)rng_below(r, (uint64_t)i + 1);
		uint8_t t = out[i];
		out[i] = out[j];
		out[j] = t;
	}
}

const char *calc_parse_deck(const char *s, int variant, uint8_t out[52])
{
	int n = calc_stock_size(variant);
	if ((int)strlen(s) != n)
		return n == 48 ? "deck must have 48 cards (A23456789TJQK)"
			       : "deck must have 52 cards (A23456789TJQK)";
	int count[14] = {0};
	for (int i = 0; i < n; i++) {
		const char *p = strchr(RANKS, s[i]);
		if (!s[i] || !p)
			return "deck may hold only the rank letters A23456789TJQK";
		out[i] = (uint8_t)(p - RANKS + 1);
		count[out[i]]++;
	}
	for (int r = 1; r <= 13; r++) {
		if (count[r] > 4)
			return "deck has a rank more than four times";
		if (count[r] == 4 && r <= 4 && !(variant & CALC_NOFOUND))
			return "deck holds a fourth A, 2, 3 or 4: those start the foundations";
	}
	return NULL;
}

void calc_format_deck(const uint8_t *deck, int n, char *out)
{
	for (int i = 0; i < n; i++)
		out[i] = calc_rank_char(deck[i]);
	out[n] = '\0';
}

void calc_turn(calc_state *s)
{
	if (!s->hand && s->next < s->ncards)
		s->hand = s->stock[s->next++];
}

void calc_deal(calc_state *s, int variant, const uint8_t *deck)
{
	memset(s, 0, sizeof *s);
	s->variant = (uint8_t)variant;
	s->ncards = (uint8_t)calc_stock_size(variant);
	memcpy(s->stock, deck, s->ncards);
	s->npiles = variant & CALC_THREE ? 3 : 4;
	for (int k = 0; k < 4; k++)
		s->found[k] = variant & CALC_NOFOUND ? 0 : 1;
	calc_turn(s);
	calc_check(s);
}

/* The first foundation that accepts RANK, or -1 (two may need the same
 * rank at once; calc_moves lists both). */
static int accepting(const calc_state *s, int rank)
{
	for (int k = 0; k < 4; k++)
		if (calc_need(k, s->found[k]) == rank)
			return k;
	return -1;
}

int calc_moves(const calc_state *s, int *out, bool distinct)
{
	int n = 0;
	if (s->hand) {
		for (int k = 0; k < 4; k++)
			if (calc_need(k, s->found[k]) == s->hand)
				out[n++] = CALC_MOVE(0, k);
		bool empty_seen = false;
		for (int w = 0; w < s->npiles; w++) {
			if (!s->len[w]) {
				if (distinct && empty_seen)
					continue;
				empty_seen = true;
			}
			out[n++] = CALC_MOVE(0, 4 + w);
		}
	}
	for (int w = 0; w < s->npiles; w++) {
		if (!s->len[w])
			continue;
		int top = s->pile[w][s->len[w] - 1];
		for (int k = 0; k < 4; k++)
			if (calc_need(k, s->found[k]) == top)
				out[n++] = CALC_MOVE(1 + w, k);
	}
	return n;
}

bool calc_legal(const calc_state *s, int move)
{
	int m[CALC_MAX_MOVES];
	int n = calc_moves(s, m, false);
	for (int i = 0; i < n; i++)
		if (m[i] == move)
			return true;
	return false;
}

void calc_play(calc_state *s, int move)
{
	int from = CALC_FROM(move), to = CALC_TO(move);
	int card;
	if (from == 0) {
		card = s->hand;
		s->hand = 0;
	} else {
		card = s->pile[from - 1][--s->len[from - 1]];
	}
	if (to < 4)
		s->found[to]++;
	else
		s->pile[to - 4][s->len[to - 4]++] = (uint8_t)card;
	s->steps++;
	calc_turn(s);
	calc_check(s);
}

bool calc_over(const calc_state *s)
{
	if (s->hand)
		return false;
	for (int w = 0; w < s->npiles; w++)
		if (s->len[w] && accepting(s, s->pile[w][s->len[w] - 1]) >= 0)
			return false;
	return true;
}

int calc_rest(const calc_state *s)
{
	int n = 0;
	for (int w = 0; w < s->npiles; w++)
		n += s->len[w];
	return n;
}

bool calc_success(const calc_state *s)
{
	return s->found[0] == 13 && s->found[1] == 13 && s->found[2] == 13 && s->found[3] == 13;
}

void calc_move_name(const calc_state *s, int move, char *out)
{
	int from = CALC_FROM(move), to = CALC_TO(move);
	int card = from == 0 ? s->hand : s->pile[from - 1][s->len[from - 1] - 1];
	int n = 0;
	if (from == 0) {
		out[n++] = calc_rank_char(card);
	} else {
		out[n++] = 'W';
		out[n++] = (char)('0' + from);
	}
	out[n++] = '>';
	out[n++] = to < 4 ? 'F' : 'W';
	out[n++] = (char)('1' + (to < 4 ? to : to - 4));
	out[n] = '\0';
}

/* The same moves in the same order as calc_moves, counted from a table of
 * how many foundations need each rank, and only the chosen one decoded. */
void calc_random_playout(calc_state *s, rng_t *r)
{
	uint8_t need[4], count[14] = {0};
	for (int k = 0; k < 4; k++) {
		need[k] = (uint8_t)calc_need(k, s->found[k]);
		count[need[k]]++;
	}
	count[0] = 0;
	for (;;) {
		int hand = s->hand, np = s->npiles;
		int nh = hand ? count[hand] : 0;
		int n = hand ? nh + np : 0;
		int top[4];
		for (int w = 0; w < np; w++) {
			top[w] = s->len[w] ? s->pile[w][s->len[w] - 1] : 0;
			n += count[top[w]];
		}
		if (!n)
			break;
		int i = (int)rng_below(r, (uint64_t)n), card, to;
		if (hand && i < nh + np) {
			s->hand = 0;
			card = hand;
			if (i >= nh) {
				int w = i - nh;
				s->pile[w][s->len[w]++] = (uint8_t)card;
				goto played;
			}
		} else {
			i -= hand ? nh + np : 0;
			int w = 0;
			while (i >= count[top[w]])
				i -= count[top[w++]];
			card = top[w];
			s->len[w]--;
		}
		/* The I-th foundation (in order) that needs CARD. */
		for (to = 0; need[to] != card || i--; to++)
			;
		count[card]--;
		s->found[to]++;
		need[to] = (uint8_t)calc_need(to, s->found[to]);
		count[need[to]]++;
		count[0] = 0;
	played:
		s->steps++;
		calc_turn(s);
	}
	calc_check(s);
}

/* How many cards foundation play needs before RANK can go up: the fewest
 * over the foundations (0: playable now; 13 if none needs it any more). */
static int urgency(const calc_state *s, int rank)
{
	int best = 13;
	for (int k = 0; k < 4; k++)
		for (int n = s->found[k], d = 0; n < 13 && d < best; n++, d++)
			if (calc_need(k, n) == rank)
				best = d;
	return best;
}

/* Greedy: play a waste top to a foundation when one fits, then the hand
 * when it fits; otherwise put the hand on the pile whose top is needed
 * later than it, the tightest such fit (so cards come off in the order
 * the foundations want them); failing that an empty pile; failing that
 * the pile whose top is needed last (burying the least urgent card). */
int calc_greedy_move(const calc_state *s)
{
	for (int w = 0; w < s->npiles; w++) {
		if (!s->len[w])
			continue;
		int k = accepting(s, s->pile[w][s->len[w] - 1]);
		if (k >= 0)
			return CALC_MOVE(1 + w, k);
	}
	if (!s->hand)
		return -1;
	int k = accepting(s, s->hand);
	if (k >= 0)
		return CALC_MOVE(0, k);
	int uc = urgency(s, s->hand);
	int fit = -1, fit_cost = 99, empty = -1, bury = -1, bury_u = -1;
	for (int w = 0; w < s->npiles; w++) {
		if (!s->len[w]) {
			if (empty < 0)
				empty = w;
			continue;
		}
		int ut = urgency(s, s->pile[w][s->len[w] - 1]);
		if (ut >= uc && ut - uc < fit_cost) {
			fit = w;
			fit_cost = ut - uc;
		}
		if (ut > bury_u) {
			bury = w;
			bury_u = ut;
		}
	}
	int w = fit >= 0 ? fit : empty >= 0 ? empty : bury;
	return CALC_MOVE(0, 4 + w);
}

void calc_greedy_playout(calc_state *s)
{
	int m;
	while ((m = calc_greedy_move(s)) >= 0)
		calc_play(s, m);
}

void calc_resample(calc_state *s, rng_t *r)
{
	for (int i = s->ncards - 1; i > s->next; i--) {
		int j = s->next + (int)rng_below(r, (uint64_t)(i - s->next) + 1);
		uint8_t t = s->stock[i];
		s->stock[i] = s->stock[j];
		s->stock[j] = t;
	}
}

void calc_check(const calc_state *s)
{
#ifdef YOMI_DEBUG
	int count[14] = {0};
	if (s->npiles != 3 && s->npiles != 4)
		die("calc: internal error: %d waste piles", s->npiles);
	for (int k = 0; k < 4; k++) {
		if (s->found[k] > 13 || (!(s->variant & CALC_NOFOUND) && s->found[k] < 1))
			die("calc: internal error: foundation %d holds %d cards", k + 1, s->found[k]);
		for (int n = 0; n < s->found[k]; n++)
			count[calc_need(k, n)]++;
	}
	for (int w = 0; w < s->npiles; w++)
		for (int i = 0; i < s->len[w]; i++)
			count[s->pile[w][i]]++;
	for (int i = s->next; i < s->ncards; i++)
		count[s->stock[i]]++;
	if (s->hand)
		count[s->hand]++;
	for (int r = 1; r <= 13; r++)
		if (count[r] != 4)
			die("calc: internal error: %d cards of rank %c", count[r], calc_rank_char(r));
	if (!s->hand && s->next < s->ncards)
		die("calc: internal error: the hand is empty with cards in the stock");
#else
	(void)s;
#endif
}
