#include "calc/calcsolve.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/rng.h"
#include "core/util.h"

void calcsolve_init(calcsolve *sv, unsigned log2, bool exact)
{
	size_t slots = (size_t)1 << log2;
	sv->key = xcalloc(slots, 2 * sizeof *sv->key);
	sv->value = xcalloc(slots, sizeof *sv->value);
	sv->mask = slots - 1;
	sv->stamp = 1; /* a zeroed slot is then empty */
	sv->used = sv->nodes = sv->budget = 0;
	sv->exact = exact;
	sv->chances = false;
	sv->reorder = 0;
	sv->waits = false;
}

void calcsolve_forget(calcsolve *sv)
{
	sv->stamp++;
	sv->used = 0;
}

void calcsolve_free(calcsolve *sv)
{
	free(sv->key);
	free(sv->value);
	sv->key = NULL;
	sv->value = NULL;
}

/* Bytes I.. of the LEN cards of PILE, at most eight, as one word (zeros
 * past the last card). Loads never reach past the pile's 52 bytes, and
 * the bytes past LEN, left by cards taken off, are never read into it. */
static uint64_t pile_word(const uint8_t *pile, int i, int len)
{
	uint64_t x;
	int n = len - i;
	if (n >= 8) {
		memcpy(&x, pile + i, 8);
		return x;
	}
	if (len >= 8) {
		memcpy(&x, pile + len - 8, 8);
		return x >> 8 * (8 - n);
	}
	memcpy(&x, pile, 8);
	return x & (((uint64_t)1 << 8 * n) - 1);
}

uint64_t calcsolve_hash(const calc_state *s)
{
	uint64_t h = rng_mix64((uint64_t)s->next << 32 | (uint64_t)s->found[0] << 24 |
			 (uint64_t)s->found[1] << 16 | (uint64_t)s->found[2] << 8 | s->found[3]);
	/* Each pile hashed alone, eight cards a step, and the hashes summed:
	 * the order of the piles makes no difference. */
	for (int w = 0; w < s->npiles; w++) {
		uint64_t p = 0x9e3779b97f4a7c15u + s->len[w];
		for (int i = 0; i < s->len[w]; i += 8)
			p = rng_mix64(p ^ pile_word(s->pile[w], i, s->len[w]));
		h += rng_mix64(p);
	}
	return h | 1; /* 0 marks an empty slot */
}

/* M's slot for KEY: where it is, or the empty slot where it would go. */
static size_t memo_slot(const calcsolve_memo *m, uint64_t key)
{
	size_t i = (size_t)key & m->mask;
	while (m->key[2 * i + 1] == m->stamp && m->key[2 * i] != key)
		i = (i + 1) & m->mask;
	return i;
}

void calcsolve_memo_clear(calcsolve_memo *m)
{
	if (!m->key) {
		m->mask = 1023;
		m->key = xcalloc(m->mask + 1, 2 * sizeof *m->key);
		m->value = xcalloc(m->mask + 1, sizeof *m->value);
	}
	m->stamp++;
	m->used = 0;
}

bool calcsolve_memo_get(const calcsolve_memo *m, uint64_t key, double *v)
{
	size_t i = memo_slot(m, key);
	if (m->key[2 * i + 1] != m->stamp)
		return false;
	*v = m->value[i];
	return true;
}

/* Doubles M, keeping this stamp's entries. */
static void memo_grow(calcsolve_memo *m)
{
	calcsolve_memo old = *m;
	m->mask = 2 * old.mask + 1;
	m->key = xcalloc(m->mask + 1, 2 * sizeof *m->key);
	m->value = xcalloc(m->mask + 1, sizeof *m->value);
	for (size_t i = 0; i <= old.mask; i++) {
		if (old.key[2 * i + 1] != old.stamp)
			continue;
		size_t j = memo_slot(m, old.key[2 * i]);
		m->key[2 * j] = old.key[2 * i];
		m->key[2 * j + 1] = m->stamp;
		m->value[j] = old.value[i];
	}
	free(old.key);
	free(old.value);
}

void calcsolve_memo_put(calcsolve_memo *m, uint64_t key, double v)
{
	if (2 * (m->used + 1) > m->mask + 1)
		memo_grow(m);
	size_t i = memo_slot(m, key);
	if (m->key[2 * i + 1] != m->stamp) {
		m->key[2 * i] = key;
		m->key[2 * i + 1] = m->stamp;
		m->used++;
	}
	m->value[i] = v;
}

void calcsolve_memo_free(calcsolve_memo *m)
{
	free(m->key);
	free(m->value);
	m->key = NULL;
	m->value = NULL;
}

/* H's slot in the memo, or the free slot where it would go (*SEEN tells
 * which); NULL once the neighbourhood is crowded, when forgetting is
 * cheaper than probing on. */
static uint64_t *probe(calcsolve *sv, uint64_t h, bool *seen)
{
	uint64_t i = h & sv->mask;
	for (int probes = 0; probes < 32; probes++, i = (i + 1) & sv->mask) {
		uint64_t *slot = sv->key + 2 * i;
		if (slot[1] != sv->stamp || slot[0] == h) {
			*seen = slot[1] == sv->stamp;
			return slot;
		}
	}
	return NULL;
}

/* Makes SLOT (found by probe; SEEN as it said) H's. */
static void take(calcsolve *sv, uint64_t *slot, uint64_t h, bool seen)
{
	slot[0] = h;
	slot[1] = sv->stamp;
	sv->used += !seen;
}

/* Records H as proven lost in this run. */
static void remember_lost(calcsolve *sv, uint64_t h)
{
	bool seen;
	uint64_t *slot = probe(sv, h, &seen);
	if (slot && !seen)
		take(sv, slot, h, false);
}

/* The foundations' sequences as bits, for hopeless: upto[k][n], the ranks
 * of foundation k's first n cards (n = 14 as 13); lo[k][m] and hi[k][m],
 * the places in k's sequence (bits 0..12) of the ranks in M, 1..7 (bit
 * r-1) and 8..13 (bit r-8), so that two lookups turn a set of ranks into
 * the places of k's sequence that they fill. */
typedef struct {
	uint16_t upto[4][15];
	uint16_t lo[4][128], hi[4][64];
} sequence_bits;

static const sequence_bits *foundation_bits(void)
{
	static sequence_bits t;
	static bool made;
	if (made)
		return &t;
	for (int k = 0; k < 4; k++) {
		int place[14];
		for (int n = 0; n < 13; n++) {
			t.upto[k][n + 1] = (uint16_t)(t.upto[k][n] | 1u << calc_need(k, n));
			place[calc_need(k, n)] = n;
		}
		t.upto[k][14] = t.upto[k][13]; /* a complete climb's top + 1 */
		for (unsigned m = 0; m < 128; m++)
			for (int r = 1; r <= 7; r++)
				if (m >> (r - 1) & 1)
					t.lo[k][m] |= (uint16_t)(1u << place[r]);
		for (unsigned m = 0; m < 64; m++)
			for (int r = 8; r <= 13; r++)
				if (m >> (r - 8) & 1)
					t.hi[k][m] |= (uint16_t)(1u << place[r]);
	}
	made = true;
	return &t;
}

/* The ranks face down in S, as bits 1..13. */
static unsigned unseen_ranks(const calc_state *s)
{
	unsigned reach = 0;
	for (int j = s->next; j < s->ncards; j++)
		reach |= 1u << s->stock[j];
	return reach;
}

/* A bound that proves many positions lost at once. Relax the rules: every
 * face-down card (and the hand) is always within reach, and a card once
 * played to a foundation stays within reach for the others too. Then
 * reaching more only helps, so the most that can be played is a fixpoint:
 * a foundation climbs while some card of the rank it needs is within
 * reach, and a pile top comes off once a foundation has climbed to its
 * rank. Real play can do no more, so if the piles do not all come off
 * here, S is lost. UNSEEN: the ranks face down, as bits (unseen_ranks). */
static int hopeless(const calc_state *s, unsigned unseen)
{
	unsigned reach = unseen | (s->hand ? 1u << s->hand : 0), len[4];
	for (int w = 0; w < s->npiles; w++)
		len[w] = s->len[w];
	const sequence_bits *t = foundation_bits();
	for (bool popped = true; popped;) {
		unsigned climbed = 0; /* ranks some foundation has climbed to */
		for (int k = 0; k < 4; k++) {
			unsigned filled = t->lo[k][reach >> 1 & 127] | t->hi[k][reach >> 8 & 63];
			/* The climb: the places from found[k] on that reach fills, up
			 * to the first it does not (bit 13 of ~filled stops it). */
			int top = s->found[k] + __builtin_ctz(~filled >> s->found[k]);
			/* A sequence holds each rank once, so this is its ranks
			 * from found[k] to top, the next one needed. */
			climbed |= t->upto[k][top + 1] & ~t->upto[k][s->found[k]];
		}
		popped = false;
		for (int w = 0; w < s->npiles; w++) {
			while (len[w] && climbed >> s->pile[w][len[w] - 1] & 1) {
				reach |= 1u << s->pile[w][--len[w]];
				popped = true;
			}
		}
	}
	for (int w = 0; w < s->npiles; w++)
		if (len[w])
			return 1;
	return 0;
}

/* A kept card: the search chose to leave card FROM (0 the hand, 1.. a
 * pile's top) off foundation K for the rest of this pass of eager play.
 * KEPT holds a 3-bit field a source, 0 or 1 + K. */
#define KEEP_MOVE(from) (CALC_MOVE_CODES + (from))
#define KEEP_FIELD(kept, from) ((kept) >> 3 * (from) & 7)

/* KEPT with the card of KEEP (a KEEP_MOVE of S) added, kept off the one
 * foundation that takes it now. */
static unsigned keep_more(const calc_state *s, unsigned kept, int keep)
{
	int from = keep - CALC_MOVE_CODES;
	int card = from ? s->pile[from - 1][s->len[from - 1] - 1] : s->hand;
	return kept | (unsigned)(__builtin_ctz(calc_accepting(s, card)) + 1) << 3 * from;
}

/* Whether some other pile than FROM's (1..; 0 the hand) holds CARD below
 * its top: a copy that could take the foundation's place if CARD waits. */
static bool buried_copy(const calc_state *s, int from, int card)
{
	for (int w = 0; w < s->npiles; w++) {
		if (w == from - 1)
			continue;
		for (int i = 0; i + 1 < s->len[w]; i++)
			if (s->pile[w][i] == card)
				return true;
	}
	return false;
}

static int search(calcsolve *sv, calc_state *s, int *first, unsigned kept);

/* *D = *S but for the bytes past each pile's cards, which no search
 * reads (calc_play writes a card before a pile grows over it): the
 * solvers copy a position per move, and most of a whole copy is the
 * piles' empty room. The first 16 bytes of a pile cover nearly every
 * pile of a game still to be won. */
static void copy_position(calc_state *d, const calc_state *s)
{
	memcpy(d, s, offsetof(calc_state, pile));
	for (int w = 0; w < s->npiles; w++) {
		memcpy(d->pile[w], s->pile[w], 16);
		if (s->len[w] > 16)
			memcpy(d->pile[w] + 16, s->pile[w] + 16, sizeof d->pile[w] - 16);
	}
	d->steps = s->steps;
	d->variant = s->variant;
}

/* Searches on after each of the N MOVES from S in turn: WON at the first
 * win, else UNKNOWN if any search ran out of budget, else LOST. A kept
 * card (KEEP_MOVE) goes on in the same position with it added to KEPT,
 * kept off the foundation it would have gone to. S is the caller's
 * scratch copy (each search gets one), so the last move is made in it
 * rather than in another copy. */
static int try_moves(calcsolve *sv, calc_state *s, const int *moves, int n, int *first,
		     unsigned kept)
{
	int unknown = 0;
	for (int i = 0; i < n; i++) {
		calc_state c, *d = s;
		int r;
		if (i + 1 < n) {
			copy_position(&c, s);
			d = &c;
		}
		if (moves[i] >= CALC_MOVE_CODES) {
			/* A kept card costs a position of the budget: keeping
			 * card after card is a search of its own. It is no move,
			 * so the first move is still to come. */
			if (sv->budget && sv->nodes >= sv->budget)
				return CALCSOLVE_UNKNOWN;
			sv->nodes++;
			r = search(sv, d, first, keep_more(s, kept, moves[i]));
		} else {
			if (first)
				*first = moves[i];
			calc_play(d, moves[i]);
			r = search(sv, d, NULL, 0);
		}
		if (r == CALCSOLVE_WON)
			return r;
		unknown |= r == CALCSOLVE_UNKNOWN;
	}
	return unknown ? CALCSOLVE_UNKNOWN : CALCSOLVE_LOST;
}

/* Whether piles A and B hold the same cards in the same order. */
static bool same_pile(const calc_state *s, int a, int b)
{
	return s->len[a] == s->len[b] && !memcmp(s->pile[a], s->pile[b], s->len[a]);
}

/* When CARD, on top of pile FROM (1..), shows on later piles' tops too,
 * the moves of each copy to foundation K, FROM's first, into MOVES and
 * their number; else 0. Which copy goes up decides which pile it
 * uncovers, so it is a choice, not eager play, unless the piles are
 * alike (taking either leaves the same piles). A copy KEPT off K is no
 * choice: its line is the one where it went up instead. */
static int copies_on_tops(const calc_state *s, int from, int card, int k, int *moves,
			  unsigned kept)
{
	int n = 1;
	moves[0] = CALC_MOVE(from, k);
	for (int w = from; w < s->npiles; w++) {
		if (!s->len[w] || s->pile[w][s->len[w] - 1] != card ||
		    KEEP_FIELD(kept, w + 1) == (unsigned)k + 1)
			continue;
		int i = 0;
		while (i < n && !same_pile(s, CALC_FROM(moves[i]) - 1, w))
			i++;
		if (i == n)
			moves[n++] = CALC_MOVE(w + 1, k);
	}
	return n > 1 ? n : 0;
}

/* The ranks the foundations accept, NEED[k] for Fk+1 (0 when complete),
 * as bits 1..13. */
static unsigned wanted_ranks(const uint8_t need[4])
{
	return (1u << need[0] | 1u << need[1] | 1u << need[2] | 1u << need[3]) & ~1u;
}

/* Pile W's top card, 0 when it is empty. */
static inline uint8_t pile_top(const calc_state *s, int w)
{
	return s->len[w] ? s->pile[w][s->len[w] - 1] : 0;
}

/* Plays at once each card that one foundation wants, waste tops before
 * the hand (a hand card played first could have waited for a copy on a
 * pile to go up, freeing that pile). Stops at a card that two or more
 * foundations want, or that shows on two or more piles: returns how many
 * moves choose between them, in MOVES, else 0. With WAITS a card whose
 * rank has a copy buried in another pile is a choice too, of sending it
 * up or keeping it (KEEP_MOVE): the copy may need the foundation first.
 * *KEPT (KEEP_FIELD) are cards kept in this pass; a source's field
 * clears when its card goes up elsewhere, since the card under it, or the
 * hand turned after it, was never kept. The first move played
 * goes to **FIRST unless *FIRST is NULL, which it then becomes. With
 * UNTURN no card is turned (calc_play_unturned): once the hand has gone
 * up, the next card is for a chance node to turn. */
static int eager_play(calc_state *s, int *moves, int **first, bool unturn, bool waits,
		      unsigned *kept)
{
	/* Each source's card (0 for none) in the order they are tried, the
	 * piles' tops then the hand, and each foundation's need, kept up to
	 * date move by move: a move changes its own source, the hand (by
	 * turning) and one foundation. */
	uint8_t top[5], need[4];
	for (int w = 0; w < s->npiles; w++)
		top[w] = pile_top(s, w);
	top[s->npiles] = s->hand;
	for (int k = 0; k < 4; k++)
		need[k] = (uint8_t)calc_need(k, s->found[k]);
	/* Most tops are wanted by no foundation: one bit test rules them out
	 * (bit 0, a complete foundation's need, stands for no card). */
	unsigned wanted = wanted_ranks(need);
	for (int i = 0; i <= s->npiles;) {
		int card = top[i];
		if (!(wanted >> card & 1)) {
			i++;
			continue;
		}
		int from = i < s->npiles ? i + 1 : 0;
		unsigned m = 0, f = KEEP_FIELD(*kept, from);
		for (int k = 0; k < 4; k++)
			m |= (unsigned)(need[k] == card) << k;
		if (f)
			m &= ~(1u << (f - 1));
		if (!m) {
			i++;
			continue;
		}
		if (m & (m - 1)) {
			int n = 0;
			for (; m; m &= m - 1)
				moves[n++] = CALC_MOVE(from, __builtin_ctz(m));
			return n;
		}
		/* A copy on a later top makes it a choice (copies_on_tops). */
		int k = __builtin_ctz(m), copy = 0;
		for (int w = from; from && w < s->npiles; w++)
			copy |= top[w] == card;
		int n = copy ? copies_on_tops(s, from, card, k, moves, *kept) : 0;
		if (n)
			return n;
		int move = CALC_MOVE(from, k);
		if (waits && !f && (s->hand || s->next < s->ncards) && buried_copy(s, from, card)) {
			moves[0] = move;
			moves[1] = KEEP_MOVE(from);
			return 2;
		}
		if (*first) {
			**first = move;
			*first = NULL;
		}
		if (unturn)
			calc_play_unturned(s, move);
		else
			calc_play(s, move);
		if (from)
			top[i] = pile_top(s, i);
		top[s->npiles] = s->hand;
		need[k] = (uint8_t)calc_need(k, s->found[k]);
		*kept &= ~(7u << 3 * from);
		wanted = wanted_ranks(need);
		i = 0;
	}
	return 0;
}

/* Perturbs the N placements OUT (N >= 2) for calcsolve_restarts: at half
 * the positions the first two change places, at a quarter the second and
 * third. A xorshift64 of its own, not lib/core/rng: one word of the
 * solver's state and three shifts a position, keyed by the position and
 * the restart; the draws only have to differ from restart to restart. */
static void reorder(calcsolve *sv, int *out, int n)
{
	uint64_t x = sv->reorder;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	sv->reorder = x;
	unsigned v = (unsigned)(x >> 62);
	int i = v < 2 ? 0 : v == 2 && n > 2 ? 1 : -1;
	if (i >= 0) {
		int t = out[i];
		out[i] = out[i + 1];
		out[i + 1] = t;
	}
}

/* The hand's placements, likeliest first: in the greedy rule's order (its
 * own choice first), one empty pile standing for all. Ordered so, eager
 * searches find wins sooner, so that more sampled orders are settled
 * within the budget than with the tightest fit first
 * (tests/bench/NOTES.md). */
static int placements(calcsolve *sv, const calc_state *s, int *out)
{
	unsigned score[4], key[4];
	int n = 0, empty_seen = 0;
	calc_pile_scores(s, score);
	for (int w = 0; w < s->npiles; w++) {
		if (!s->len[w]) {
			if (empty_seen)
				continue;
			empty_seen = 1;
		}
		int i = n++;
		for (; i > 0 && key[i - 1] > score[w]; i--) {
			key[i] = key[i - 1];
			out[i] = out[i - 1];
		}
		key[i] = score[w];
		out[i] = CALC_MOVE(0, 4 + w);
	}
	if (sv->reorder && n > 1)
		reorder(sv, out, n);
	return n;
}

/* KEPT: cards kept off a foundation in this pass (eager_play). Under it
 * the search sees fewer lines than from the position itself, so a loss it
 * proves is not remembered (a remembered loss still holds for it). */
static int search(calcsolve *sv, calc_state *s, int *first, unsigned kept)
{
	if (!sv->exact) {
		int choice[4], n = eager_play(s, choice, &first, false, sv->waits, &kept);
		if (n)
			return try_moves(sv, s, choice, n, first, kept);
		if (!s->hand)
			return calc_success(s) ? CALCSOLVE_WON : CALCSOLVE_LOST;
	} else if (calc_over(s)) {
		return calc_success(s) ? CALCSOLVE_WON : CALCSOLVE_LOST;
	}
	/* The bound before the memo: it proves most positions lost, and is
	 * cheaper than hashing them, so the memo keeps only the positions a
	 * search proved lost. */
	if (hopeless(s, sv->unseen[s->next]))
		return CALCSOLVE_LOST;
	uint64_t h = calcsolve_hash(s);
	bool seen;
	if (probe(sv, h, &seen) && seen)
		return CALCSOLVE_LOST;
	if (sv->budget && sv->nodes >= sv->budget)
		return CALCSOLVE_UNKNOWN;
	sv->nodes++;
	int moves[CALC_MAX_MOVES];
	int n = sv->exact ? calc_moves(s, moves, true) : placements(sv, s, moves);
	int r = try_moves(sv, s, moves, n, first, 0);
	/* The search below may have taken the slot found above: probe again. */
	if (r == CALCSOLVE_LOST && !kept)
		remember_lost(sv, h);
	return r;
}

/* A new run with BUDGET; with FORGET the memo's older entries count as
 * empty. */
static void run_start(calcsolve *sv, uint64_t budget, bool forget)
{
	if (forget)
		calcsolve_forget(sv);
	sv->nodes = 0;
	sv->budget = budget;
}

/* Backtracking search's cost has a long tail: a search that has not
 * settled a position within a few dozen positions often needs thousands,
 * because one early misstep hides the win under a large lost subtree,
 * while the same search in another order finds the win at once. Many
 * short runs in perturbed orders settle more positions than one long run
 * in the likeliest order, in fewer positions (tests/bench/NOTES.md). So a
 * search is RUNS runs of S, each within an equal share of BUDGET (no
 * budget: one run without a limit), the first in the greedy rule's order
 * and each later one perturbed by draws fixed by S and its stock. */
static int search_runs(calcsolve *sv, const calc_state *s, uint64_t budget, int runs, int *move)
{
	if (!budget || runs < 1)
		runs = 1;
	uint64_t each = budget / (uint64_t)runs, seed = 0;
	if (budget && !each)
		each = 1;
	if (runs > 1) {
		seed = calcsolve_hash(s);
		for (int j = s->next; j < s->ncards; j++)
			seed = rng_mix64(seed ^ s->stock[j]);
	}
	calc_state c0 = *s;
	int r = CALCSOLVE_UNKNOWN, first = -1;
	run_start(sv, 0, true);
	sv->chances = false;
	calc_turn(&c0);
	/* The stock's order is fixed for the whole search, so the ranks
	 * still face down at each stock index are known in advance. */
	sv->unseen[c0.ncards] = 0;
	for (int j = c0.ncards - 1; j >= 0; j--)
		sv->unseen[j] = (uint16_t)(sv->unseen[j + 1] | 1u << c0.stock[j]);
	for (int k = 0; k < runs && r == CALCSOLVE_UNKNOWN; k++) {
		calc_state c = c0;
		sv->budget = each ? sv->nodes + each : 0;
		sv->reorder = k ? rng_mix64(seed + (uint64_t)k) | 1 : 0;
		r = search(sv, &c, &first, 0);
	}
	sv->reorder = 0;
	if (move)
		*move = r == CALCSOLVE_WON ? first : -1;
	return r;
}

int calcsolve_run(calcsolve *sv, const calc_state *s, uint64_t budget, int *move)
{
	return search_runs(sv, s, budget, 1, move);
}

int calcsolve_restarts(calcsolve *sv, const calc_state *s, uint64_t budget, int runs)
{
	return search_runs(sv, s, budget, runs, NULL);
}

static double expect(calcsolve *sv, calc_state *s, double alpha, unsigned kept);

static double expect_turned(void *sv, calc_state *d, double alpha)
{
	return expect(sv, d, alpha, 0);
}

/* The best chance of winning S over the player's choices (eager-mode
 * lines, or in exact mode every legal move) when it is above ALPHA;
 * otherwise ALPHA, an upper bound on it (the search is cut as soon as
 * that is certain: Star1 at the chance nodes, the best move so far at
 * the decision nodes). -1 once the budget is spent.
 * Positions are remembered with their chances, or where a search was cut
 * with the upper bound it found, negated (-0.0 too: the sign bit tells)
 * and rounded up, which answers only the searches it still cuts. The key
 * takes in the hand, which the stock order no longer fixes. */
static double expect(calcsolve *sv, calc_state *s, double alpha, unsigned kept)
{
	int moves[CALC_MAX_MOVES], *nofirst = NULL, n = 0;
	if (!sv->exact) {
		n = eager_play(s, moves, &nofirst, true, sv->waits, &kept);
		if (!n && !s->hand && s->next >= s->ncards)
			return calc_success(s);
	} else if (s->hand || s->next >= s->ncards) {
		/* Every move is a choice; with no hand and cards unseen the
		 * next card comes first (calc_play turns it at once). */
		n = calc_moves(s, moves, true);
		if (!n)
			return calc_success(s);
	}
	uint64_t h = (calcsolve_hash(s) + rng_mix64(0xc0ffee00u + s->hand)) | 1;
	bool seen;
	/* Under KEPT the position has fewer lines than its own: its chance
	 * is neither read from the memo nor written to it. */
	uint64_t *slot = kept ? NULL : probe(sv, h, &seen);
	if (slot && seen) {
		float x = sv->value[(slot - sv->key) / 2];
		if (!signbit(x))
			return x;
		if (-x <= alpha)
			return alpha;
	}
	if (hopeless(s, unseen_ranks(s))) {
		/* Remembered too: other move orders often reach it again. */
		if (slot) {
			take(sv, slot, h, seen);
			sv->value[(slot - sv->key) / 2] = 0;
		}
		return 0;
	}
	if (sv->budget && sv->nodes >= sv->budget)
		return -1;
	sv->nodes++;
	double v = 0;
	if (!n && !s->hand) {
		/* The next card: a mean over its ranks. */
		v = calc_next_card_mean(s, alpha, expect_turned, sv);
		if (v < 0)
			return -1;
	} else {
		if (!n)
			n = placements(sv, s, moves);
		for (int i = 0; i < n && v < 1; i++) {
			calc_state c;
			bool keep = moves[i] >= CALC_MOVE_CODES;
			copy_position(&c, s);
			if (!keep)
				calc_play_unturned(&c, moves[i]);
			double w = expect(sv, &c, v > alpha ? v : alpha,
					  keep ? keep_more(s, kept, moves[i]) : 0);
			if (w < 0)
				return -1;
			if (w > v)
				v = w;
		}
	}
	/* A chance, or (cut short) only a bound; not the solver's mode. */
	bool settled = v > alpha || alpha <= 0;
	float x = (float)v;
	if (settled)
		v = x; /* as the memo will give it, so that a tie stays a tie */
	else if (x < v)
		x = nextafterf(x, 1); /* a bound must not shrink */
	/* The search below may have taken the slot found above: probe again. */
	slot = kept ? NULL : probe(sv, h, &seen);
	if (slot) {
		take(sv, slot, h, seen);
		sv->value[(slot - sv->key) / 2] = settled ? x : -x;
	}
	return v;
}

bool calcsolve_expect(calcsolve *sv, const calc_state *s, int n, uint64_t budget, bool all,
		      double *v)
{
	/* A run's memo holds lost positions of one stock order, no chances;
	 * a memo half full would soon fail its probes. */
	run_start(sv, budget, !sv->chances || sv->used > sv->mask / 2);
	sv->chances = true;
	double top = 0;
	for (int i = 0; i < n; i++) {
		calc_state c = s[i];
		/* Just under the best so far, so that a tie comes back exact. */
		double x = expect(sv, &c, all ? 0 : top * (1 - 1e-6), 0);
		if (x < 0)
			return false;
		v[i] = x;
		if (x > top)
			top = x;
	}
	return true;
}

/* The greedy rule's line from S, move by move. */
static void greedy_line(calc_state *s, calcsolve_line *line)
{
	line->n = 0;
	while (!calc_over(s)) {
		int m = calc_greedy_move(s);
		calc_play(s, m);
		line->move[line->n++] = (uint8_t)m;
	}
	line->rest = calc_rest(s);
}

/* What S's greedy line leaves, by the fast playout: the nested search
 * scores millions of lines and writes out only the few that beat the
 * best so far. */
static int greedy_rest(const calc_state *s)
{
	calc_state c = *s;
	calc_greedy_playout(&c);
	return calc_rest(&c);
}

void calcsolve_nested(const calc_state *start, int level, calcsolve_line *best)
{
	calc_state s = *start;
	calc_turn(&s); /* the position may wait on the next card */
	if (!level || calc_over(&s)) {
		greedy_line(&s, best);
		return;
	}
	/* best->move[0..played) are the moves made so far: a line that
	 * beats the best replaces only what follows them. */
	best->n = 0;
	best->rest = INT_MAX;
	calcsolve_line sub;
	for (int played = 0; !calc_over(&s) && best->rest; played++) {
		int moves[CALC_MAX_MOVES], n = calc_moves(&s, moves, true);
		for (int i = 0; i < n && best->rest; i++) {
			calc_state c = s;
			calc_play(&c, moves[i]);
			int rest = level > 1 ? (calcsolve_nested(&c, level - 1, &sub), sub.rest)
					     : greedy_rest(&c);
			if (rest >= best->rest)
				continue;
			if (level == 1) {
				greedy_line(&c, &sub);
#ifdef YOMI_DEBUG
				if (sub.rest != rest)
					die("calcsolve_nested: the fast playout left %d, the greedy line %d",
					    rest, sub.rest);
#endif
			}
			best->move[played] = (uint8_t)moves[i];
			memcpy(best->move + played + 1, sub.move, (size_t)sub.n);
			best->n = played + 1 + sub.n;
			best->rest = sub.rest;
		}
		calc_play(&s, best->move[played]);
	}
}
