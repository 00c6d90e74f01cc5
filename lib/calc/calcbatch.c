#include "calc/calcbatch.h"

#include <string.h>

#include "core/isa.h"
#include "core/util.h"

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

static calcbatch_outcome greedy_one(const calc_state *from)
{
	calc_state s = *from;
	calc_greedy_playout(&s);
	return calcbatch_outcome_of(&s);
}

#ifdef CALCBATCH_SIMD

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
		int placed = 0;
		for (int k = 0; k < 4; k++)
			placed += (int)(fw[i] >> 4 * k & 0xF);
		out[i].success = fw[i] == 0xDDDD;
		out[i].rest = (uint8_t)(52 - placed);
		out[i].steps = (uint16_t)stw[i];
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

/* Urgencies (calc_urgency) of every rank, nibble r for rank r, for each
 * count of cards on the foundations, indexed by FOUND's low 16 bits: what
 * greedy's placement rule needs, in one gather after a foundation move.
 * 512 KB, filled at the first greedy batch. */
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

/* Greedy games, move for move as calc_greedy_playout: a top a foundation
 * needs (the first pile's, to the first foundation) goes up, else the
 * hand does, else the hand goes to the pile scored lowest: a top needed
 * no sooner than the hand scores 0, an empty pile 64, any other top 128,
 * plus the cards the pile holds that are needed sooner than the hand
 * (the first such pile on ties). */
static void greedy_lanes(lanes *g, vec table)
{
	const vec F = V(0xF), ONE = V(1), LOW = V(0x0F0F0F0F0F0F0F0F);
	/* vpshufb indices copying byte 0 of each 64-bit lane to all eight */
	const vec BYTE0 = _mm512_set4_epi64(0x0808080808080808, 0, 0x0808080808080808, 0);
	const uint64_t *urg_tab = urgency_table();
	vec urg = _mm512_i64gather_epi64(_mm512_and_si512(g->FOUND, V(0xFFFF)), urg_tab, 8);
	for (;;) {
		vec z = top_moves(g), zh = hand_moves(g);
		__mmask8 live = (__mmask8)~g->bad;
		__mmask8 tf = _mm512_mask_test_epi64_mask(live, z, z);
		__mmask8 hand = _mm512_mask_test_epi64_mask(live & (__mmask8)~tf, g->H, g->H);
		__mmask8 hf = _mm512_mask_test_epi64_mask(hand, zh, zh), pl = hand & (__mmask8)~hf;
		if (!(tf | hand))
			break;
		vec b = lowest_bit(_mm512_mask_blend_epi64(tf, zh, z));
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
		urg = _mm512_mask_i64gather_epi64(urg, tf | hf, _mm512_and_si512(g->FOUND, V(0xFFFF)),
						  urg_tab, 8);
		g->STEPS = _mm512_mask_add_epi64(g->STEPS, tf | hand, g->STEPS, ONE);
	}
}

static calcbatch_outcome greedy_replay(const void *ctx, int i)
{
	return greedy_one((const calc_state *)ctx + i);
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
#endif

size_t calcbatch_random(int variant, const uint8_t (*decks)[52], const rng *gens, size_t n,
			calcbatch_outcome *out)
{
	size_t replayed = n;
#ifdef CALCBATCH_SIMD
	if (isa_path() >= ISA_AVX512)
		replayed = random_avx512(variant, decks, gens, n, out);
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
	else
#endif
		for (size_t g = 0; g < n; g++)
			out[g] = greedy_one(&states[g]);
#ifdef YOMI_DEBUG
	for (size_t g = 0; g < n; g++) {
		calcbatch_outcome o = greedy_one(&states[g]);
		if (memcmp(&o, &out[g], sizeof o))
			die("internal error: batched greedy game %zu differs from the scalar playout", g);
	}
#endif
	return replayed;
}
