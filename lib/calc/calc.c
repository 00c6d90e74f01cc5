#include "calc/calc.h"

#include <string.h>

#include "core/util.h"
#include "calc/calcweights.h"

static const char RANKS[] = "A23456789TJQK";

const uint8_t calc_needs[4][14] = {
	{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0},
	{2, 4, 6, 8, 10, 12, 1, 3, 5, 7, 9, 11, 13, 0},
	{3, 6, 9, 12, 2, 5, 8, 11, 1, 4, 7, 10, 13, 0},
	{4, 8, 12, 3, 7, 11, 2, 6, 10, 1, 5, 9, 13, 0},
};

char calc_rank_char(int rank)
{
	return rank >= 1 && rank <= 13 ? RANKS[rank - 1] : '?';
}

int calc_stock_size(int variant)
{
	return variant & CALC_NOFOUND ? 52 : 48;
}

const char *calc_variant_name(int variant)
{
	static const char *const names[] = {"standard", "no-foundations", "three-piles",
					    "no-foundations+three-piles"};
	return names[variant & (CALC_NOFOUND | CALC_THREE)];
}

/* The stock's cards in rank order: four of each rank, less the foundation
 * starters A, 2, 3, 4 unless the variant starts with empty foundations. */
#define FOUR(r) r, r, r, r
static const uint8_t sorted_decks[2][52] = {
	{1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, FOUR(5), FOUR(6), FOUR(7), FOUR(8), FOUR(9), FOUR(10),
	 FOUR(11), FOUR(12), FOUR(13)},
	{FOUR(1), FOUR(2), FOUR(3), FOUR(4), FOUR(5), FOUR(6), FOUR(7), FOUR(8), FOUR(9), FOUR(10),
	 FOUR(11), FOUR(12), FOUR(13)},
};
#undef FOUR

/* Fisher-Yates over A[0..N-1] (N <= 52) from the end. A swap index below
 * 52 needs far fewer than 32 bits, so each takes 16 (four per generator
 * output), by Lemire's rejection as in rng_below32. */
static void shuffle16(uint8_t *a, int n, rng *r)
{
	uint64_t pool = 0;
	int left = 0;
	for (uint32_t i = n > 1 ? (uint32_t)n - 1 : 0; i > 0; i--) {
		uint32_t x, bound = i + 1;
		for (;;) {
			if (!left) {
				pool = rng_next(r);
				left = 4;
			}
			x = (uint32_t)(pool & 0xffff) * bound;
			pool >>= 16;
			left--;
			/* The division only where a rejection is possible. */
			if (__builtin_expect((x & 0xffff) >= bound, 1) || (x & 0xffff) >= 65536 % bound)
				break;
		}
		uint32_t j = x >> 16;
		uint8_t t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
}

const uint8_t *calc_sorted_stock(int variant)
{
	return sorted_decks[(variant & CALC_NOFOUND) != 0];
}

void calc_shuffle(int variant, rng *r, uint8_t out[52])
{
	memcpy(out, calc_sorted_stock(variant), 52);
	shuffle16(out, calc_stock_size(variant), r);
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

double calc_next_card_mean(const calc_state *s, double alpha,
			   double (*value)(void *ctx, calc_state *turned, double alpha), void *ctx)
{
	int count[14] = {0};
	for (int j = s->next; j < s->ncards; j++)
		count[s->stock[j]]++;
	int total = s->ncards - s->next, rest = total;
	double sum = 0;
	for (int rank = 1; rank <= 13; rank++) {
		if (!count[rank])
			continue;
		rest -= count[rank];
		/* What this rank must be worth for the mean to beat ALPHA if
		 * every rank after it is worth 1. */
		double need = (alpha * total - sum - rest) / count[rank];
		if (need >= 1)
			return alpha;
		calc_state d = *s;
		calc_turn_rank(&d, rank);
		double v = value(ctx, &d, need > 0 ? need : 0);
		if (v < 0)
			return v;
		if (need > 0 && v <= need)
			return alpha;
		sum += count[rank] * v;
	}
	return sum / total;
}

void calc_turn_rank(calc_state *s, int rank)
{
	for (int j = s->next; j < s->ncards; j++) {
		if (s->stock[j] == rank) {
			s->stock[j] = s->stock[s->next];
			s->stock[s->next] = (uint8_t)rank;
			break;
		}
	}
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

const char *calc_deal_text(calc_state *s, const char *variant, const char *deck)
{
	int v = 0;
	if (variant) {
		while (v <= (CALC_NOFOUND | CALC_THREE) && strcmp(variant, calc_variant_name(v)))
			v++;
		if (v > (CALC_NOFOUND | CALC_THREE))
			return "unknown variant (standard, no-foundations, three-piles or no-foundations+three-piles)";
	}
	uint8_t cards[52];
	const char *err = calc_parse_deck(deck, v, cards);
	if (err)
		return err;
	calc_deal(s, v, cards);
	return NULL;
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

bool calc_over(const calc_state *s)
{
	/* A face-down card left with the hand empty is a search's position
	 * after calc_play_unturned, waiting for its chance node: not over. */
	if (s->hand || s->next < s->ncards)
		return false;
	for (int w = 0; w < s->npiles; w++)
		if (s->len[w] && calc_accepting(s, s->pile[w][s->len[w] - 1]))
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

int calc_move_named(const calc_state *s, const char *name)
{
	int moves[CALC_MAX_MOVES], n = calc_moves(s, moves, false);
	for (int i = 0; i < n; i++) {
		char buf[16];
		calc_move_name(s, moves[i], buf);
		if (!strcmp(buf, name))
			return moves[i];
	}
	return -1;
}

int calc_replay(const calc_state *s, const char *moves, int max, calc_state *hist, int *played)
{
	int n = 0;
	hist[0] = *s;
	for (const char *p = moves; *p;) {
		size_t len = strcspn(p, " ");
		if (len) {
			char name[16];
			int move = -1;
			if (n < max && len < sizeof name) {
				memcpy(name, p, len);
				name[len] = '\0';
				move = calc_move_named(&hist[n], name);
			}
			if (move < 0)
				return -(n + 1);
			played[n] = move;
			hist[n + 1] = hist[n];
			calc_play(&hist[n + 1], move);
			n++;
		}
		p += len + (p[len] == ' ');
	}
	return n;
}

int calc_find_unseen(const calc_state *hist, int n, int unseen)
{
	for (int i = 0; i <= n; i++)
		if (hist[i].hand && hist[i].ncards - hist[i].next == unseen)
			return i;
	return -1;
}

/* The foundations as the fast playouts keep them: cards on each, the rank
 * each needs, and how many need each rank (count[0] stays 0, so that
 * complete foundations and empty piles' tops count for nothing). */
typedef struct {
	uint8_t found[4], need[4], count[14];
} foundations;

static inline void fnd_start(foundations *f, const calc_state *s)
{
	memcpy(f->found, s->found, 4);
	memset(f->count, 0, sizeof f->count);
	for (int k = 0; k < 4; k++) {
		f->need[k] = calc_needs[k][f->found[k]];
		f->count[f->need[k]]++;
	}
	f->count[0] = 0;
}

/* Foundation K takes the card it needs. */
static inline void fnd_advance(foundations *f, unsigned k)
{
	f->count[f->need[k]]--;
	f->need[k] = calc_needs[k][++f->found[k]];
	f->count[f->need[k]]++;
	f->count[0] = 0;
}

/* Writes a fast playout's locals back into S. */
static void playout_end(calc_state *s, const foundations *f, const uint8_t len[4], unsigned hand,
			unsigned next, unsigned steps)
{
	memcpy(s->found, f->found, 4);
	memcpy(s->len, len, 4);
	s->hand = (uint8_t)hand;
	s->next = (uint8_t)next;
	s->steps = (uint16_t)steps;
	calc_check(s);
}

/* The random playout's waste top to play: the pile holding the I-th
 * (from 0) top foundation move, by prefix sums because the choice is random
 * and a branch on it would mostly be mispredicted; I becomes the index
 * among the foundations that need the card. */
static inline unsigned take_top(const calc_state *s, uint8_t *top, uint8_t *len,
				const uint8_t *ctop, unsigned *i)
{
	unsigned c1 = ctop[0], c2 = c1 + ctop[1], c3 = c2 + ctop[2];
	unsigned w = (*i >= c1) + (*i >= c2) + (*i >= c3);
	*i -= (w > 0) * c1 + (w > 1) * ctop[1] + (w > 2) * ctop[2];
	unsigned card = top[w];
	len[w]--;
	top[w] = len[w] ? s->pile[w][len[w] - 1] : 0;
	return card;
}

/* CARD onto the I-th foundation (in order) that needs it, and the counts
 * redone (a fourth top is 0 with three piles, and count[0] is 0). */
static inline void to_foundation(unsigned card, unsigned i, foundations *f, const uint8_t *top,
				 uint8_t *ctop, unsigned *sum)
{
	unsigned m = (f->need[0] == card) | (f->need[1] == card) << 1 | (f->need[2] == card) << 2 |
		     (f->need[3] == card) << 3;
	while (i--)
		m &= m - 1;
	fnd_advance(f, (unsigned)__builtin_ctz(m));
	for (unsigned w = 0; w < 4; w++)
		ctop[w] = f->count[top[w]];
	*sum = (unsigned)ctop[0] + ctop[1] + ctop[2] + ctop[3];
}

/* The same moves in the same order as calc_moves, counted rather than
 * listed: count[r] is how many foundations need rank r, ctop[w] how many
 * need waste top w, sum their total. All are kept up to date as cards move
 * (a card put on a pile changes one top; a foundation move recounts), and
 * only the chosen move is decoded. Everything is a local: a byte stored
 * into a pile may alias anything a pointer reaches, which would reload the
 * generator and the counts after every move. EAGER (a constant in each
 * caller) draws among the moves up alone while there are any. */
static inline __attribute__((always_inline)) void fast_playout(calc_state *s, rng *r, bool eager)
{
	/* A search may hand over a state whose card is not yet turned. */
	calc_turn(s);
	rng gen = *r;
	foundations f;
	uint8_t top[4] = {0}, ctop[4] = {0}, len[4];
	/* The face-down cards, then a 0 that ends the stock phase. */
	uint8_t stock[53];
	unsigned np = s->npiles, sum = 0, next = s->next, ncards = s->ncards;
	memcpy(stock, s->stock, 52);
	stock[ncards] = 0;
	memcpy(len, s->len, 4);
	fnd_start(&f, s);
	for (unsigned w = 0; w < np; w++) {
		top[w] = len[w] ? s->pile[w][len[w] - 1] : 0;
		sum += ctop[w] = f.count[top[w]];
	}
	unsigned hand = s->hand, steps = s->steps, i, card, w;
	/* While there is a hand: n = its foundations, the piles, the tops'
	 * foundations. */
	while (hand) {
		unsigned nh = f.count[hand];
		if (!eager) {
			i = rng_below32(&gen, nh + np + sum);
		} else if (nh + sum) {
			/* A move up, numbered as the random draw numbers it:
			 * the tops' moves come after the hand's NP piles. */
			i = rng_below32(&gen, nh + sum);
			i += (i >= nh) * np;
		} else {
			i = rng_below32(&gen, np);
		}
		steps++;
		w = i - nh;
		if (w < np) {
			/* Most moves: the hand onto a waste pile. */
			s->pile[w][len[w]++] = (uint8_t)hand;
			sum += nh - ctop[w];
			ctop[w] = (uint8_t)nh;
			top[w] = (uint8_t)hand;
			hand = stock[next];
			next += hand != 0;
			continue;
		}
		if (i < nh) {
			card = hand;
			hand = stock[next];
			next += hand != 0;
		} else {
			i -= nh + np;
			card = take_top(s, top, len, ctop, &i);
		}
		to_foundation(card, i, &f, top, ctop, &sum);
	}
	/* Then only the tops' foundation moves are left. */
	while (sum) {
		i = rng_below32(&gen, sum);
		steps++;
		card = take_top(s, top, len, ctop, &i);
		to_foundation(card, i, &f, top, ctop, &sum);
	}
	*r = gen;
	playout_end(s, &f, len, hand, next, steps);
}

void calc_random_playout(calc_state *s, rng *r)
{
	fast_playout(s, r, false);
}

void calc_eager_playout(calc_state *s, rng *r)
{
	fast_playout(s, r, true);
}

int calc_urgency(const calc_state *s, int rank)
{
	int best = 13;
	for (int k = 0; k < 4; k++)
		for (int n = s->found[k], d = 0; n < 13 && d < best; n++, d++)
			if (calc_need(k, n) == rank)
				best = d;
	return best;
}

/* pos_table[k][r]: where rank r comes in foundation k's sequence (0..12),
 * the inverse of calc_needs. */
static const uint8_t pos_table[4][14] = {
	{0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
	{0, 6, 0, 7, 1, 8, 2, 9, 3, 10, 4, 11, 5, 12},
	{0, 8, 4, 0, 9, 5, 1, 10, 6, 2, 11, 7, 3, 12},
	{0, 9, 6, 3, 0, 10, 7, 4, 1, 11, 8, 5, 2, 12},
};

/* urgency() of every rank at once, as byte vectors indexed by rank:
 * dist[k] holds each rank's distance on foundation k (PASSED, far beyond
 * any distance even after 13 decrements, once k has passed it), and the
 * urgency is their minimum, at most 13. */
typedef int8_t ranks_v __attribute__((vector_size(16)));
enum { PASSED = 100 };

static inline ranks_v vmin(ranks_v a, ranks_v b)
{
	ranks_v m = a < b;
	return (a & m) | (b & ~m);
}

static inline ranks_v passed_to_far(ranks_v d)
{
	ranks_v neg = d < 0;
	return (d & ~neg) | (((ranks_v){0} + PASSED) & neg);
}

static void dist_start(const uint8_t found[4], ranks_v dist[4])
{
	for (int k = 0; k < 4; k++) {
		ranks_v p;
		memcpy(&p, pos_table[k], 14);
		memset((char *)&p + 14, PASSED, 2);
		dist[k] = passed_to_far(p - (int8_t)found[k]);
	}
}

static inline ranks_v dist_urgency(const ranks_v dist[4])
{
	return vmin(vmin(vmin(dist[0], dist[1]), vmin(dist[2], dist[3])), (ranks_v){0} + 13);
}

/* Greedy's score of a pile of LEN cards for a hand of urgency UC (lower
 * is better): 0, 64 or 128 by greedy_pile's kinds, plus the cards needed
 * sooner than the hand. */
static unsigned pile_score(ranks_v u, int uc, const uint8_t *pile, unsigned len)
{
	if (!len)
		return 64;
	unsigned score = u[pile[len - 1]] >= uc ? 0 : 128;
	for (unsigned i = 0; i < len; i++)
		score += u[pile[i]] < uc;
	return score;
}

/* Greedy's pile for HAND, given the urgency U[r] of each rank: a pile
 * whose top is needed no sooner than the hand (so
 * cards come off in the order the foundations want them), else an empty
 * pile, else any; within each kind the pile that covers the fewest cards
 * needed sooner than the hand, the first on ties. Every covered card
 * counts, not just the top: each one needed sooner is a card the pile
 * holds back until the hand has gone (tests/bench/NOTES.md). */
static unsigned greedy_pile(ranks_v u, unsigned hand, const uint8_t (*pile)[52], const uint8_t *len,
			    unsigned np)
{
	int uc = u[hand];
	unsigned best = 0, best_score = ~0u;
	for (unsigned w = 0; w < np; w++) {
		unsigned score = pile_score(u, uc, pile[w], len[w]);
		if (score < best_score) {
			best = w;
			best_score = score;
		}
	}
	return best;
}

void calc_pile_scores(const calc_state *s, unsigned *score)
{
	ranks_v dist[4];
	dist_start(s->found, dist);
	ranks_v u = dist_urgency(dist);
	for (int w = 0; w < s->npiles; w++)
		score[w] = pile_score(u, u[s->hand], s->pile[w], s->len[w]);
}

/* The first foundation of F that needs CARD (one does). */
static inline unsigned fnd_first(const foundations *f, unsigned card)
{
	unsigned k = 0;
	while (f->need[k] != card)
		k++;
	return k;
}

/* The first of the NP piles (PILE, LEN) whose top a foundation of F
 * takes, NP if none: the plain rules' move up from the piles. */
static inline unsigned first_up(const uint8_t (*pile)[52], const uint8_t *len, unsigned np,
				const foundations *f)
{
	unsigned w = 0;
	while (w < np && !(len[w] && f->count[pile[w][len[w] - 1]]))
		w++;
	return w;
}

/* Plays moves up from the tops of the NP piles (PILE, LEN) and then
 * *HAND as the plain rules do (first_up, then the hand, each card to the
 * first foundation of F that needs it) until none is left; returns how
 * many. */
static unsigned up_run(const uint8_t (*pile)[52], uint8_t *len, unsigned np, foundations *f,
		       unsigned *hand)
{
	for (unsigned n = 0;; n++) {
		unsigned w = first_up(pile, len, np, f), card;
		if (w < np)
			card = pile[w][--len[w]];
		else if (*hand && f->count[*hand])
			card = *hand, *hand = 0;
		else
			return n;
		fnd_advance(f, fnd_first(f, card));
	}
}

/* The cascade's move up, if there is one, into *SRC (a pile, or NP for
 * the hand) and *K (the foundation). The plain rules send up the first
 * top (then the hand) to its first foundation; but where two or more
 * moves up are open (one card two foundations need, copies of a rank on
 * two tops, tops of several ranks) the copy taken uncovers different
 * cards, and the foundation advanced wants a different rank next. So
 * each is played and followed by the moves up it lets through (up_run),
 * and the move of the longest run is taken, then one after which the
 * hand has gone up, then the first in that order. */
static bool up_choice(const uint8_t (*pile)[52], const uint8_t *len, unsigned np,
		      const foundations *f, unsigned hand, unsigned *src, unsigned *k)
{
	unsigned open = hand ? f->count[hand] : 0;
	for (unsigned w = 0; w < np; w++)
		open += len[w] ? f->count[pile[w][len[w] - 1]] : 0;
	int best = -1;
	for (unsigned w = 0; w <= np && open; w++) {
		unsigned card = w < np ? (len[w] ? pile[w][len[w] - 1] : 0) : hand;
		for (unsigned j = 0; card && j < 4; j++) {
			if (f->need[j] != card)
				continue;
			if (open == 1) {
				*src = w, *k = j;
				return true;
			}
			uint8_t l[4];
			memcpy(l, len, 4);
			foundations g = *f;
			unsigned h = w < np ? hand : 0;
			if (w < np)
				l[w]--;
			fnd_advance(&g, j);
			int v = 2 * (int)up_run(pile, l, np, &g, &h) + !h;
			if (v > best)
				best = v, *src = w, *k = j;
		}
	}
	return best >= 0;
}

/* Greedy: play a waste top to a foundation when one fits, then the hand
 * when it fits; otherwise put the hand where greedy_pile says. */
int calc_greedy_move(const calc_state *s)
{
	for (int w = 0; w < s->npiles; w++) {
		if (!s->len[w])
			continue;
		unsigned m = calc_accepting(s, s->pile[w][s->len[w] - 1]);
		if (m)
			return CALC_MOVE(1 + w, __builtin_ctz(m));
	}
	if (!s->hand)
		return -1;
	unsigned m = calc_accepting(s, s->hand);
	if (m)
		return CALC_MOVE(0, __builtin_ctz(m));
	ranks_v dist[4];
	dist_start(s->found, dist);
	return CALC_MOVE(0, 4 + (int)greedy_pile(dist_urgency(dist), s->hand, s->pile, s->len, s->npiles));
}

/* What the weighted rule needs to know of the hand H, computed once a
 * placement: the ranks the foundation that wants H soonest needs before
 * it (BEFORE_SOON) and those any foundation needs before H (BEFORE_ANY),
 * as rank bit masks; the ranks that follow H on a foundation (AFTER_ANY)
 * and on the soonest one (after_soon, 0 when H ends it). */
typedef struct {
	unsigned before_soon, before_any, after_any, after_soon;
} hand_needs;

/* ahead_table[k][q]: the ranks (bit r for rank r) foundation k takes
 * before it holds q cards, so the ranks it needs from n cards up to q
 * are ahead_table[k][q] & ~ahead_table[k][n]. */
static const uint16_t ahead_table[4][14] = {
	{0x0000, 0x0002, 0x0006, 0x000e, 0x001e, 0x003e, 0x007e, 0x00fe, 0x01fe, 0x03fe, 0x07fe, 0x0ffe, 0x1ffe, 0x3ffe},
	{0x0000, 0x0004, 0x0014, 0x0054, 0x0154, 0x0554, 0x1554, 0x1556, 0x155e, 0x157e, 0x15fe, 0x17fe, 0x1ffe, 0x3ffe},
	{0x0000, 0x0008, 0x0048, 0x0248, 0x1248, 0x124c, 0x126c, 0x136c, 0x1b6c, 0x1b6e, 0x1b7e, 0x1bfe, 0x1ffe, 0x3ffe},
	{0x0000, 0x0010, 0x0110, 0x1110, 0x1118, 0x1198, 0x1998, 0x199c, 0x19dc, 0x1ddc, 0x1dde, 0x1dfe, 0x1ffe, 0x3ffe},
};

static hand_needs needs_of(const uint8_t found[4], unsigned h)
{
	hand_needs n = {0, 0, 0, 0};
	int soonest = 99;
	for (int k = 0; k < 4; k++) {
		int q = pos_table[k][h];
		if (q < found[k])
			continue; /* k is past H */
		unsigned m = ahead_table[k][q] & ~ahead_table[k][found[k]];
		unsigned after = calc_needs[k][q + 1]; /* 0 past the K */
		if (q - found[k] < soonest) {
			soonest = q - found[k];
			n.before_soon = m;
			n.after_soon = after;
		}
		n.before_any |= m;
		n.after_any |= after ? 1u << after : 0;
	}
	return n;
}

/* A pile's cards counted by rank, a nibble a rank (rank r at bits 4r; no
 * rank has more than four copies): the weighted rule counts a pile's
 * cards of a set of ranks with one masked sum instead of a walk down the
 * pile, and the playout keeps the counts as cards come and go. */
static inline uint64_t nib_of(unsigned rank)
{
	return 1ull << (4 * rank);
}

static uint64_t pile_counts(const uint8_t *pile, unsigned len)
{
	uint64_t c = 0;
	for (unsigned i = 0; i < len; i++)
		c += nib_of(pile[i]);
	return c;
}

/* The sum of C's nibbles under the nibble mask M (at most 52). */
static inline unsigned nib_sum(uint64_t c, uint64_t m)
{
	uint64_t x = c & m;
	x = (x & 0x0F0F0F0F0F0F0F0Full) + (x >> 4 & 0x0F0F0F0F0F0F0F0Full);
	return (unsigned)(x * 0x0101010101010101ull >> 56);
}

/* The nibble mask of the rank bit mask B: bit r spread to bit 4r, then
 * filled to its nibble. */
static inline uint64_t nib_mask(unsigned b)
{
	uint64_t x = b & 0xFFFF;
	x = (x | x << 24) & 0x000000FF000000FFull;
	x = (x | x << 12) & 0x000F000F000F000Full;
	x = (x | x << 6) & 0x0303030303030303ull;
	x = (x | x << 3) & 0x1111111111111111ull;
	return x * 0xF;
}

/* The nibble mask of the ranks whose urgency in U is below UH. */
static inline uint64_t nib_sooner(ranks_v u, int uh)
{
	ranks_v lt = u < ((ranks_v){0} + (int8_t)uh);
	uint64_t half[2];
	memcpy(half, &lt, sizeof half);
	for (int i = 0; i < 2; i++) {
		uint64_t x = half[i] & 0x0F0F0F0F0F0F0F0Full;
		x = (x | x >> 4) & 0x00FF00FF00FF00FFull;
		x = (x | x >> 8) & 0x0000FFFF0000FFFFull;
		half[i] = (x | x >> 16) & 0xFFFFFFFFull;
	}
	return half[0] | half[1] << 32;
}

/* One placement's view of the hand, shared by every pile it scores. */
typedef struct {
	hand_needs n;
	uint64_t sooner, own, any; /* nibble masks: urgency below the hand's;
				      before_soon; before_any */
	int uh;
} hand_view;

static hand_view view_of(ranks_v u, const uint8_t found[4], unsigned h)
{
	hand_view v = {.n = needs_of(found, h), .uh = u[h]};
	v.sooner = nib_sooner(u, v.uh);
	v.own = nib_mask(v.n.before_soon);
	v.any = nib_mask(v.n.before_any);
	return v;
}

/* The weighted score of the hand H on a pile of LEN cards, COUNTS by rank. */
static float weighted_score(const float *w, ranks_v u, unsigned h, const hand_view *hv,
			    const uint8_t *pile, unsigned len, uint64_t counts, unsigned empties,
			    unsigned unseen_h, float left)
{
	int uh = hv->uh;
	if (!len)
		return w[0] + w[1] * (float)uh / 12 + w[2] * (float)(h == 13) +
		       w[3] * (float)(empties - 1) + w[17] * left;
	unsigned t = pile[len - 1], newly = 0;
	int ut = u[t];
	/* Newly blocked: the cards needed sooner that no card above them
	 * blocks already, which are the run of them at the top. */
	while (newly < len && u[pile[len - 1 - newly]] < uh)
		newly++;
	unsigned cnt = nib_sum(counts, hv->sooner), own = nib_sum(counts, hv->own),
		 any = nib_sum(counts, hv->any);
	float v = ut >= uh ? w[4] + w[5] * (float)(ut - uh) / 12
			   : w[6] + w[7] * (float)(uh - ut) / 12 + w[18] * (float)unseen_h / 3;
	return v + w[8] * (float)cnt / 5 + w[9] * (float)newly / 5 + w[10] * (float)(t == h) +
	       w[11] * (float)len / 10 + w[12] * (float)(hv->n.after_any >> t & 1) +
	       w[13] * (float)(t == 13) + w[14] * (float)own + w[15] * (float)any / 5 +
	       w[16] * (float)(t == hv->n.after_soon);
}

static unsigned weighted_pile(const float *w, ranks_v u, const uint8_t found[4], unsigned hand,
			      const uint8_t (*pile)[52], const uint8_t *len, const uint64_t *counts,
			      unsigned np, const uint8_t *unseen, unsigned left)
{
	hand_view hv = view_of(u, found, hand);
	unsigned empties = 0, best = 0;
	for (unsigned i = 0; i < np; i++)
		empties += !len[i];
	float best_v = -1e30f, fleft = (float)left / 48;
	bool empty_seen = false;
	for (unsigned i = 0; i < np; i++) {
		if (!len[i]) {
			if (empty_seen)
				continue;
			empty_seen = true;
		}
		float v = weighted_score(w, u, hand, &hv, pile[i], len[i], counts[i], empties,
					 unseen[hand], fleft);
		if (v > best_v) {
			best_v = v;
			best = i;
		}
	}
	return best;
}

int calc_weighted_move(const calc_state *s)
{
	int m = calc_greedy_move(s);
	if (m < 0 || CALC_TO(m) < 4)
		return m;
	uint8_t unseen[14] = {0};
	for (int j = s->next; j < s->ncards; j++)
		unseen[s->stock[j]]++;
	uint64_t counts[4];
	for (int i = 0; i < s->npiles; i++)
		counts[i] = pile_counts(s->pile[i], s->len[i]);
	ranks_v dist[4];
	dist_start(s->found, dist);
	return CALC_MOVE(0, 4 + (int)weighted_pile(calc_weights, dist_urgency(dist), s->found,
						 s->hand, s->pile, s->len, counts, s->npiles,
						 unseen, (unsigned)(s->ncards - s->next)));
}

void calc_weighted_playout(calc_state *s)
{
	calc_weighted_playout_with(s, calc_weights);
}

/* The playout both rules share: waste tops up, then the hand up, else the
 * hand onto the pile the rule picks (greedy's with WEIGHTS NULL), with the
 * urgencies kept in a table that changes only when a foundation does (the
 * search players run this playout millions of times). Inlined into each
 * rule's playout, so greedy's keeps no count of the unseen cards. With
 * STOP at 0 or more it stops before a move made with the hand turned and
 * at most STOP cards face down; a constant -1 compiles the test away. */
static inline __attribute__((always_inline)) void rule_playout(calc_state *s,
							      const float *weights, int stop,
							      bool cascade)
{
	calc_turn(s);
	foundations f;
	uint8_t len[4], unseen[14] = {0};
	uint64_t counts[4] = {0};
	unsigned np = s->npiles, hand = s->hand, next = s->next, steps = s->steps;
	for (unsigned j = next; weights && j < s->ncards; j++)
		unseen[s->stock[j]]++;
	for (unsigned i = 0; weights && i < np; i++)
		counts[i] = pile_counts(s->pile[i], s->len[i]);
	ranks_v dist[4], u;
	memcpy(len, s->len, 4);
	fnd_start(&f, s);
	dist_start(f.found, dist);
	u = dist_urgency(dist);
	for (;;) {
		unsigned card, w, k = 4;
		if (stop >= 0 && hand && (int)(s->ncards - next) <= stop)
			break;
		if (!cascade)
			w = first_up(s->pile, len, np, &f);
		else if (!up_choice(s->pile, len, np, &f, hand, &w, &k))
			w = np + 1; /* no move up */
		if (w < np) {
			card = s->pile[w][--len[w]];
			counts[w] -= weights ? nib_of(card) : 0;
		} else if (!hand) {
			break;
		} else if (cascade ? w == np : f.count[hand] != 0) {
			card = hand;
			hand = next < s->ncards ? s->stock[next++] : 0;
			unseen[hand]--; /* unseen[0] is scratch */
		} else {
			w = weights ? weighted_pile(weights, u, f.found, hand, s->pile, len, counts,
						    np, unseen, s->ncards - next)
				    : greedy_pile(u, hand, s->pile, len, np);
			counts[w] += weights ? nib_of(hand) : 0;
			s->pile[w][len[w]++] = (uint8_t)hand;
			hand = next < s->ncards ? s->stock[next++] : 0;
			unseen[hand]--;
			steps++;
			continue;
		}
		if (k == 4)
			k = fnd_first(&f, card);
		fnd_advance(&f, k);
		dist[k] = passed_to_far(dist[k] - 1);
		u = dist_urgency(dist);
		steps++;
	}
	playout_end(s, &f, len, hand, next, steps);
}

void calc_greedy_playout(calc_state *s)
{
	rule_playout(s, NULL, -1, false);
}

void calc_greedy_playout_to(calc_state *s, int unseen)
{
	rule_playout(s, NULL, unseen, false);
}

void calc_weighted_playout_with(calc_state *s, const float *weights)
{
	rule_playout(s, weights, -1, false);
}

void calc_cascade_playout(calc_state *s, bool weighted, int unseen)
{
	rule_playout(s, weighted ? calc_weights : NULL, unseen, true);
}

int calc_cascade_move(const calc_state *s, bool weighted)
{
	foundations f;
	unsigned src, k;
	fnd_start(&f, s);
	if (up_choice(s->pile, s->len, (unsigned)s->npiles, &f, s->hand, &src, &k))
		return CALC_MOVE(src < s->npiles ? 1 + (int)src : 0, (int)k);
	if (!s->hand)
		return -1;
	return weighted ? calc_weighted_move(s) : calc_greedy_move(s);
}

int calc_unseen_by_rank(const calc_state *s, uint8_t out[52])
{
	/* Laid out by rank first, so that the order drawn owes nothing to
	 * the order the cards lie in, which a search may hold true. */
	int n = s->ncards - s->next, count[14] = {0};
	for (int j = s->next; j < s->ncards; j++)
		count[s->stock[j]]++;
	for (int rank = 1, j = 0; rank <= 13; rank++)
		for (int c = count[rank]; c > 0; c--)
			out[j++] = (uint8_t)rank;
	return n;
}

void calc_shuffle_unseen(uint8_t *cards, int n, rng *r)
{
	shuffle16(cards, n, r);
}

void calc_resample(calc_state *s, rng *r)
{
	uint8_t *u = s->stock + s->next;
	int n = calc_unseen_by_rank(s, u);
	shuffle16(u, n, r);
}

#ifdef YOMI_DEBUG
void calc_check_cards(const calc_state *s)
{
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
}

void calc_check(const calc_state *s)
{
	calc_check_cards(s);
	if (!s->hand && s->next < s->ncards)
		die("calc: internal error: the hand is empty with cards in the stock");
}
#endif
