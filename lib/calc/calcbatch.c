#include "calc/calcbatch.h"

#include <string.h>

#include "core/isa.h"
#include "core/util.h"

/* The one-move steps (greedy_step, greedy_step8) are forced inline, so
 * that the lanes stay in registers across the loops that call them. */
#define STEP_INLINE static inline __attribute__((always_inline))

#if defined(__x86_64__)
#define CALCBATCH_SIMD 1
#include <immintrin.h>
#endif

calcbatch_outcome calcbatch_outcome_of(const calc_state *s)
{
	return (calcbatch_outcome){(uint8_t)calc_success(s), (uint8_t)calc_rest(s), s->steps};
}

/* One game the scalar way: the reference, the fallback, and the replay
 * of a lane the vector loop gives up. */
static calcbatch_outcome random_one(int variant, const uint8_t deck[52], const rng *gen)
{
	calc_state s;
	rng r = *gen;
	calc_deal(&s, variant, deck);
	calc_random_playout(&s, &r);
	return calcbatch_outcome_of(&s);
}

/* A greedy game, with the cascade's moves up (calc_cascade_playout) when
 * CASCADE says. */
static calcbatch_outcome rule_one(const calc_state *from, bool cascade)
{
	calc_state s = *from;
	if (cascade)
		calc_cascade_playout(&s, false, -1);
	else
		calc_greedy_playout(&s);
	return calcbatch_outcome_of(&s);
}

/* The outcome of a lane whose game is over, from its FOUND and STEPS
 * (nibble k: the cards on foundation k), for either vector path. */
static calcbatch_outcome lane_outcome(uint64_t found, uint64_t steps)
{
	int placed = 0;
	for (int k = 0; k < 4; k++)
		placed += (int)(found >> 4 * k & 0xF);
	return (calcbatch_outcome){(uint8_t)(found == 0xDDDD), (uint8_t)(52 - placed), (uint16_t)steps};
}

/* S's game K (its unseen cards in the order stream (KEY, FROM + K)
 * draws) as a state: for the replay of a lane given up, and for the
 * paths without the lanes. */
static calc_state resampled(const calc_state *s, uint64_t key, uint64_t from, size_t k)
{
	calc_state c = *s;
	rng r;
	rng_stream(&r, key, from + k);
	calc_resample(&c, &r);
	return c;
}

#ifdef CALCBATCH_SIMD

/* Urgencies (calc_urgency) of every rank, nibble r for rank r, for each
 * count of cards on the foundations, indexed by FOUND's low 16 bits: what
 * greedy's placement rule needs, in one gather after a foundation move.
 * 512 KB, filled at the first greedy batch (built for the base path:
 * both vector paths use it). */
static const uint64_t *urgency_table(void)
{
	static uint64_t *tab;
	if (tab)
		return tab;
	tab = xcalloc(1 << 16, sizeof *tab);
	calc_state s = {.npiles = 4};
	for (int f = 0; f < 1 << 16; f++) {
		bool ok = true;
		for (int k = 0; k < 4; k++) {
			s.found[k] = (uint8_t)(f >> 4 * k & 0xF);
			ok &= s.found[k] <= 13;
		}
		for (int r = 1; ok && r <= 13; r++)
			tab[f] |= (uint64_t)calc_urgency(&s, r) << 4 * r;
	}
	return tab;
}

/* How the vector paths replay a lane they gave up (built for the base
 * path, as what they call must be). */
typedef struct {
	int variant;
	const uint8_t (*decks)[52];
	const rng *gens;
} random_batch;

static calcbatch_outcome random_replay(const void *ctx, int i)
{
	const random_batch *rb = ctx;
	return random_one(rb->variant, rb->decks[i], &rb->gens[i]);
}

static calcbatch_outcome greedy_replay(const void *ctx, int i)
{
	return rule_one((const calc_state *)ctx + i, false);
}

/* The cascade's move up (calc.c's up_choice) in one lane, for both
 * vector paths: their steps hand over only the lanes where two or more
 * moves up are open, a lane in about one step of eight, so searching each
 * such lane's moves one by one costs less than playing every candidate's
 * run in every lane. A lane's piles come as the AVX-512 lanes hold them,
 * 4-bit ranks from the top down, 32 at most (L the first 16, U the next),
 * or as the AVX2 lanes' bytes (TOP[p] the top, the cards under it below,
 * LEN[p] of them) when BYTES says; a candidate's run keeps
 * only how many cards it took off each (a byte a pile), the foundations
 * (nibble k: the cards on foundation k, the rank it needs, 15 once
 * complete) and the hand, all in registers. */
typedef struct {
	uint64_t L[4], U[4];
	const uint8_t *top[4];
	unsigned len[4], np;
	bool bytes;
} lane_piles;

/* Pile P's top once D cards are off it (0 once empty). */
static inline unsigned words_top(const lane_piles *w, unsigned p, unsigned d)
{
	if (w->bytes)
		return d < w->len[p] ? w->top[p][-(int)d] : 0;
	uint64_t word = d < 16 ? w->L[p] >> 4 * d : d < 32 ? w->U[p] >> 4 * (d - 16) : 0;
	return (unsigned)(word & 0xF);
}

/* Bit 4i of each of the four nibbles of X that is 0. */
static inline uint64_t words_zero(uint64_t x)
{
	return ~(x | x >> 1 | x >> 2 | x >> 3) & 0x1111;
}

/* The first foundation whose NEED nibble is CARD, 4 if none (never for
 * 0, an empty pile's top or no hand). */
static inline unsigned words_fnd(uint64_t need, unsigned card)
{
	uint64_t hit = words_zero(need ^ card * 0x1111ull);
	return hit ? (unsigned)__builtin_ctzll(hit) / 4 : 4;
}

static inline void words_advance(uint64_t *found, uint64_t *need, unsigned k)
{
	*found += 1ull << 4 * k;
	unsigned n = (unsigned)(*found >> 4 * k & 0xF);
	uint64_t next = n < 13 ? calc_needs[k][n] : 15;
	*need = (*need & ~(0xFull << 4 * k)) | next << 4 * k;
}

/* The ranks some foundation of NEED takes, as bits 1..13 (bit 15 for a
 * complete one, which no card matches; bit 0, no card, is never set). */
static inline unsigned words_wanted(uint64_t need)
{
	return 1u << (need & 0xF) | 1u << (need >> 4 & 0xF) | 1u << (need >> 8 & 0xF) |
	       1u << (need >> 12 & 0xF);
}

/* The first of the piles whose top (nibble p of TOPS, 0 for none) is in
 * WANTED (words_wanted), as 4p, or 16 if none: one bit test a pile where
 * matching each top against the four needs took sixteen. */
static inline unsigned words_first_up(uint64_t tops, unsigned wanted)
{
	unsigned hit = (wanted >> (tops & 0xF) & 1) | (wanted >> (tops >> 4 & 0xF) & 1) << 1 |
		       (wanted >> (tops >> 8 & 0xF) & 1) << 2 | (wanted >> (tops >> 12 & 0xF) & 1) << 3;
	return hit ? 4 * (unsigned)__builtin_ctz(hit) : 16;
}

/* up_run on the words, from POPS (byte p: the cards off pile p), TOPS
 * (nibble p: pile p's top then), FOUND, NEED and HAND: the plain rule's
 * moves up, first the tops, then the hand, until none is left. Returns
 * twice how many, plus 1 if the hand went up: the cascade's score. */
static unsigned words_up_run(const lane_piles *w, uint32_t pops, uint64_t tops, uint64_t found,
			     uint64_t need, unsigned hand)
{
	unsigned wanted = words_wanted(need);
	for (unsigned n = 0;; n++) {
		unsigned p4 = words_first_up(tops, wanted), k;
		if (p4 < 16) {
			unsigned p = p4 / 4;
			k = words_fnd(need, (unsigned)(tops >> p4 & 0xF));
			pops += 1u << 8 * p;
			tops = (tops & ~(0xFull << p4)) | (uint64_t)words_top(w, p, pops >> 8 * p & 0xFF) << p4;
		} else if (wanted >> hand & 1) {
			k = words_fnd(need, hand);
			hand = 0;
		} else {
			return 2 * n + !hand;
		}
		words_advance(&found, &need, k);
		wanted = words_wanted(need);
	}
}

/* The move of the longest run, then the one that sends the hand up,
 * then the first (pile by pile, the hand last): 16p + 4k for pile p's
 * top to foundation k, 64 + 4k for the hand. */
static unsigned words_choice(const lane_piles *w, uint64_t found, uint64_t need, unsigned hand)
{
	unsigned best = 0, move = 0;
	uint64_t tops = 0;
	for (unsigned p = 0; p < w->np; p++)
		tops |= (uint64_t)words_top(w, p, 0) << 4 * p;
	for (unsigned p = 0; p <= w->np; p++) {
		unsigned card = p < w->np ? (unsigned)(tops >> 4 * p & 0xF) : hand;
		for (unsigned k = 0; card && k < 4; k++) {
			if ((need >> 4 * k & 0xF) != card)
				continue;
			uint64_t f = found, nd = need;
			words_advance(&f, &nd, k);
			unsigned v;
			if (p < w->np) {
				uint64_t t = (tops & ~(0xFull << 4 * p)) | (uint64_t)words_top(w, p, 1) << 4 * p;
				v = words_up_run(w, 1u << 8 * p, t, f, nd, hand);
			} else {
				v = words_up_run(w, 0, tops, f, nd, 0);
			}
			if (v + 1 > best) {
				best = v + 1;
				move = 16 * (p < w->np ? p : 4) + 4 * k;
			}
		}
	}
	return move;
}

/* The AVX-512 path: built for it, called only where isa_path() has it. */
ISA_BEGIN_AVX512

enum { LANES = 8 };
typedef __m512i vec;

#define V(x) _mm512_set1_epi64((long long)(x))

/* The most cards a lane keeps on a pile: 32, all of L and U. Debug
 * builds give a lane up at 12 already, so that their runs exercise the
 * replay too (and check it: see calcbatch_random). A pile is full when
 * its PILE_MAX-th card is there: the FULL_MASK nibble of FULL_WORD (L
 * holds cards 1-16 from the top, U 17-32). */
#ifdef YOMI_DEBUG
#define PILE_MAX 12
#else
#define PILE_MAX 32
#endif
#define FULL_WORD(g, p) (PILE_MAX > 16 ? (g)->U[p] : (g)->L[p])
#define FULL_MASK (0xFull << 4 * ((PILE_MAX - 1) % 16))

/* Eight games, one per lane, each word of the state a vector:
 *   H      the hand's rank, 0 when there is none;
 *   S[4]   the stock as 4-bit ranks, the next card in the lowest nibble;
 *   L, U   waste pile p as a stack of 4-bit ranks, its top in L's lowest
 *          nibble, U above L: 32 cards at most (random games seldom
 *          build piles that long: tests/bench/NOTES.md; a lane about to
 *          overflow is given up and replayed by the scalar playout, like
 *          a lane whose draw Lemire's method might reject);
 *   FOUND  nibble k: the cards on foundation k;
 *   NEED   nibble k: the rank it accepts, 15 once complete, so that no
 *          card and no empty pile's top (0) matches it;
 *   C[4]   nibble r: the cards of rank r on waste pile p (greedy's
 *          placement rule counts the cards it would cover);
 *   NP     the number of waste piles;
 *   STEPS  the moves made.
 * Every update is masked by the lanes it concerns, so a lane whose game
 * is over, or that was given up (BAD), or holds no game, stops changing. */
typedef struct {
	vec H, S[4], L[4], U[4], C[4], FOUND, NEED, NP, STEPS;
	__mmask8 bad;
} lanes;

/* The byte table of the foundations' needs, byte 16k + n for foundation
 * k holding n cards (15 once complete), for vpermb. */
static vec need_table(void)
{
	uint8_t tab[64];
	memset(tab, 15, sizeof tab);
	for (int k = 0; k < 4; k++)
		memcpy(tab + 16 * k, calc_needs[k], 13);
	return _mm512_loadu_si512(tab);
}

/* Eight 4-bit ranks a pext: a rank fits in the low nibble of its byte. */
static uint64_t pack16(const uint8_t *bytes)
{
	uint64_t lo, hi;
	memcpy(&lo, bytes, 8);
	memcpy(&hi, bytes + 8, 8);
	return _pext_u64(lo, 0x0F0F0F0F0F0F0F0F) | _pext_u64(hi, 0x0F0F0F0F0F0F0F0F) << 32;
}

/* The lanes of the N states (the rest hold no game), each with its next
 * card turned as the playouts do; a state with a pile too long for
 * its lane is marked bad at once. */
static void lanes_load(lanes *g, const calc_state *st, int n, vec table)
{
	uint64_t hw[LANES] = {0}, fw[LANES] = {0}, nw[LANES] = {0}, tw[LANES] = {0}, sw[4][LANES] = {{0}},
		 lw[4][LANES] = {{0}}, uw[4][LANES] = {{0}}, cw[4][LANES] = {{0}};
	g->bad = 0;
	for (int i = 0; i < n; i++) {
		calc_state s = st[i];
		calc_turn(&s);
		hw[i] = s.hand;
		nw[i] = s.npiles;
		tw[i] = s.steps;
		for (int k = 0; k < 4; k++)
			fw[i] |= (uint64_t)s.found[k] << 4 * k;
		uint8_t pad[64] = {0};
		memcpy(pad, s.stock + s.next, (size_t)(s.ncards - s.next));
		for (int j = 0; j < 4; j++)
			sw[j][i] = pack16(pad + 16 * j);
		for (int p = 0; p < s.npiles; p++) {
			int len = s.len[p];
			if (len > PILE_MAX) {
				g->bad |= (__mmask8)(1u << i);
				continue;
			}
			uint8_t rev[32] = {0};
			for (int j = 0; j < len; j++) {
				rev[j] = s.pile[p][len - 1 - j];
				cw[p][i] += 1ull << 4 * rev[j];
			}
			lw[p][i] = pack16(rev);
			uw[p][i] = pack16(rev + 16);
		}
	}
	g->H = _mm512_loadu_si512(hw);
	g->FOUND = _mm512_loadu_si512(fw);
	g->NP = _mm512_loadu_si512(nw);
	g->STEPS = _mm512_loadu_si512(tw);
	for (int j = 0; j < 4; j++) {
		g->S[j] = _mm512_loadu_si512(sw[j]);
		g->L[j] = _mm512_loadu_si512(lw[j]);
		g->U[j] = _mm512_loadu_si512(uw[j]);
		g->C[j] = _mm512_loadu_si512(cw[j]);
	}
	/* Each foundation's need, from the table. */
	g->NEED = _mm512_setzero_si512();
	for (int k = 0; k < 4; k++) {
		vec cards = _mm512_and_si512(_mm512_srli_epi64(g->FOUND, 4 * k), V(0xF));
		vec need = _mm512_permutexvar_epi8(_mm512_or_si512(cards, V(16 * k)), table);
		g->NEED = _mm512_or_si512(g->NEED, _mm512_slli_epi64(_mm512_and_si512(need, V(0xFF)), 4 * k));
	}
}

/* Bit 0 of each nibble of X whose 4 bits are all 0, kept where KEEP has
 * it: how one compare tests 16 rank pairs at once. */
static inline vec zero_nibbles(vec x, vec keep)
{
	vec any3 = _mm512_ternarylogic_epi64(x, _mm512_srli_epi64(x, 1), _mm512_srli_epi64(x, 2), 0xFE);
	return _mm512_ternarylogic_epi64(any3, _mm512_srli_epi64(x, 3), keep, 0x02);
}

/* The tops' foundation moves in calc_moves' order, bit 16p + 4k for pile
 * p's top to foundation k: the tops, each repeated in four nibbles,
 * against NEED repeated four times. */
static inline vec top_moves(const lanes *g)
{
	const vec F = V(0xF);
	vec n2 = _mm512_or_si512(g->NEED, _mm512_slli_epi64(g->NEED, 16));
	vec n4 = _mm512_or_si512(n2, _mm512_slli_epi64(n2, 32));
	vec t = _mm512_and_si512(g->L[0], F);
	for (int p = 1; p < 4; p++)
		t = _mm512_or_si512(t, _mm512_slli_epi64(_mm512_and_si512(g->L[p], F), 16 * p));
	t = _mm512_or_si512(t, _mm512_slli_epi64(t, 4));
	t = _mm512_or_si512(t, _mm512_slli_epi64(t, 8));
	return zero_nibbles(_mm512_xor_si512(n4, t), V(0x1111111111111111));
}

/* The hand's foundation moves, bit 4k for foundation k. */
static inline vec hand_moves(const lanes *g)
{
	vec h4 = _mm512_or_si512(g->H, _mm512_slli_epi64(g->H, 4));
	h4 = _mm512_or_si512(h4, _mm512_slli_epi64(h4, 8));
	return zero_nibbles(_mm512_xor_si512(g->NEED, h4), V(0x1111));
}

/* The position of the lowest set bit of W (64 for none). */
static inline vec lowest_bit(vec w)
{
	vec low = _mm512_and_si512(w, _mm512_sub_epi64(_mm512_setzero_si512(), w));
	return _mm512_sub_epi64(V(63), _mm512_lzcnt_epi64(low));
}

/* The hand onto pile TO in the lanes of PUSH, the top of pile FROM off in
 * the lanes of POP; a lane whose pile is full is given up. COUNT keeps C
 * too (a constant: random games do without). */
static inline void piles_move(lanes *g, __mmask8 push, vec to, __mmask8 pop, vec from, bool count)
{
	for (int p = 0; p < 4; p++) {
		__mmask8 in = _mm512_mask_cmpeq_epi64_mask(push, to, V(p));
		__mmask8 out = _mm512_mask_cmpeq_epi64_mask(pop, from, V(p));
		g->bad |= _mm512_mask_test_epi64_mask(in, FULL_WORD(g, p), V(FULL_MASK));
		if (count) {
			vec top = _mm512_slli_epi64(_mm512_and_si512(g->L[p], V(0xF)), 2);
			g->C[p] = _mm512_mask_add_epi64(g->C[p], in, g->C[p],
							_mm512_sllv_epi64(V(1), _mm512_slli_epi64(g->H, 2)));
			g->C[p] = _mm512_mask_sub_epi64(g->C[p], out, g->C[p], _mm512_sllv_epi64(V(1), top));
		}
		g->U[p] = _mm512_mask_shldi_epi64(g->U[p], in, g->U[p], g->L[p], 4);
		g->L[p] = _mm512_mask_or_epi64(g->L[p], in, _mm512_slli_epi64(g->L[p], 4), g->H);
		g->L[p] = _mm512_mask_shrdi_epi64(g->L[p], out, g->L[p], g->U[p], 4);
		g->U[p] = _mm512_mask_srli_epi64(g->U[p], out, g->U[p], 4);
	}
}

/* The next stock card into the hand in the lanes of M (the hand has gone). */
static inline void turn(lanes *g, __mmask8 m)
{
	g->H = _mm512_mask_and_epi64(g->H, m, g->S[0], V(0xF));
	for (int j = 0; j < 3; j++)
		g->S[j] = _mm512_mask_shrdi_epi64(g->S[j], m, g->S[j], g->S[j + 1], 4);
	g->S[3] = _mm512_mask_srli_epi64(g->S[3], m, g->S[3], 4);
}

/* Foundation K (K4 = 4k) takes its card in the lanes of M; its new need
 * from the table. */
static inline void advance(lanes *g, __mmask8 m, vec k4, vec table)
{
	g->FOUND = _mm512_mask_add_epi64(g->FOUND, m, g->FOUND, _mm512_sllv_epi64(V(1), k4));
	vec cards = _mm512_and_si512(_mm512_srlv_epi64(g->FOUND, k4), V(0xF));
	vec idx = _mm512_or_si512(cards, _mm512_slli_epi64(k4, 2));
	vec need = _mm512_and_si512(_mm512_permutexvar_epi8(idx, table), V(0xFF));
	vec kept = _mm512_andnot_si512(_mm512_sllv_epi64(V(0xF), k4), g->NEED);
	g->NEED = _mm512_mask_or_epi64(g->NEED, m, kept, _mm512_sllv_epi64(need, k4));
}

/* The outcomes of the first N lanes; a lane given up is played again by
 * REPLAY(ctx, i). Returns how many were. */
static size_t lanes_outcomes(const lanes *g, int n, calcbatch_outcome *out,
			     calcbatch_outcome (*replay)(const void *ctx, int i), const void *ctx)
{
	uint64_t fw[LANES], stw[LANES];
	_mm512_storeu_si512(fw, g->FOUND);
	_mm512_storeu_si512(stw, g->STEPS);
	size_t replayed = 0;
	for (int i = 0; i < n; i++) {
		if (g->bad >> i & 1) {
			out[i] = replay(ctx, i);
			replayed++;
			continue;
		}
		out[i] = lane_outcome(fw[i], stw[i]);
	}
	return replayed;
}

/* The random games' moves are counted as calc_random_playout counts them,
 * in calc_moves' order: the hand to the foundations that need it, the
 * hand to each pile, then the tops to foundations; the I-th drawn is
 * decoded by clearing the lowest set bits. */
static void random_lanes(lanes *g, vec s[4], vec table)
{
	const vec ONE = V(1);
	for (;;) {
		vec z = top_moves(g), zh = hand_moves(g);
		vec nh = _mm512_popcnt_epi64(zh);
		__mmask8 hand = _mm512_test_epi64_mask(g->H, g->H);
		vec nhp = _mm512_mask_add_epi64(nh, hand, nh, g->NP);
		vec nmoves = _mm512_add_epi64(nhp, _mm512_popcnt_epi64(z));
		__mmask8 act = _mm512_test_epi64_mask(nmoves, nmoves) & (__mmask8)~g->bad;
		if (!act)
			break;
		/* xoshiro256** in each lane, as rng_next, then rng_below32: a
		 * product whose low half is below nmoves might be rejected,
		 * which the replay settles. */
		vec a = _mm512_rol_epi64(_mm512_add_epi64(s[1], _mm512_slli_epi64(s[1], 2)), 7);
		vec draw = _mm512_add_epi64(a, _mm512_slli_epi64(a, 3));
		vec t = _mm512_slli_epi64(s[1], 17);
		s[2] = _mm512_xor_si512(s[2], s[0]);
		s[3] = _mm512_xor_si512(s[3], s[1]);
		s[1] = _mm512_xor_si512(s[1], s[2]);
		s[0] = _mm512_xor_si512(s[0], s[3]);
		s[2] = _mm512_xor_si512(s[2], t);
		s[3] = _mm512_rol_epi64(s[3], 45);
		vec x = _mm512_mul_epu32(_mm512_srli_epi64(draw, 32), nmoves);
		__mmask8 doubt = _mm512_mask_cmplt_epu64_mask(act, _mm512_and_si512(x, V(0xFFFFFFFF)), nmoves);
		g->bad |= doubt;
		act &= (__mmask8)~doubt;
		vec i = _mm512_srli_epi64(x, 32);
		__mmask8 hf = _mm512_mask_cmplt_epu64_mask(act, i, nh);
		__mmask8 hp = _mm512_mask_cmplt_epu64_mask(act & (__mmask8)~hf, i, nhp);
		__mmask8 tf = act & (__mmask8)~(hf | hp), fm = hf | tf;
		/* The foundation move's bit: skip C set bits of W. */
		vec w = _mm512_mask_blend_epi64(hf, z, zh);
		vec c = _mm512_mask_blend_epi64(hf, _mm512_sub_epi64(i, nhp), i);
		__mmask8 skip = _mm512_mask_test_epi64_mask(fm, c, c);
		while (skip) {
			w = _mm512_mask_and_epi64(w, skip, w, _mm512_sub_epi64(w, ONE));
			c = _mm512_mask_sub_epi64(c, skip, c, ONE);
			skip = _mm512_mask_test_epi64_mask(skip, c, c);
		}
		vec b = lowest_bit(w);
		piles_move(g, hp, _mm512_sub_epi64(i, nh), tf, _mm512_srli_epi64(b, 4), false);
		turn(g, hf | hp);
		advance(g, fm, _mm512_and_si512(b, V(12)), table);
		g->STEPS = _mm512_mask_add_epi64(g->STEPS, act, g->STEPS, ONE);
	}
}

static size_t random_batch8(int variant, const uint8_t (*decks)[52], const rng *gens, int n,
			    calcbatch_outcome *out, vec table)
{
	calc_state st[LANES];
	uint64_t gw[4][LANES] = {{0}};
	for (int i = 0; i < n; i++) {
		calc_deal(&st[i], variant, decks[i]);
		for (int j = 0; j < 4; j++)
			gw[j][i] = gens[i].s[j];
	}
	lanes g;
	lanes_load(&g, st, n, table);
	vec s[4];
	for (int j = 0; j < 4; j++)
		s[j] = _mm512_loadu_si512(gw[j]);
	random_lanes(&g, s, table);
	random_batch rb = {variant, decks, gens};
	return lanes_outcomes(&g, n, out, random_replay, &rb);
}

/* The cascade's moves in the lanes of MANY: *B the move (as greedy_step
 * decodes it: 16p + 4k, or 4k for the hand), and the lanes of the tops'
 * moves (*TF) and of the hand's (*HAND, *HF) as chosen. */
static void cascade_moves(const lanes *g, __mmask8 many, vec *b, __mmask8 *tf, __mmask8 *hand,
			  __mmask8 *hf)
{
	uint64_t L[4][LANES], U[4][LANES], fw[LANES], nw[LANES], hw[LANES], npw[LANES], mv[LANES];
	for (int p = 0; p < 4; p++) {
		_mm512_storeu_si512(L[p], g->L[p]);
		_mm512_storeu_si512(U[p], g->U[p]);
	}
	_mm512_storeu_si512(fw, g->FOUND);
	_mm512_storeu_si512(nw, g->NEED);
	_mm512_storeu_si512(hw, g->H);
	_mm512_storeu_si512(npw, g->NP);
	__mmask8 up_hand = 0;
	for (int i = 0; i < LANES; i++) {
		if (!(many >> i & 1))
			continue;
		lane_piles w = {.np = (unsigned)npw[i]};
		for (int p = 0; p < 4; p++)
			w.L[p] = L[p][i], w.U[p] = U[p][i];
		unsigned m = words_choice(&w, fw[i], nw[i], (unsigned)hw[i]);
		mv[i] = m & 63;
		up_hand |= (__mmask8)((m >= 64) << i);
	}
	*b = _mm512_mask_loadu_epi64(*b, many, mv);
	*tf = (__mmask8)((*tf & ~many) | (many & ~up_hand));
	*hand = (__mmask8)((*hand & ~many) | up_hand);
	*hf = (__mmask8)((*hf & ~many) | up_hand);
}

/* The urgencies greedy_step reads, for the foundations of each lane. */
static inline vec lanes_urgency(const lanes *g, vec urg, __mmask8 m, const uint64_t *urg_tab)
{
	return _mm512_mask_i64gather_epi64(urg, m, _mm512_and_si512(g->FOUND, V(0xFFFF)), urg_tab, 8);
}

/* Greedy games, move for move as calc_greedy_playout: a top a foundation
 * needs (the first pile's, to the first foundation) goes up, else the
 * hand does, else the hand goes to the pile scored lowest: a top needed
 * no sooner than the hand scores 0, an empty pile 64, any other top 128,
 * plus the cards the pile holds that are needed sooner than the hand
 * (the first such pile on ties). With CASCADE (a constant), where two
 * or more moves up are open the cascade's (cascade_moves) is played. One
 * move in every lane whose game goes on; returns those lanes. */
STEP_INLINE __mmask8 greedy_step(lanes *g, vec *urgp, vec table, const uint64_t *urg_tab,
				 bool cascade)
{
	const vec F = V(0xF), ONE = V(1), LOW = V(0x0F0F0F0F0F0F0F0F);
	/* vpshufb indices copying byte 0 of each 64-bit lane to all eight */
	const vec BYTE0 = _mm512_set4_epi64(0x0808080808080808, 0, 0x0808080808080808, 0);
	vec urg = *urgp;
	vec z = top_moves(g), zh = hand_moves(g);
	__mmask8 live = (__mmask8)~g->bad;
	__mmask8 tf = _mm512_mask_test_epi64_mask(live, z, z);
	__mmask8 hand = _mm512_mask_test_epi64_mask(live & (__mmask8)~tf, g->H, g->H);
	__mmask8 hf = _mm512_mask_test_epi64_mask(hand, zh, zh), pl = hand & (__mmask8)~hf;
	if (!(tf | hand))
		return 0;
	vec b = lowest_bit(_mm512_mask_blend_epi64(tf, zh, z));
	if (cascade) {
		__mmask8 many = _mm512_mask_test_epi64_mask(live, z, _mm512_sub_epi64(z, ONE)) |
				_mm512_mask_test_epi64_mask(live, zh, _mm512_sub_epi64(zh, ONE)) |
				(tf & _mm512_test_epi64_mask(zh, zh));
		if (many)
			cascade_moves(g, many, &b, &tf, &hand, &hf);
	}
	/* The placement rule, pile by pile: the ranks needed sooner than
	 * the hand as two byte masks (even and odd nibbles of URG), and
	 * the cards of those ranks a pile holds summed from C by vpsadbw. */
	vec uc = _mm512_and_si512(_mm512_srlv_epi64(urg, _mm512_slli_epi64(g->H, 2)), F);
	vec ucb = _mm512_shuffle_epi8(uc, BYTE0);
	__mmask64 lte = _mm512_cmplt_epu8_mask(_mm512_and_si512(urg, LOW), ucb);
	__mmask64 lto = _mm512_cmplt_epu8_mask(_mm512_and_si512(_mm512_srli_epi64(urg, 4), LOW), ucb);
	vec to = V(0), to_score = V(-1);
	for (int p = 0; p < 4; p++) {
		vec top = _mm512_and_si512(g->L[p], F), pv = V(p);
		__mmask8 exists = _mm512_mask_cmplt_epu64_mask(pl, pv, g->NP);
		__mmask8 full = _mm512_mask_test_epi64_mask(exists, top, top);
		vec ut = _mm512_and_si512(_mm512_srlv_epi64(urg, _mm512_slli_epi64(top, 2)), F);
		vec c = g->C[p];
		vec covered = _mm512_add_epi8(_mm512_maskz_mov_epi8(lte, _mm512_and_si512(c, LOW)),
					      _mm512_maskz_mov_epi8(lto, _mm512_and_si512(_mm512_srli_epi64(c, 4), LOW)));
		vec score = _mm512_sad_epu8(covered, _mm512_setzero_si512());
		score = _mm512_mask_add_epi64(score, _mm512_mask_cmplt_epu64_mask(full, ut, uc), score, V(128));
		score = _mm512_mask_mov_epi64(score, exists & (__mmask8)~full, V(64));
		__mmask8 better = _mm512_mask_cmplt_epu64_mask(exists, score, to_score);
		to = _mm512_mask_mov_epi64(to, better, pv);
		to_score = _mm512_mask_mov_epi64(to_score, better, score);
	}
	piles_move(g, pl, to, tf, _mm512_srli_epi64(b, 4), true);
	turn(g, hand);
	advance(g, tf | hf, _mm512_and_si512(b, V(12)), table);
	*urgp = lanes_urgency(g, urg, tf | hf, urg_tab);
	g->STEPS = _mm512_mask_add_epi64(g->STEPS, tf | hand, g->STEPS, ONE);
	return tf | hand;
}

static void greedy_lanes(lanes *g, vec table)
{
	const uint64_t *urg_tab = urgency_table();
	vec urg = lanes_urgency(g, _mm512_setzero_si512(), 0xFF, urg_tab);
	while (greedy_step(g, &urg, table, urg_tab, false))
		;
}

static size_t greedy_batch8(const calc_state *states, int n, calcbatch_outcome *out, vec table)
{
	lanes g;
	lanes_load(&g, states, n, table);
	greedy_lanes(&g, table);
	return lanes_outcomes(&g, n, out, greedy_replay, states);
}

static size_t random_avx512(int variant, const uint8_t (*decks)[52], const rng *gens, size_t n,
			    calcbatch_outcome *out)
{
	size_t replayed = 0;
	vec table = need_table();
	for (size_t g = 0; g < n; g += LANES)
		replayed += random_batch8(variant, decks + g, gens + g,
					  n - g < LANES ? (int)(n - g) : LANES, out + g, table);
	return replayed;
}

static size_t greedy_avx512(const calc_state *states, size_t n, calcbatch_outcome *out)
{
	size_t replayed = 0;
	vec table = need_table();
	for (size_t g = 0; g < n; g += LANES)
		replayed += greedy_batch8(states + g, n - g < LANES ? (int)(n - g) : LANES, out + g, table);
	return replayed;
}

ISA_END

/* The AVX2 path: eight games, one per 32-bit lane of a 256-bit vector.
 * A lane has no room for 32-card piles as nibbles, so piles live in
 * memory, one 64-byte stack per lane and pile, and the vectors keep what
 * the move choice needs: each pile's top and the card below it (TOPS,
 * SECS: nibble p for pile p) and its length (LENS: byte p). A card goes
 * on a pile by eight scalar stores, one a lane (lanes moving nothing
 * write above their pile's top, where nothing is read), and the card
 * under a top comes back by a gather, needed only at that pile's next
 * foundation move. The next four stock cards wait in a vector (HN), a
 * gather refilling it every third move.
 *   FOUND, NEED  nibble k: cards on foundation k, the rank it needs (15
 *                once complete); NB[k]: that need in all four nibbles;
 *   H, HN, NEXT  the hand, the next stock cards (a byte each, the
 *                next lowest), the index of HN's first;
 *   NP, STEPS    waste piles, moves made; BAD: lanes given up.
 * Game j of a batch is lane LANE_OF[j], so that the generators' 64-bit
 * lanes (games 0-3 and 4-7) give their high halves in lane order with
 * one blend. */
ISA_BEGIN_AVX2

typedef __m256i v8;
#define S8(x) _mm256_set1_epi32((int)(x))
#define AND _mm256_and_si256
#define OR _mm256_or_si256
#define XOR _mm256_xor_si256
#define ANDNOT _mm256_andnot_si256 /* ~a & b */
#define BLEND(m, a, b) _mm256_blendv_epi8(a, b, m) /* m ? b : a */

static const int lane_of[8] = {0, 2, 4, 6, 1, 3, 5, 7};

typedef struct {
	uint8_t pad0[64];
	uint8_t stock[8][64];
	uint8_t pile[8][4][64]; /* card c (from 1) of a pile at byte c + 1 */
	uint8_t pad1[64];
} cards8;

/* The vectors apart from the cards: the compiler then knows the piles'
 * byte stores leave them alone and can keep them in registers. */
typedef struct {
	v8 H, HN, NEXT, TOPS, SECS, LENS, FOUND, NEED, NB[4], NP, STEPS, BAD;
	v8 G[4][2]; /* the generators: word j of games 0-3, 4-7 */
	cards8 *cards;
} lanes8;

static inline int any8(v8 m)
{
	return !_mm256_testz_si256(m, m);
}

/* Bit 4j for each nibble j (of four) of X that is 0. */
static inline v8 zero_nibbles16(v8 x)
{
	v8 a = OR(x, _mm256_srli_epi32(x, 1));
	a = OR(a, _mm256_srli_epi32(a, 2));
	return ANDNOT(a, S8(0x1111));
}

/* The sum of the four nibbles of X, each at most 8. */
static inline v8 nibble_sum16(v8 x)
{
	v8 t = _mm256_add_epi32(x, _mm256_srli_epi32(x, 8));
	return _mm256_add_epi32(AND(t, S8(0xF)), AND(_mm256_srli_epi32(t, 4), S8(0xF)));
}

static inline v8 times_1111(v8 x)
{
	v8 t = OR(x, _mm256_slli_epi32(x, 4));
	return OR(t, _mm256_slli_epi32(t, 8));
}

/* The needs of foundation K (one table each, both 128-bit halves) of
 * the counts CARDS: byte 0 of each lane indexes its table. */
static inline v8 need_of(const v8 tab[4], v8 k, v8 cards)
{
	v8 need = S8(0);
#pragma GCC unroll 4
	for (int j = 0; j < 4; j++)
		need = BLEND(_mm256_cmpeq_epi32(k, S8(j)), need, _mm256_shuffle_epi8(tab[j], cards));
	return AND(need, S8(0xFF));
}

static void need_tables(v8 tab[4])
{
	for (int k = 0; k < 4; k++) {
		uint8_t t[32];
		memset(t, 15, sizeof t);
		memcpy(t, calc_needs[k], 13);
		memcpy(t + 16, calc_needs[k], 13);
		tab[k] = _mm256_loadu_si256((const v8 *)t);
	}
}

/* HN: the stock's cards NEXT to NEXT + 3 (0 past the end). */
static inline void refill8(lanes8 *g)
{
	static const int stock_base[8] = {0, 64, 128, 192, 256, 320, 384, 448};
	v8 at = _mm256_add_epi32(_mm256_loadu_si256((const v8 *)stock_base), g->NEXT);
	g->HN = _mm256_i32gather_epi32((const int *)&g->cards->stock[0][0], at, 1);
}

/* The N deals (the rest hold no game) with their first card turned. */
static void lanes8_load(lanes8 *g, int variant, const uint8_t (*decks)[52], const rng *gens, int n,
			const v8 tab[4])
{
	int ncards = calc_stock_size(variant);
	uint32_t h[8] = {0}, np[8] = {0}, found[8] = {0};
	uint64_t gw[4][8] = {{0}};
	memset(g->cards->stock, 0, sizeof g->cards->stock);
	for (int j = 0; j < n; j++) {
		int q = lane_of[j];
		memcpy(g->cards->stock[q], decks[j], (size_t)ncards);
		h[q] = decks[j][0];
		np[q] = variant & CALC_THREE ? 3 : 4;
		found[q] = variant & CALC_NOFOUND ? 0 : 0x1111;
		for (int w = 0; w < 4; w++)
			gw[w][j] = gens[j].s[w];
	}
	for (int q = 0; q < 8; q++)
		for (int p = 0; p < 4; p++)
			g->cards->pile[q][p][0] = g->cards->pile[q][p][1] = 0;
	g->H = _mm256_loadu_si256((const v8 *)h);
	g->NP = _mm256_loadu_si256((const v8 *)np);
	g->FOUND = _mm256_loadu_si256((const v8 *)found);
	g->NEXT = S8(1);
	refill8(g);
	g->TOPS = g->SECS = g->LENS = g->STEPS = S8(0);
	g->BAD = S8(0);
	g->NEED = S8(0);
	for (int k = 0; k < 4; k++) {
		v8 cards = AND(_mm256_srli_epi32(g->FOUND, 4 * k), S8(0xF));
		v8 need = need_of(tab, S8(k), cards);
		g->NEED = OR(g->NEED, _mm256_slli_epi32(need, 4 * k));
		g->NB[k] = times_1111(need);
	}
	for (int w = 0; w < 4; w++)
		for (int half = 0; half < 2; half++)
			g->G[w][half] = _mm256_loadu_si256((const v8 *)&gw[w][4 * half]);
}

static inline v8 rotl64(v8 x, int r)
{
	return OR(_mm256_slli_epi64(x, r), _mm256_srli_epi64(x, 64 - r));
}

/* One output of each lane's generator (rng_next): its high 32 bits. */
static inline v8 draw8(lanes8 *g)
{
	v8 out[2];
#pragma GCC unroll 2
	for (int h = 0; h < 2; h++) {
		v8 *s0 = &g->G[0][h], *s1 = &g->G[1][h], *s2 = &g->G[2][h], *s3 = &g->G[3][h];
		v8 a = rotl64(_mm256_add_epi64(*s1, _mm256_slli_epi64(*s1, 2)), 7);
		out[h] = _mm256_add_epi64(a, _mm256_slli_epi64(a, 3));
		v8 t = _mm256_slli_epi64(*s1, 17);
		*s2 = XOR(*s2, *s0);
		*s3 = XOR(*s3, *s1);
		*s1 = XOR(*s1, *s2);
		*s0 = XOR(*s0, *s3);
		*s2 = XOR(*s2, t);
		*s3 = rotl64(*s3, 45);
	}
	/* Games 0-3 to the even lanes, 4-7 to the odd ones. */
	return _mm256_blend_epi32(_mm256_srli_epi64(out[0], 32), out[1], 0xAA);
}

/* The position of the lowest set bit of each lane of W (W != 0, below
 * 2^24): exact as a float's exponent. */
static inline v8 lowest_bit8(v8 w)
{
	v8 low = AND(w, _mm256_sub_epi32(S8(0), w));
	v8 f = _mm256_castps_si256(_mm256_cvtepi32_ps(low));
	return _mm256_sub_epi32(_mm256_srli_epi32(f, 23), S8(127));
}

/* The hand onto pile P in the lanes of PUSH, the top of pile P to a
 * foundation in the lanes of POP (P is 0..3 in every lane); returns the
 * top pile P had. */
static inline v8 piles8(lanes8 *g, v8 push, v8 pop, v8 p)
{
	v8 sh4 = _mm256_slli_epi32(p, 2), sh8 = _mm256_slli_epi32(p, 3);
	v8 len = AND(_mm256_srlv_epi32(g->LENS, sh8), S8(0xFF));
	v8 top = AND(_mm256_srlv_epi32(g->TOPS, sh4), S8(0xF));
	v8 sec = AND(_mm256_srlv_epi32(g->SECS, sh4), S8(0xF));
	static const int lane_base[8] = {0, 256, 512, 768, 1024, 1280, 1536, 1792};
	v8 at = _mm256_add_epi32(_mm256_loadu_si256((const v8 *)lane_base),
				 _mm256_add_epi32(_mm256_slli_epi32(p, 6), len));
	uint32_t where[8], hand[8];
	_mm256_storeu_si256((v8 *)where, at);
	_mm256_storeu_si256((v8 *)hand, g->H);
	uint8_t *base = &g->cards->pile[0][0][0];
#pragma GCC unroll 8
	for (int q = 0; q < 8; q++)
		base[where[q] + 2] = (uint8_t)hand[q];
	/* The card under the new top: card len - 2, at byte len - 1, the
	 * high byte of a word that ends below the byte just stored (a load
	 * overlapping a store in flight waits for it to reach the cache). */
	v8 under = _mm256_srli_epi32(_mm256_i32gather_epi32((const int *)(base - 4), at, 1), 24);
	v8 ntop = BLEND(push, BLEND(pop, top, sec), g->H);
	v8 nsec = BLEND(push, BLEND(pop, sec, under), top);
	v8 delta = _mm256_sub_epi32(AND(push, S8(1)), AND(pop, S8(1)));
	g->LENS = _mm256_add_epi32(g->LENS, _mm256_sllv_epi32(delta, sh8));
	v8 keep = ANDNOT(_mm256_sllv_epi32(S8(0xF), sh4), S8(-1));
	g->TOPS = OR(AND(g->TOPS, keep), _mm256_sllv_epi32(ntop, sh4));
	g->SECS = OR(AND(g->SECS, keep), _mm256_sllv_epi32(nsec, sh4));
	return top;
}

/* Foundation K takes a card in the lanes of M. */
static inline void advance8(lanes8 *g, v8 m, v8 k, const v8 tab[4])
{
	v8 sh = _mm256_slli_epi32(k, 2);
	g->FOUND = _mm256_add_epi32(g->FOUND, AND(m, _mm256_sllv_epi32(S8(1), sh)));
	v8 cards = AND(_mm256_srlv_epi32(g->FOUND, sh), S8(0xF));
	v8 need = need_of(tab, k, cards);
	v8 kept = ANDNOT(_mm256_sllv_epi32(S8(0xF), sh), g->NEED);
	g->NEED = BLEND(m, g->NEED, OR(kept, _mm256_sllv_epi32(need, sh)));
	v8 nb = times_1111(need);
#pragma GCC unroll 4
	for (int j = 0; j < 4; j++)
		g->NB[j] = BLEND(AND(m, _mm256_cmpeq_epi32(k, S8(j))), g->NB[j], nb);
}

/* The next card into the hand in the lanes of M. HN holds four cards,
 * so the loops refill it every third move, after the turns. */
static inline void turn8(lanes8 *g, v8 m)
{
	g->H = BLEND(m, g->H, AND(g->HN, S8(0xFF)));
	g->HN = BLEND(m, g->HN, _mm256_srli_epi32(g->HN, 8));
	g->NEXT = _mm256_min_epi32(_mm256_sub_epi32(g->NEXT, m), S8(60));
}

/* One move of each random game of G still going, move for move as
 * calc_random_playout (see random_lanes for the order of the moves);
 * false when none is. *REFILL counts the moves to HN's next refill. */
static inline bool random_move8(lanes8 *g, const v8 tab[4], int *refill)
{
	const v8 ONE = S8(1), ZERO = S8(0);
	v8 zh = zero_nibbles16(XOR(g->NEED, times_1111(g->H)));
	v8 m[4], z = ZERO, sum = ZERO;
#pragma GCC unroll 4
	for (int k = 0; k < 4; k++) {
		m[k] = zero_nibbles16(XOR(g->TOPS, g->NB[k]));
		/* Empty piles' tops (0) match no need. */
		z = OR(z, _mm256_slli_epi32(m[k], k));
		sum = _mm256_add_epi32(sum, m[k]);
	}
	v8 nh = nibble_sum16(zh);
	v8 hand = ANDNOT(_mm256_cmpeq_epi32(g->H, ZERO), S8(-1));
	v8 nhp = _mm256_add_epi32(nh, AND(hand, g->NP));
	v8 nm = _mm256_add_epi32(nhp, nibble_sum16(sum));
	v8 act = ANDNOT(g->BAD, _mm256_cmpgt_epi32(nm, ZERO));
	if (!any8(act))
		return false;
	/* rng_below32: the high half of the product; one whose low half
	 * is below nm might be rejected, which the replay settles. */
	v8 r = draw8(g);
	v8 pe = _mm256_mul_epu32(r, nm);
	v8 po = _mm256_mul_epu32(_mm256_srli_epi64(r, 32), _mm256_srli_epi64(nm, 32));
	v8 i = _mm256_blend_epi32(_mm256_srli_epi64(pe, 32), po, 0xAA);
	v8 lo = _mm256_blend_epi32(pe, _mm256_slli_epi64(po, 32), 0xAA);
	v8 doubt = ANDNOT(_mm256_cmpeq_epi32(_mm256_max_epu32(lo, nm), lo), act);
	g->BAD = OR(g->BAD, doubt);
	act = ANDNOT(doubt, act);
	v8 hf = AND(act, _mm256_cmpgt_epi32(nh, i));
	v8 hp = ANDNOT(hf, AND(act, _mm256_cmpgt_epi32(nhp, i)));
	v8 tf = ANDNOT(OR(hf, hp), act), fm = OR(hf, tf);
	/* The foundation move's bit: skip C set bits of W. Up to three
	 * are cleared without a branch (a branch on whether any lane
	 * skips would be mispredicted often); more, seldom, by a loop. */
	v8 w = BLEND(hf, z, zh);
	v8 c = BLEND(hf, _mm256_sub_epi32(i, nhp), i);
	v8 w1 = AND(w, _mm256_sub_epi32(w, ONE));
	v8 w2 = AND(w1, _mm256_sub_epi32(w1, ONE));
	v8 w3 = AND(w2, _mm256_sub_epi32(w2, ONE));
	v8 skip = AND(_mm256_cmpgt_epi32(c, S8(3)), fm);
	w = BLEND(AND(_mm256_cmpeq_epi32(c, ONE), fm), w, w1);
	w = BLEND(AND(_mm256_cmpeq_epi32(c, S8(2)), fm), w, w2);
	w = BLEND(AND(_mm256_cmpeq_epi32(c, S8(3)), fm), w, w3);
	if (any8(skip)) {
		w = BLEND(skip, w, w3);
		c = _mm256_sub_epi32(c, AND(skip, S8(3)));
		do {
			w = BLEND(skip, w, AND(w, _mm256_sub_epi32(w, ONE)));
			c = _mm256_add_epi32(c, skip); /* skip is -1 */
			skip = ANDNOT(_mm256_cmpeq_epi32(c, ZERO), skip);
		} while (any8(skip));
	}
	v8 b = lowest_bit8(w);
	v8 k = BLEND(hf, AND(b, S8(3)), _mm256_srli_epi32(b, 2));
	v8 p = AND(BLEND(hp, _mm256_srli_epi32(b, 2), _mm256_sub_epi32(i, nh)), S8(3));
	piles8(g, hp, tf, p);
	turn8(g, OR(hf, hp));
	if (--*refill == 0) {
		refill8(g);
		*refill = 3;
	}
	advance8(g, fm, AND(k, S8(3)), tab);
	g->STEPS = _mm256_sub_epi32(g->STEPS, act);
	return true;
}

/* The games of N batches (1 or 2) to their ends. Two batches' moves
 * alternate, so that the processor overlaps two independent chains of
 * dependent vector operations where one batch alone leaves it idle. */
static void random_lanes8(lanes8 *g, int n, const v8 tab[4])
{
	int refill[2] = {3, 3};
	bool live[2] = {true, n > 1};
	while (live[0] || live[1])
		for (int h = 0; h < 2; h++)
			if (live[h])
				live[h] = random_move8(&g[h], tab, &refill[h]);
}

/* The outcomes of the first N games; a lane given up is played again by
 * REPLAY(ctx, j). Returns how many were. */
static size_t lanes8_outcomes(const lanes8 *g, int n, calcbatch_outcome *out,
			      calcbatch_outcome (*replay)(const void *ctx, int i), const void *ctx)
{
	uint32_t found[8], steps[8], bad[8];
	_mm256_storeu_si256((v8 *)found, g->FOUND);
	_mm256_storeu_si256((v8 *)steps, g->STEPS);
	_mm256_storeu_si256((v8 *)bad, g->BAD);
	size_t replayed = 0;
	for (int j = 0; j < n; j++) {
		int q = lane_of[j];
		if (bad[q]) {
			out[j] = replay(ctx, j);
			replayed++;
			continue;
		}
		out[j] = lane_outcome(found[q], steps[q]);
	}
	return replayed;
}

static size_t random_avx2(int variant, const uint8_t (*decks)[52], const rng *gens, size_t n,
			  calcbatch_outcome *out)
{
	static _Thread_local cards8 cards[2];
	lanes8 g[2] = {{.cards = &cards[0]}, {.cards = &cards[1]}};
	v8 tab[4];
	need_tables(tab);
	size_t replayed = 0;
	for (size_t b = 0; b < n; b += 16) {
		int m[2] = {0, 0}, sets = 0;
		for (; sets < 2 && b + 8 * (size_t)sets < n; sets++) {
			size_t at = b + 8 * (size_t)sets;
			m[sets] = n - at < 8 ? (int)(n - at) : 8;
			lanes8_load(&g[sets], variant, decks + at, gens + at, m[sets], tab);
		}
		random_lanes8(g, sets, tab);
		for (int h = 0; h < sets; h++) {
			size_t at = b + 8 * (size_t)h;
			random_batch rb = {variant, decks + at, gens + at};
			replayed += lanes8_outcomes(&g[h], m[h], out + at, random_replay, &rb);
		}
	}
	return replayed;
}
/* Shuffles four decks at once as shuffle16 does (calc_shuffle, and
 * calc_resample's draw of the unseen cards), the rest one by one: a
 * 64-bit lane draws one deck's numbers as rng_next, each output four
 * 16-bit swap indices as shuffle16 takes them (draw d of a deck of N
 * cards: bound N - d, swapping card N - 1 - d). A product whose low half
 * falls below 65536 mod the bound would be rejected by shuffle16, so that
 * deck's numbers shift: it is shuffled again by shuffle16 itself. */
enum { SHUF_OUTS = 13 }; /* generator outputs for 51 swaps */
typedef struct {
	v8 bound[SHUF_OUTS], reject_below[SHUF_OUTS];
	int nout, ncards;
} shuffle_plan;

/* The plan for decks of NCARDS cards (at most 52). */
static void shuffle_plan_make(shuffle_plan *pl, int ncards)
{
	pl->ncards = ncards;
	pl->nout = (pl->ncards - 1 + 3) / 4;
	for (int r = 0; r < pl->nout; r++) {
		uint16_t b[16], t[16];
		for (int k = 0; k < 16; k++) {
			int d = 4 * r + k % 4, bound = d < pl->ncards - 1 ? pl->ncards - d : 0;
			b[k] = (uint16_t)bound;
			t[k] = (uint16_t)(bound ? 65536 % bound : 0);
		}
		pl->bound[r] = _mm256_loadu_si256((const v8 *)b);
		pl->reject_below[r] = _mm256_loadu_si256((const v8 *)t);
	}
}

/* DECKS[g] (g < N) becomes SORTED (52 bytes, the cards then zeros) in
 * the order GENS[g] draws, and GENS[g] is left as shuffle16 leaves it. */
static void shuffle4(const shuffle_plan *pl, const uint8_t *sorted, rng *gens, int n,
		     uint8_t (*decks)[52])
{
	uint64_t w[4][4];
	for (int k = 0; k < 4; k++)
		for (int g = 0; g < 4; g++)
			w[k][g] = gens[g < n ? g : 0].s[k];
	v8 s0 = _mm256_loadu_si256((const v8 *)w[0]), s1 = _mm256_loadu_si256((const v8 *)w[1]);
	v8 s2 = _mm256_loadu_si256((const v8 *)w[2]), s3 = _mm256_loadu_si256((const v8 *)w[3]);
	uint16_t j[SHUF_OUTS][16]; /* draw 4r + t of deck g: j[r][4g + t] */
	v8 doubt = S8(0);
	for (int r = 0; r < pl->nout; r++) {
		v8 a = rotl64(_mm256_add_epi64(s1, _mm256_slli_epi64(s1, 2)), 7);
		v8 x = _mm256_add_epi64(a, _mm256_slli_epi64(a, 3));
		v8 t = _mm256_slli_epi64(s1, 17);
		s2 = XOR(s2, s0);
		s3 = XOR(s3, s1);
		s1 = XOR(s1, s2);
		s0 = XOR(s0, s3);
		s2 = XOR(s2, t);
		s3 = rotl64(s3, 45);
		_mm256_storeu_si256((v8 *)j[r], _mm256_mulhi_epu16(x, pl->bound[r]));
		doubt = OR(doubt, _mm256_subs_epu16(pl->reject_below[r], _mm256_mullo_epi16(x, pl->bound[r])));
	}
	_mm256_storeu_si256((v8 *)w[0], s0);
	_mm256_storeu_si256((v8 *)w[1], s1);
	_mm256_storeu_si256((v8 *)w[2], s2);
	_mm256_storeu_si256((v8 *)w[3], s3);
	/* The four decks' swaps side by side, independent chains of loads
	 * and stores. Draws past the last (bound 0) swap card 0 with itself. */
	uint8_t deck[4][52];
	for (int g = 0; g < 4; g++)
		memcpy(deck[g], sorted, 52);
	for (int r = 0; r < pl->nout; r++)
#pragma GCC unroll 4
		for (int t = 0; t < 4; t++) {
			int i = pl->ncards - 1 - 4 * r - t;
			i = i > 0 ? i : 0;
#pragma GCC unroll 4
			for (int g = 0; g < 4; g++) {
				int at = j[r][4 * g + t];
				uint8_t c = deck[g][i];
				deck[g][i] = deck[g][at];
				deck[g][at] = c;
			}
		}
	int redo = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(doubt, S8(0)))) ^ 15;
	for (int g = 0; g < n; g++) {
		if (redo >> g & 1) {
			memcpy(decks[g], sorted, 52);
			calc_shuffle_unseen(decks[g], pl->ncards, &gens[g]);
			continue;
		}
		for (int k = 0; k < 4; k++)
			gens[g].s[k] = w[k][g];
		memcpy(decks[g], deck[g], 52);
	}
}

static void shuffle_avx2(int variant, rng *gens, size_t n, uint8_t (*decks)[52])
{
	shuffle_plan pl;
	shuffle_plan_make(&pl, calc_stock_size(variant));
	const uint8_t *sorted = calc_sorted_stock(variant);
	for (size_t b = 0; b < n; b += 4)
		shuffle4(&pl, sorted, gens + b, n - b < 4 ? (int)(n - b) : 4, decks + b);
}

/* The stocks of calcbatch_resampled's games in game order: game k's is
 * the position's unseen cards in the order stream (KEY, FROM + k) draws
 * (as calc_resample draws it), four games shuffled at a time. */
typedef struct {
	shuffle_plan plan;
	uint8_t sorted[52]; /* the unseen cards by rank, then zeros */
	uint8_t deck[4][52];
	uint64_t key, from;
	size_t next; /* the game of deck[at] */
	int at, ready;
} stocks;

static void stocks_init(stocks *st, const calc_state *s, uint64_t key, uint64_t from)
{
	memset(st->sorted, 0, sizeof st->sorted);
	shuffle_plan_make(&st->plan, calc_unseen_by_rank(s, st->sorted));
	st->key = key;
	st->from = from;
	st->next = 0;
	st->at = st->ready = 0;
}

/* The next game's stock into OUT (52 bytes); returns the game. */
static size_t stocks_take(stocks *st, uint8_t *out)
{
	if (st->at == st->ready) {
		rng gens[4];
		for (int g = 0; g < 4; g++)
			rng_stream(&gens[g], st->key, st->from + st->next + (size_t)g);
		shuffle4(&st->plan, st->sorted, gens, 4, st->deck);
		st->at = 0;
		st->ready = 4;
	}
	memcpy(out, st->deck[st->at++], 52);
	return st->next++;
}

/* Game K's outcome, from its lane's FOUND and STEPS words, or played
 * again by the scalar playout from S (with the cascade when CASCADE says)
 * when the lane gave it up (BAD, counted in *REPLAYED). */
static calcbatch_outcome feed_outcome(const calc_state *s, const stocks *st, size_t k, bool bad,
				      bool cascade, uint64_t found, uint64_t steps, size_t *replayed)
{
	if (!bad)
		return lane_outcome(found, steps);
	calc_state c = resampled(s, st->key, st->from, k);
	++*replayed;
	return rule_one(&c, cascade);
}

/* Greedy: also each pile's cards of each rank, CL[p] and CH[p] nibble r
 * for ranks 0-7 and 8-15 (at most four a rank), and every rank's
 * urgency, URG[0] and URG[1] the same way, gathered from the urgency
 * table after foundation moves. */
typedef struct {
	v8 CL[4], CH[4], URG[2];
} counts8;

/* Nibble R of the pair of words (LO: ranks 0-7, HI: 8-15). */
static inline v8 nibble_of(const v8 w[2], v8 r)
{
	v8 sh = _mm256_slli_epi32(r, 2);
	v8 lo = _mm256_srlv_epi32(w[0], sh), hi = _mm256_srlv_epi32(w[1], _mm256_sub_epi32(sh, S8(32)));
	return AND(OR(lo, hi), S8(0xF));
}

/* The nibbles at bytes' low (LOW) or high halves, where LT has 0xFF. */
static inline v8 masked_bytes(v8 w, v8 lt_even, v8 lt_odd)
{
	const v8 M = S8(0x0F0F0F0F);
	return _mm256_add_epi8(AND(AND(w, M), lt_even), AND(AND(_mm256_srli_epi32(w, 4), M), lt_odd));
}

static void counts8_load(counts8 *c, const calc_state *st, int n, const uint64_t *urg_tab, v8 found)
{
	uint32_t cl[4][8] = {{0}}, ch[4][8] = {{0}};
	for (int j = 0; j < n; j++) {
		int q = lane_of[j];
		for (int p = 0; p < st[j].npiles; p++)
			for (int i = 0; i < st[j].len[p]; i++) {
				int r = st[j].pile[p][i];
				if (r < 8)
					cl[p][q] += 1u << 4 * r;
				else
					ch[p][q] += 1u << 4 * (r - 8);
			}
	}
	for (int p = 0; p < 4; p++) {
		c->CL[p] = _mm256_loadu_si256((const v8 *)cl[p]);
		c->CH[p] = _mm256_loadu_si256((const v8 *)ch[p]);
	}
	v8 idx = _mm256_slli_epi32(AND(found, S8(0xFFFF)), 1);
	c->URG[0] = _mm256_i32gather_epi32((const int *)urg_tab, idx, 4);
	c->URG[1] = _mm256_i32gather_epi32((const int *)urg_tab + 1, idx, 4);
}

/* The lanes of the N states, as lanes8_load deals. */
static void lanes8_load_states(lanes8 *g, const calc_state *st, int n, const v8 tab[4])
{
	uint32_t h[8] = {0}, np[8] = {0}, found[8] = {0}, steps[8] = {0}, tops[8] = {0},
		 secs[8] = {0}, lens[8] = {0};
	memset(g->cards->stock, 0, sizeof g->cards->stock);
	for (int j = 0; j < n; j++) {
		calc_state s = st[j];
		calc_turn(&s);
		int q = lane_of[j];
		memcpy(g->cards->stock[q], s.stock + s.next, (size_t)(s.ncards - s.next));
		h[q] = s.hand;
		np[q] = s.npiles;
		steps[q] = s.steps;
		for (int k = 0; k < 4; k++)
			found[q] |= (uint32_t)s.found[k] << 4 * k;
		for (int p = 0; p < 4; p++) {
			int len = p < s.npiles ? s.len[p] : 0;
			g->cards->pile[q][p][0] = g->cards->pile[q][p][1] = 0;
			memcpy(&g->cards->pile[q][p][2], s.pile[p], (size_t)len);
			lens[q] |= (uint32_t)len << 8 * p;
			tops[q] |= (uint32_t)(len ? s.pile[p][len - 1] : 0) << 4 * p;
			secs[q] |= (uint32_t)(len > 1 ? s.pile[p][len - 2] : 0) << 4 * p;
		}
	}
	for (int q = 0; q < 8; q++)
		if (!np[q])
			for (int p = 0; p < 4; p++)
				g->cards->pile[q][p][0] = g->cards->pile[q][p][1] = 0;
	g->H = _mm256_loadu_si256((const v8 *)h);
	g->NP = _mm256_loadu_si256((const v8 *)np);
	g->FOUND = _mm256_loadu_si256((const v8 *)found);
	g->STEPS = _mm256_loadu_si256((const v8 *)steps);
	g->TOPS = _mm256_loadu_si256((const v8 *)tops);
	g->SECS = _mm256_loadu_si256((const v8 *)secs);
	g->LENS = _mm256_loadu_si256((const v8 *)lens);
	g->NEXT = S8(0);
	refill8(g);
	g->BAD = S8(0);
	g->NEED = S8(0);
	for (int k = 0; k < 4; k++) {
		v8 cards = AND(_mm256_srli_epi32(g->FOUND, 4 * k), S8(0xF));
		v8 need = need_of(tab, S8(k), cards);
		g->NEED = OR(g->NEED, _mm256_slli_epi32(need, 4 * k));
		g->NB[k] = times_1111(need);
	}
}

/* Where greedy puts the hand (the lanes of PL): the pile scored lowest,
 * as greedy_lanes scores them. */
static inline v8 place8(const lanes8 *g, const counts8 *c, v8 pl)
{
	v8 uc = nibble_of(c->URG, g->H);
	v8 ucb = _mm256_mullo_epi32(uc, S8(0x01010101));
	const v8 M = S8(0x0F0F0F0F);
	v8 lte[2], lto[2];
	for (int h = 0; h < 2; h++) {
		lte[h] = _mm256_cmpgt_epi8(ucb, AND(c->URG[h], M));
		lto[h] = _mm256_cmpgt_epi8(ucb, AND(_mm256_srli_epi32(c->URG[h], 4), M));
	}
	v8 to = S8(0), to_score = S8(0x7FFFFFFF);
	for (int p = 0; p < 4; p++) {
		v8 top = AND(_mm256_srli_epi32(g->TOPS, 4 * p), S8(0xF));
		v8 exists = AND(pl, _mm256_cmpgt_epi32(g->NP, S8(p)));
		v8 full = ANDNOT(_mm256_cmpeq_epi32(top, S8(0)), exists);
		v8 ut = nibble_of(c->URG, top);
		v8 bytes = _mm256_add_epi8(masked_bytes(c->CL[p], lte[0], lto[0]), masked_bytes(c->CH[p], lte[1], lto[1]));
		v8 score = _mm256_madd_epi16(_mm256_maddubs_epi16(bytes, _mm256_set1_epi8(1)), _mm256_set1_epi16(1));
		score = _mm256_add_epi32(score, AND(AND(full, _mm256_cmpgt_epi32(uc, ut)), S8(128)));
		score = BLEND(ANDNOT(full, exists), score, S8(64));
		v8 better = AND(exists, _mm256_cmpgt_epi32(to_score, score));
		to = BLEND(better, to, S8(p));
		to_score = BLEND(better, to_score, score);
	}
	return to;
}

/* Adds SIGN (1 or -1) to the count of rank R on pile P in the lanes of M. */
static inline void count8(counts8 *c, v8 m, v8 p, v8 r, int sign)
{
	v8 sh = _mm256_slli_epi32(r, 2);
	v8 dl = _mm256_sllv_epi32(S8(1), sh), dh = _mm256_sllv_epi32(S8(1), _mm256_sub_epi32(sh, S8(32)));
	for (int j = 0; j < 4; j++) {
		v8 mj = AND(m, _mm256_cmpeq_epi32(p, S8(j)));
		if (sign > 0) {
			c->CL[j] = _mm256_add_epi32(c->CL[j], AND(mj, dl));
			c->CH[j] = _mm256_add_epi32(c->CH[j], AND(mj, dh));
		} else {
			c->CL[j] = _mm256_sub_epi32(c->CL[j], AND(mj, dl));
			c->CH[j] = _mm256_sub_epi32(c->CH[j], AND(mj, dh));
		}
	}
}

/* The lanes of a vector mask, as bits, and back. */
static inline unsigned lanes8_bits(v8 m)
{
	return (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(m));
}

static inline v8 lanes8_of(unsigned bits)
{
	const v8 bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
	return _mm256_cmpeq_epi32(AND(S8(bits), bit), bit);
}

/* The cascade's moves in the lanes of MANY (bits), as cascade_moves on
 * the AVX-512 lanes: *B the move as greedy_step8 decodes it (4p + k for
 * pile p's top, 4k for the hand), the lanes of the tops' and the hand's
 * moves as chosen. */
static void cascade_moves8(lanes8 *g, unsigned many, v8 *b, v8 *tf, v8 *hand, v8 *hf)
{
	uint32_t mv[8], fw[8], nw[8], hw[8], npw[8], lens[8];
	_mm256_storeu_si256((v8 *)mv, *b);
	_mm256_storeu_si256((v8 *)fw, g->FOUND);
	_mm256_storeu_si256((v8 *)nw, g->NEED);
	_mm256_storeu_si256((v8 *)hw, g->H);
	_mm256_storeu_si256((v8 *)npw, g->NP);
	_mm256_storeu_si256((v8 *)lens, g->LENS);
	unsigned up_hand = 0;
	for (int q = 0; q < 8; q++) {
		if (!(many >> q & 1))
			continue;
		lane_piles w = {.np = npw[q], .bytes = true};
		for (unsigned p = 0; p < 4; p++) {
			w.len[p] = lens[q] >> 8 * p & 0xFF;
			w.top[p] = &g->cards->pile[q][p][w.len[p] + 1]; /* card len at byte len + 1 */
		}
		unsigned m = words_choice(&w, fw[q], nw[q], hw[q]);
		mv[q] = m >= 64 ? m & 15 : (m >> 4) * 4 + (m >> 2 & 3);
		up_hand |= (m >= 64) << q;
	}
	v8 in = lanes8_of(many), h = lanes8_of(up_hand);
	*b = BLEND(in, *b, _mm256_loadu_si256((const v8 *)mv));
	*tf = BLEND(in, *tf, ANDNOT(h, in));
	*hand = BLEND(in, *hand, h);
	*hf = BLEND(in, *hf, h);
}

/* One move of each greedy game still going, move for move as
 * greedy_step (with CASCADE, a constant, the cascade's moves up as
 * there); returns the lanes that moved. *REFILL counts the moves to HN's
 * next refill. */
STEP_INLINE v8 greedy_step8(lanes8 *g, counts8 *c, const v8 tab[4], const uint64_t *urg_tab,
			    int *refill, bool cascade)
{
	const v8 ZERO = S8(0);
	v8 zh = zero_nibbles16(XOR(g->NEED, times_1111(g->H)));
	v8 z = ZERO;
	for (int k = 0; k < 4; k++)
		z = OR(z, _mm256_slli_epi32(zero_nibbles16(XOR(g->TOPS, g->NB[k])), k));
	v8 live = ANDNOT(g->BAD, S8(-1));
	v8 tf = ANDNOT(_mm256_cmpeq_epi32(z, ZERO), live);
	v8 hand = ANDNOT(OR(tf, _mm256_cmpeq_epi32(g->H, ZERO)), live);
	v8 hf = ANDNOT(_mm256_cmpeq_epi32(zh, ZERO), hand), pl = ANDNOT(hf, hand);
	if (!any8(OR(tf, hand)))
		return ZERO;
	v8 b = lowest_bit8(BLEND(tf, zh, z));
	if (cascade) {
		v8 one = S8(1), no_z = _mm256_cmpeq_epi32(z, ZERO), no_zh = _mm256_cmpeq_epi32(zh, ZERO);
		v8 two_z = ANDNOT(_mm256_cmpeq_epi32(AND(z, _mm256_sub_epi32(z, one)), ZERO), live);
		v8 two_zh = ANDNOT(_mm256_cmpeq_epi32(AND(zh, _mm256_sub_epi32(zh, one)), ZERO), live);
		v8 both = ANDNOT(OR(no_z, no_zh), live);
		unsigned many = lanes8_bits(OR(OR(two_z, two_zh), both));
		if (many)
			cascade_moves8(g, many, &b, &tf, &hand, &hf);
	}
	v8 k = AND(BLEND(tf, _mm256_srli_epi32(b, 2), b), S8(3));
	v8 to = place8(g, c, pl);
	v8 p = AND(BLEND(pl, _mm256_srli_epi32(b, 2), to), S8(3));
	count8(c, pl, p, g->H, 1);
	v8 top = piles8(g, pl, tf, p);
	count8(c, tf, p, top, -1);
	turn8(g, hand);
	if (--*refill == 0) {
		refill8(g);
		*refill = 3;
	}
	v8 fm = OR(tf, hf);
	advance8(g, fm, k, tab);
	v8 idx = _mm256_slli_epi32(AND(g->FOUND, S8(0xFFFF)), 1);
	c->URG[0] = _mm256_mask_i32gather_epi32(c->URG[0], (const int *)urg_tab, idx, fm, 4);
	c->URG[1] = _mm256_mask_i32gather_epi32(c->URG[1], (const int *)urg_tab + 1, idx, fm, 4);
	g->STEPS = _mm256_sub_epi32(g->STEPS, OR(tf, hand));
	return OR(tf, hand);
}

/* Greedy games, move for move as greedy_lanes. */
static void greedy_lanes8(lanes8 *g, counts8 *c, const v8 tab[4], const uint64_t *urg_tab)
{
	int refill = 3;
	while (any8(greedy_step8(g, c, tab, urg_tab, &refill, false)))
		;
}

static size_t greedy_avx2(const calc_state *states, size_t n, calcbatch_outcome *out)
{
	static _Thread_local cards8 cards;
	lanes8 g = {.cards = &cards};
	counts8 c;
	v8 tab[4];
	need_tables(tab);
	const uint64_t *urg_tab = urgency_table();
	size_t replayed = 0;
	for (size_t b = 0; b < n; b += 8) {
		int m = n - b < 8 ? (int)(n - b) : 8;
		lanes8_load_states(&g, states + b, m, tab);
		counts8_load(&c, states + b, m, urg_tab, g.FOUND);
		greedy_lanes8(&g, &c, tab, urg_tab);
		replayed += lanes8_outcomes(&g, m, out + b, greedy_replay, states + b);
	}
	return replayed;
}

/* calcbatch_resampled on the AVX2 lanes, as on the AVX-512 ones (feed):
 * the position loaded once, as START, C0 and its piles (PILE), and a lane
 * whose game ends restarted from them with its own stock. */
typedef struct {
	const calc_state *s;
	lanes8 start;
	counts8 c0;
	uint8_t pile[4][64]; /* a lane's piles at S */
	bool turns;
	bool cascade; /* the games play the cascade's moves up */
	stocks st;
	size_t n;
	size_t game[8];
} feed8;

/* Starts the next games in the lanes of M (a byte a lane) while games are
 * left; returns the lanes started, as a vector mask. */
static v8 feed8_start(feed8 *f, lanes8 *g, counts8 *c, unsigned m)
{
	uint32_t on[8] = {0}, hand[8];
	_mm256_storeu_si256((v8 *)hand, g->H);
	for (int q = 0; q < 8 && f->st.next < f->n; q++) {
		if (!(m >> q & 1))
			continue;
		uint8_t cards[65] = {0}; /* the stock after the hand, padded */
		f->game[q] = stocks_take(&f->st, cards);
		memcpy(g->cards->stock[q], cards + f->turns, sizeof g->cards->stock[q] - 1);
		memcpy(g->cards->pile[q], f->pile, sizeof f->pile);
		if (f->turns)
			hand[q] = cards[0];
		on[q] = ~0u;
	}
	v8 st = _mm256_loadu_si256((const v8 *)on);
	if (f->turns)
		g->H = BLEND(st, g->H, _mm256_loadu_si256((const v8 *)hand));
	else
		g->H = BLEND(st, g->H, f->start.H);
	const lanes8 *a = &f->start;
	g->TOPS = BLEND(st, g->TOPS, a->TOPS);
	g->SECS = BLEND(st, g->SECS, a->SECS);
	g->LENS = BLEND(st, g->LENS, a->LENS);
	g->FOUND = BLEND(st, g->FOUND, a->FOUND);
	g->NEED = BLEND(st, g->NEED, a->NEED);
	g->NP = BLEND(st, g->NP, a->NP);
	g->STEPS = BLEND(st, g->STEPS, a->STEPS);
	g->NEXT = BLEND(st, g->NEXT, S8(0));
	g->BAD = ANDNOT(st, g->BAD);
	for (int k = 0; k < 4; k++) {
		g->NB[k] = BLEND(st, g->NB[k], a->NB[k]);
		c->CL[k] = BLEND(st, c->CL[k], f->c0.CL[k]);
		c->CH[k] = BLEND(st, c->CH[k], f->c0.CH[k]);
	}
	c->URG[0] = BLEND(st, c->URG[0], f->c0.URG[0]);
	c->URG[1] = BLEND(st, c->URG[1], f->c0.URG[1]);
	return st;
}

/* The outcomes of the games in the lanes of M, which are over; a lane
 * given up is replayed. Returns how many were. */
static size_t feed8_finish(const feed8 *f, const lanes8 *g, unsigned m, calcbatch_outcome *out)
{
	uint32_t found[8], steps[8], bad[8];
	size_t replayed = 0;
	_mm256_storeu_si256((v8 *)found, g->FOUND);
	_mm256_storeu_si256((v8 *)steps, g->STEPS);
	_mm256_storeu_si256((v8 *)bad, g->BAD);
	for (int q = 0; q < 8; q++)
		if (m >> q & 1)
			out[f->game[q]] = feed_outcome(f->s, &f->st, f->game[q], bad[q], f->cascade,
						       found[q], steps[q], &replayed);
	return replayed;
}

/* Every lane of G and C as lane 0: a position loaded once, for all. */
static void lanes8_spread(lanes8 *g, counts8 *c)
{
#define LANE0(v) ((v) = _mm256_broadcastd_epi32(_mm256_castsi256_si128(v)))
	LANE0(g->H);
	LANE0(g->TOPS);
	LANE0(g->SECS);
	LANE0(g->LENS);
	LANE0(g->FOUND);
	LANE0(g->NEED);
	LANE0(g->NP);
	LANE0(g->STEPS);
	for (int k = 0; k < 4; k++) {
		LANE0(g->NB[k]);
		LANE0(c->CL[k]);
		LANE0(c->CH[k]);
	}
	LANE0(c->URG[0]);
	LANE0(c->URG[1]);
#undef LANE0
}

/* The games of F in the lanes of G and C, to the last; CASCADE a
 * constant, as feed_games. */
STEP_INLINE size_t feed8_games(feed8 *f, lanes8 *g, counts8 *c, const v8 tab[4],
			       const uint64_t *urg_tab, calcbatch_outcome *out, bool cascade)
{
	unsigned busy = lanes8_bits(feed8_start(f, g, c, 0xFF));
	g->BAD = lanes8_of(~busy); /* lanes without a game stay still */
	refill8(g);
	int refill = 3;
	size_t replayed = 0;
	while (busy) {
		unsigned over = busy & ~lanes8_bits(greedy_step8(g, c, tab, urg_tab, &refill, cascade));
		if (!over)
			continue;
		replayed += feed8_finish(f, g, over, out);
		unsigned again = lanes8_bits(feed8_start(f, g, c, over));
		if (again) { /* their HN from their own stocks */
			refill8(g);
			refill = 3;
		}
		g->BAD = OR(g->BAD, lanes8_of(over & ~again));
		busy = (busy & ~over) | again;
	}
	return replayed;
}

static size_t resampled_avx2(const calc_state *s, uint64_t key, uint64_t from, size_t n,
			     bool cascade, calcbatch_outcome *out)
{
	static _Thread_local cards8 cards;
	feed8 f;
	lanes8 g = {.cards = &cards};
	counts8 c; /* set from C0 below, lanes without a game too */
	v8 tab[4];
	need_tables(tab);
	const uint64_t *urg_tab = urgency_table();
	f = (feed8){.s = s, .turns = !s->hand, .cascade = cascade, .n = n};
	lanes8_load_states(&g, s, 1, tab); /* game 0 is lane 0 (lane_of) */
	counts8_load(&f.c0, s, 1, urg_tab, g.FOUND);
	lanes8_spread(&g, &f.c0);
	c = f.c0;
	f.start = g;
	memcpy(f.pile, cards.pile[0], sizeof f.pile);
	stocks_init(&f.st, s, key, from);
	return cascade ? feed8_games(&f, &g, &c, tab, urg_tab, out, true)
		       : feed8_games(&f, &g, &c, tab, urg_tab, out, false);
}


ISA_END

/* The AVX-512 path again, for what uses the shuffles above. */
ISA_BEGIN_AVX512
/* The games of calcbatch_resampled on the lanes: every game starts from
 * one position, whose words are loaded once (START), so a lane whose
 * game ends takes the next game at once by a masked copy and the words
 * of its own stock, and the lanes stay busy to the last games. */
typedef struct {
	const calc_state *s;
	lanes start;        /* every lane at S, its card turned as lanes_load turns it */
	bool turns;         /* S's hand is empty: a game's first card is its hand */
	bool cascade;       /* the games play the cascade's moves up */
	stocks st;          /* the games' stocks, in order */
	size_t n;           /* the games */
	size_t game[LANES]; /* the game each lane plays */
} feed;

/* Starts the next games in the lanes of M while games are left; returns
 * the lanes started. */
static __mmask8 feed_start(feed *f, lanes *g, __mmask8 m)
{
	__mmask8 started = 0;
	for (int i = 0; i < LANES && f->st.next < f->n; i++) {
		__mmask8 lane = (__mmask8)(1u << i);
		if (!(m & lane))
			continue;
		uint8_t cards[80] = {0}; /* a stock after the hand, padded as lanes_load pads */
		f->game[i] = stocks_take(&f->st, cards);
		if (f->turns)
			g->H = _mm512_mask_set1_epi64(g->H, lane, cards[0]);
		for (int j = 0; j < 4; j++)
			g->S[j] = _mm512_mask_set1_epi64(g->S[j], lane,
							 (long long)pack16(cards + f->turns + 16 * j));
		started |= lane;
	}
	for (int p = 0; p < 4; p++) {
		g->L[p] = _mm512_mask_mov_epi64(g->L[p], started, f->start.L[p]);
		g->U[p] = _mm512_mask_mov_epi64(g->U[p], started, f->start.U[p]);
		g->C[p] = _mm512_mask_mov_epi64(g->C[p], started, f->start.C[p]);
	}
	if (!f->turns)
		g->H = _mm512_mask_mov_epi64(g->H, started, f->start.H);
	g->FOUND = _mm512_mask_mov_epi64(g->FOUND, started, f->start.FOUND);
	g->NEED = _mm512_mask_mov_epi64(g->NEED, started, f->start.NEED);
	g->NP = _mm512_mask_mov_epi64(g->NP, started, f->start.NP);
	g->STEPS = _mm512_mask_mov_epi64(g->STEPS, started, f->start.STEPS);
	g->bad &= (__mmask8)~started;
	return started;
}

/* The outcomes of the games in the lanes of M, which are over; a lane
 * given up is replayed. Returns how many were. */
static size_t feed_finish(const feed *f, const lanes *g, __mmask8 m, calcbatch_outcome *out)
{
	uint64_t fw[LANES], stw[LANES];
	size_t replayed = 0;
	_mm512_storeu_si512(fw, g->FOUND);
	_mm512_storeu_si512(stw, g->STEPS);
	for (int i = 0; i < LANES; i++)
		if (m >> i & 1)
			out[f->game[i]] = feed_outcome(f->s, &f->st, f->game[i], g->bad >> i & 1,
						       f->cascade, fw[i], stw[i], &replayed);
	return replayed;
}

/* Every lane of G as lane 0: a position loaded once, for all (the
 * stock's words too, though each game's own replace them). */
static void lanes_spread(lanes *g)
{
#define LANE0(v) ((v) = _mm512_broadcastq_epi64(_mm512_castsi512_si128(v)))
	LANE0(g->H);
	LANE0(g->FOUND);
	LANE0(g->NEED);
	LANE0(g->NP);
	LANE0(g->STEPS);
	for (int j = 0; j < 4; j++) {
		LANE0(g->S[j]);
		LANE0(g->L[j]);
		LANE0(g->U[j]);
		LANE0(g->C[j]);
	}
#undef LANE0
}

/* The games of F in the lanes, to the last; CASCADE a constant, so that
 * the plain rule's loop is compiled without the cascade's test. */
STEP_INLINE size_t feed_games(feed *f, vec table, const uint64_t *urg_tab, calcbatch_outcome *out,
			      bool cascade)
{
	lanes g = f->start;
	__mmask8 busy = feed_start(f, &g, 0xFF);
	g.bad = (__mmask8)~busy;
	vec urg = lanes_urgency(&g, _mm512_setzero_si512(), busy, urg_tab);
	size_t replayed = 0;
	while (busy) {
		__mmask8 over = busy & (__mmask8)~greedy_step(&g, &urg, table, urg_tab, cascade);
		if (!over)
			continue;
		replayed += feed_finish(f, &g, over, out);
		__mmask8 again = feed_start(f, &g, over);
		g.bad |= (__mmask8)(over & ~again);
		busy = (__mmask8)((busy & ~over) | again);
		urg = lanes_urgency(&g, urg, again, urg_tab);
	}
	return replayed;
}

static size_t resampled_avx512(const calc_state *s, uint64_t key, uint64_t from, size_t n,
			       bool cascade, calcbatch_outcome *out)
{
	vec table = need_table();
	const uint64_t *urg_tab = urgency_table();
	feed f = {.s = s, .turns = !s->hand, .cascade = cascade, .n = n};
	lanes_load(&f.start, s, 1, table);
	if (f.start.bad) { /* a pile too long for the lanes: every game is */
		for (size_t k = 0; k < n; k++) {
			calc_state c = resampled(s, key, from, k);
			out[k] = rule_one(&c, cascade);
		}
		return n;
	}
	lanes_spread(&f.start);
	stocks_init(&f.st, s, key, from);
	return cascade ? feed_games(&f, table, urg_tab, out, true)
		       : feed_games(&f, table, urg_tab, out, false);
}

ISA_END
#endif

void calcbatch_shuffle(int variant, rng *gens, size_t n, uint8_t (*decks)[52])
{
#ifdef CALCBATCH_SIMD
	if (isa_path() >= ISA_AVX2) {
		shuffle_avx2(variant, gens, n, decks);
		return;
	}
#endif
	for (size_t g = 0; g < n; g++)
		calc_shuffle(variant, &gens[g], decks[g]);
}

size_t calcbatch_random(int variant, const uint8_t (*decks)[52], const rng *gens, size_t n,
			calcbatch_outcome *out)
{
	size_t replayed = n;
#ifdef CALCBATCH_SIMD
	if (isa_path() >= ISA_AVX512)
		replayed = random_avx512(variant, decks, gens, n, out);
	else if (isa_path() == ISA_AVX2)
		replayed = random_avx2(variant, decks, gens, n, out);
	else
#endif
		for (size_t g = 0; g < n; g++)
			out[g] = random_one(variant, decks[g], &gens[g]);
#ifdef YOMI_DEBUG
	for (size_t g = 0; g < n; g++) {
		calcbatch_outcome o = random_one(variant, decks[g], &gens[g]);
		if (memcmp(&o, &out[g], sizeof o))
			die("internal error: batched random game %zu differs from the scalar playout", g);
	}
#endif
	return replayed;
}

size_t calcbatch_greedy(const calc_state *states, size_t n, calcbatch_outcome *out)
{
	size_t replayed = n;
#ifdef CALCBATCH_SIMD
	if (isa_path() >= ISA_AVX512)
		replayed = greedy_avx512(states, n, out);
	else if (isa_path() == ISA_AVX2)
		replayed = greedy_avx2(states, n, out);
	else
#endif
		for (size_t g = 0; g < n; g++)
			out[g] = rule_one(&states[g], false);
#ifdef YOMI_DEBUG
	for (size_t g = 0; g < n; g++) {
		calcbatch_outcome o = rule_one(&states[g], false);
		if (memcmp(&o, &out[g], sizeof o))
			die("internal error: batched greedy game %zu differs from the scalar playout", g);
	}
#endif
	return replayed;
}

size_t calcbatch_resampled(const calc_state *s, uint64_t key, uint64_t from, size_t n,
			   bool cascade, calcbatch_outcome *out)
{
	size_t replayed = 0;
#ifdef CALCBATCH_SIMD
	if (isa_path() >= ISA_AVX512)
		replayed = resampled_avx512(s, key, from, n, cascade, out);
	else if (isa_path() == ISA_AVX2)
		replayed = resampled_avx2(s, key, from, n, cascade, out);
	else
#endif
	if (cascade) {
		for (size_t k = 0; k < n; k++) {
			calc_state c = resampled(s, key, from, k);
			out[k] = rule_one(&c, true);
		}
		replayed = n;
	} else {
		enum { CHUNK = 64 };
		calc_state c[CHUNK];
		for (size_t k = 0; k < n; k += CHUNK) {
			size_t m = n - k < CHUNK ? n - k : CHUNK;
			for (size_t j = 0; j < m; j++)
				c[j] = resampled(s, key, from, k + j);
			replayed += calcbatch_greedy(c, m, out + k);
		}
	}
#ifdef YOMI_DEBUG
	for (size_t k = 0; k < n; k++) {
		calc_state c = resampled(s, key, from, k);
		calcbatch_outcome o = rule_one(&c, cascade);
		if (memcmp(&o, &out[k], sizeof o))
			die("internal error: resampled greedy game %zu differs from the scalar playout", k);
	}
#endif
	return replayed;
}
