#include "calcbatch.h"

#include <string.h>

#include "util.h"

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512CD__) && \
	defined(__AVX512VBMI__) && defined(__AVX512VBMI2__) && defined(__AVX512VPOPCNTDQ__) && defined(__BMI2__)
#define CALCBATCH_SIMD 1
#include <immintrin.h>
#endif

/* One game the scalar way: the reference, the fallback, and the replay
 * of a lane the vector loop gives up. */
static void play_one(int variant, const uint8_t deck[52], const rng_t *gen, calcbatch_outcome *o)
{
	calc_state s;
	rng_t r = *gen;
	calc_deal(&s, variant, deck);
	calc_random_playout(&s, &r);
	o->success = calc_success(&s);
	o->rest = (uint8_t)calc_rest(&s);
	o->steps = s.steps;
}

#ifdef CALCBATCH_SIMD

enum { LANES = 8 };
typedef __m512i vec;

#define V(x) _mm512_set1_epi64((long long)(x))

/* Where a full pile shows: its 32nd card, U's top nibble. Debug builds
 * give a lane up at a 12th card already, so that their runs exercise the
 * replay too (and check it: see calcbatch_random). */
#ifdef YOMI_DEBUG
#define FULL_WORD(p) L[p]
#define FULL_MASK 0x0000F00000000000
#else
#define FULL_WORD(p) U[p]
#define FULL_MASK 0xF000000000000000
#endif

/* Bit 0 of each nibble of X whose 4 bits are all 0, kept where KEEP has
 * it: how one compare tests 16 rank pairs at once. */
static inline vec zero_nibbles(vec x, vec keep)
{
	vec any3 = _mm512_ternarylogic_epi64(x, _mm512_srli_epi64(x, 1), _mm512_srli_epi64(x, 2), 0xFE);
	return _mm512_ternarylogic_epi64(any3, _mm512_srli_epi64(x, 3), keep, 0x02);
}

/* xoshiro256** in each lane, as rng_next. */
static inline vec lanes_next(vec s[4])
{
	vec a = _mm512_add_epi64(s[1], _mm512_slli_epi64(s[1], 2));
	a = _mm512_rol_epi64(a, 7);
	vec result = _mm512_add_epi64(a, _mm512_slli_epi64(a, 3));
	vec t = _mm512_slli_epi64(s[1], 17);
	s[2] = _mm512_xor_si512(s[2], s[0]);
	s[3] = _mm512_xor_si512(s[3], s[1]);
	s[1] = _mm512_xor_si512(s[1], s[2]);
	s[0] = _mm512_xor_si512(s[0], s[3]);
	s[2] = _mm512_xor_si512(s[2], t);
	s[3] = _mm512_rol_epi64(s[3], 45);
	return result;
}

/* Eight games, one per lane, each word of the state a vector:
 *   H      the hand's rank, 0 when there is none;
 *   S[4]   the stock as 4-bit ranks, the next card in the lowest nibble;
 *   L, U   waste pile p as a stack of 4-bit ranks, its top in L's lowest
 *          nibble, U above L: 32 cards at most (one random game in
 *          twenty has a pile of 17, and the longest in 200,000 had 24;
 *          a lane about to overflow is given up and replayed by the
 *          scalar playout, like a lane whose draw Lemire's method might
 *          reject);
 *   FOUND  nibble k: the cards on foundation k;
 *   NEED   nibble k: the rank it accepts, 15 once complete, so that no
 *          card and no empty pile's top (0) matches it.
 * The moves are counted as calc_random_playout counts them, in calc_moves'
 * order: the hand to the foundations that need it (ZH, bit 4k), the hand
 * to each pile, then pile tops to foundations (Z, bit 16p + 4k, found by
 * comparing the tops, each repeated in four nibbles, with NEED repeated
 * four times). The I-th move drawn is decoded by clearing the lowest set
 * bits. Every update is masked by the lanes it concerns, so a lane whose
 * game is over simply stops changing. */
static size_t play_lanes(int variant, const uint8_t (*decks)[52], const rng_t *gens, int n,
			 calcbatch_outcome *out)
{
	uint64_t gw[4][LANES] = {{0}}, sw[4][LANES] = {{0}}, hw[LANES] = {0};
	int nstock = calc_stock_size(variant), np = variant & CALC_THREE ? 3 : 4;
	for (int g = 0; g < n; g++) {
		for (int j = 0; j < 4; j++)
			gw[j][g] = gens[g].s[j];
		hw[g] = decks[g][0];
		/* A rank fits in the low nibble of its byte: eight cards a
		 * pext. */
		uint8_t pad[64] = {0};
		memcpy(pad, decks[g] + 1, (size_t)nstock - 1);
		for (int j = 0; j < 4; j++) {
			uint64_t lo, hi;
			memcpy(&lo, pad + 16 * j, 8);
			memcpy(&hi, pad + 16 * j + 8, 8);
			sw[j][g] = _pext_u64(lo, 0x0F0F0F0F0F0F0F0F) |
				   _pext_u64(hi, 0x0F0F0F0F0F0F0F0F) << 32;
		}
	}
	uint8_t tab[64];
	memset(tab, 15, sizeof tab);
	for (int k = 0; k < 4; k++)
		memcpy(tab + 16 * k, calc_needs[k], 13);
	const vec table = _mm512_loadu_si512(tab), F = V(0xF), ONE = V(1);
	uint64_t found0 = variant & CALC_NOFOUND ? 0 : 0x1111, need0 = 0;
	for (int k = 0; k < 4; k++)
		need0 |= (uint64_t)calc_needs[k][(found0 >> 4 * k) & 0xF] << 4 * k;
	vec s[4], S[4], L[4], U[4];
	for (int j = 0; j < 4; j++) {
		s[j] = _mm512_loadu_si512(gw[j]);
		S[j] = _mm512_loadu_si512(sw[j]);
		L[j] = U[j] = _mm512_setzero_si512();
	}
	vec H = _mm512_loadu_si512(hw), FOUND = V(found0), NEED = V(need0);
	vec steps = _mm512_setzero_si512(), npv = V(np);
	__mmask8 bad = 0;
	for (;;) {
		vec n2 = _mm512_or_si512(NEED, _mm512_slli_epi64(NEED, 16));
		vec n4 = _mm512_or_si512(n2, _mm512_slli_epi64(n2, 32));
		vec t = _mm512_and_si512(L[0], F);
		for (int p = 1; p < np; p++)
			t = _mm512_or_si512(t, _mm512_slli_epi64(_mm512_and_si512(L[p], F), 16 * p));
		t = _mm512_or_si512(t, _mm512_slli_epi64(t, 4));
		t = _mm512_or_si512(t, _mm512_slli_epi64(t, 8));
		vec z = zero_nibbles(_mm512_xor_si512(n4, t), V(0x1111111111111111));
		vec h4 = _mm512_or_si512(H, _mm512_slli_epi64(H, 4));
		h4 = _mm512_or_si512(h4, _mm512_slli_epi64(h4, 8));
		vec zh = zero_nibbles(_mm512_xor_si512(NEED, h4), V(0x1111));
		vec nh = _mm512_popcnt_epi64(zh);
		__mmask8 hand = _mm512_test_epi64_mask(H, H);
		vec nhp = _mm512_mask_add_epi64(nh, hand, nh, npv);
		vec nmoves = _mm512_add_epi64(nhp, _mm512_popcnt_epi64(z));
		__mmask8 act = _mm512_test_epi64_mask(nmoves, nmoves) & (__mmask8)~bad;
		if (!act)
			break;
		/* rng_below32(nmoves) in each lane; a product whose low half is
		 * below nmoves might be rejected, which the replay settles. */
		vec x = _mm512_mul_epu32(_mm512_srli_epi64(lanes_next(s), 32), nmoves);
		__mmask8 doubt = _mm512_mask_cmplt_epu64_mask(act, _mm512_and_si512(x, V(0xFFFFFFFF)), nmoves);
		bad |= doubt;
		act &= (__mmask8)~doubt;
		vec i = _mm512_srli_epi64(x, 32);
		__mmask8 hf = _mm512_mask_cmplt_epu64_mask(act, i, nh);
		__mmask8 hp = _mm512_mask_cmplt_epu64_mask(act & (__mmask8)~hf, i, nhp);
		__mmask8 tf = act & (__mmask8)~(hf | hp), fm = hf | tf, mh = hf | hp;
		/* The foundation move's bit: skip C set bits of W. */
		vec w = _mm512_mask_blend_epi64(hf, z, zh);
		vec c = _mm512_mask_blend_epi64(hf, _mm512_sub_epi64(i, nhp), i);
		__mmask8 skip = _mm512_mask_test_epi64_mask(fm, c, c);
		while (skip) {
			w = _mm512_mask_and_epi64(w, skip, w, _mm512_sub_epi64(w, ONE));
			c = _mm512_mask_sub_epi64(c, skip, c, ONE);
			skip = _mm512_mask_test_epi64_mask(skip, c, c);
		}
		vec low = _mm512_and_si512(w, _mm512_sub_epi64(_mm512_setzero_si512(), w));
		vec b = _mm512_sub_epi64(V(63), _mm512_lzcnt_epi64(low));
		vec k4 = _mm512_and_si512(b, V(12)), from = _mm512_srli_epi64(b, 4);
		vec to = _mm512_sub_epi64(i, nh);
		for (int p = 0; p < np; p++) {
			__mmask8 push = _mm512_mask_cmpeq_epi64_mask(hp, to, V(p));
			__mmask8 pop = _mm512_mask_cmpeq_epi64_mask(tf, from, V(p));
			bad |= _mm512_mask_test_epi64_mask(push, FULL_WORD(p), V(FULL_MASK));
			U[p] = _mm512_mask_shldi_epi64(U[p], push, U[p], L[p], 4);
			L[p] = _mm512_mask_or_epi64(L[p], push, _mm512_slli_epi64(L[p], 4), H);
			L[p] = _mm512_mask_shrdi_epi64(L[p], pop, L[p], U[p], 4);
			U[p] = _mm512_mask_srli_epi64(U[p], pop, U[p], 4);
		}
		H = _mm512_mask_and_epi64(H, mh, S[0], F);
		for (int j = 0; j < 3; j++)
			S[j] = _mm512_mask_shrdi_epi64(S[j], mh, S[j], S[j + 1], 4);
		S[3] = _mm512_mask_srli_epi64(S[3], mh, S[3], 4);
		/* Foundation k takes its card; its new need from the table
		 * (byte 16k + cards). */
		FOUND = _mm512_mask_add_epi64(FOUND, fm, FOUND, _mm512_sllv_epi64(ONE, k4));
		vec cards = _mm512_and_si512(_mm512_srlv_epi64(FOUND, k4), F);
		vec idx = _mm512_or_si512(cards, _mm512_slli_epi64(k4, 2));
		vec need = _mm512_and_si512(_mm512_permutexvar_epi8(idx, table), V(0xFF));
		vec kept = _mm512_andnot_si512(_mm512_sllv_epi64(F, k4), NEED);
		NEED = _mm512_mask_or_epi64(NEED, fm, kept, _mm512_sllv_epi64(need, k4));
		steps = _mm512_mask_add_epi64(steps, act, steps, ONE);
	}
	uint64_t fw[LANES], stw[LANES];
	_mm512_storeu_si512(fw, FOUND);
	_mm512_storeu_si512(stw, steps);
	size_t replayed = 0;
	for (int g = 0; g < n; g++) {
		if (bad >> g & 1) {
			play_one(variant, decks[g], &gens[g], &out[g]);
			replayed++;
			continue;
		}
		int placed = 0;
		for (int k = 0; k < 4; k++)
			placed += (int)(fw[g] >> 4 * k & 0xF);
		out[g].success = fw[g] == 0xDDDD;
		out[g].rest = (uint8_t)(52 - placed);
		out[g].steps = (uint16_t)stw[g];
	}
	return replayed;
}

#endif

size_t calcbatch_random(int variant, const uint8_t (*decks)[52], const rng_t *gens, size_t n,
			calcbatch_outcome *out)
{
	size_t replayed = 0;
#ifdef CALCBATCH_SIMD
	for (size_t g = 0; g < n; g += LANES)
		replayed += play_lanes(variant, decks + g, gens + g, n - g < LANES ? (int)(n - g) : LANES,
				       out + g);
#else
	for (size_t g = 0; g < n; g++)
		play_one(variant, decks[g], &gens[g], &out[g]);
	replayed = n;
#endif
#ifdef YOMI_DEBUG
	for (size_t g = 0; g < n; g++) {
		calcbatch_outcome o;
		play_one(variant, decks[g], &gens[g], &o);
		if (memcmp(&o, &out[g], sizeof o))
			die("internal error: batched random game %zu differs from the scalar playout", g);
	}
#endif
	return replayed;
}
