/* othellokern.h: the hot loops of lib/othello (moves, flips, perft,
 * random playouts), written once and compiled once per instruction-set
 * path. Only othello.c includes it, three times, each time with
 *   KERN_PATH  0 (base: any x86-64), 1 (avx2) or 2 (avx512),
 *   KERN(x)    the name of this path's copy of x,
 * inside a region whose functions are built for that path (a target
 * pragma). The paths compute the same functions bit for bit; they differ
 * in how: base shifts one direction at a time in scalar registers, avx2
 * four directions to a vector, avx512 also counts leading zeros in
 * vectors. The rays and the vector constants come from othello.c. */

/* Scalar: the base path has no POPCNT instruction, and a call into
 * libgcc costs more than this. */
INLINE int KERN(popcount)(uint64_t x)
{
#if KERN_PATH == 0
	x -= x >> 1 & 0x5555555555555555ULL;
	x = (x & 0x3333333333333333ULL) + (x >> 2 & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (int)(x * 0x0101010101010101ULL >> 56);
#else
	return __builtin_popcountll(x);
#endif
}

#if KERN_PATH == 0
/* One direction pair: D the shift, M the propagating mask (no wrap). */
#define KERN_DIR_MOVES(d, mask)                                        \
	do {                                                           \
		uint64_t o_ = opp & (mask), pu_ = o_, pd_ = o_;        \
		uint64_t gu_ = me, gd_ = me;                           \
		gu_ |= pu_ & gu_ << (d);                               \
		gd_ |= pd_ & gd_ >> (d);                               \
		pu_ &= pu_ << (d);                                     \
		pd_ &= pd_ >> (d);                                     \
		gu_ |= pu_ & gu_ << 2 * (d);                           \
		gd_ |= pd_ & gd_ >> 2 * (d);                           \
		pu_ &= pu_ << 2 * (d);                                 \
		pd_ &= pd_ >> 2 * (d);                                 \
		gu_ |= pu_ & gu_ << 4 * (d);                           \
		gd_ |= pd_ & gd_ >> 4 * (d);                           \
		m |= (gu_ & o_) << (d) | (gd_ & o_) >> (d);            \
	} while (0)
#endif

INLINE uint64_t KERN(moves_of)(uint64_t me, uint64_t opp)
{
#if KERN_PATH == 0
	uint64_t m = 0;
	KERN_DIR_MOVES(1, EDGE);
	KERN_DIR_MOVES(8, ~0ULL);
	KERN_DIR_MOVES(7, EDGE);
	KERN_DIR_MOVES(9, EDGE);
	return m & ~(me | opp);
#else
	v4u o = splat(opp) & LANE_MASK;
	v4u p = splat(me);
	/* The opponent discs reached from my discs; one step past a run is a
	 * move if empty. */
	v4u up = fill_up(p, o) & o;
	v4u down = fill_down(p, o) & o;
	return or_lanes((up << SHIFT1) | (down >> SHIFT1)) & ~(me | opp);
#endif
}

INLINE uint64_t KERN(flips_of)(uint64_t me, uint64_t opp, int sq)
{
	/* Along each ray, the first square that is not the opponent's decides:
	 * if it is mine, the opponent discs before it flip. Upwards that square
	 * is the ray's lowest such bit, downwards its highest. */
#if KERN_PATH == 0
	const uint64_t *ru = ray_up_s[sq], *rd = ray_down_s[sq];
	uint64_t f = 0;
	for (int l = 0; l < 4; l++) {
		uint64_t bu = ru[l] & ~opp, fu = bu & -bu;
		f |= (fu - 1) & ru[l] & -(uint64_t)((fu & me) != 0);
		uint64_t bd = rd[l] & ~opp;
		uint64_t fd = bd ? 1ULL << (63 - __builtin_clzll(bd)) : 0;
		f |= rd[l] & -(fd << 1) & -(uint64_t)((fd & me) != 0);
	}
	return f;
#else
	v4u o = splat(opp), p = splat(me);
	v4u ru = ray_up(sq);
	v4u bu = ru & ~o;
	v4u fu = bu & -bu;
	v4u up = ((fu - 1) & ru) & (v4u)((fu & p) != 0);
#if KERN_PATH == 2
	v4u rd = ray_down(sq);
	v4u bd = rd & ~o;
	/* A count of 64 (no such square) shifts to 0, as the ISA defines. */
	v4u fd = (v4u)_mm256_srlv_epi64((__m256i)splat(1ULL << 63), _mm256_lzcnt_epi64((__m256i)bd));
	v4u down = (rd & -(fd << 1)) & (v4u)((fd & p) != 0);
#else
	/* Without a vector leading-zero count, fill the run of opponent discs
	 * from SQ instead. Edge files are masked out of sideways runs, so a
	 * run is empty when SQ's neighbour is off the board. */
	v4u x = splat(1ULL << sq);
	v4u run = fill_down(x, o & LANE_MASK);
	v4u down = (v4u)((run >> SHIFT1 & p) != 0) & (run & ~x);
#endif
	return or_lanes(up | down);
#endif
}

/* The K-th (from 0) set bit of M. PDEP does it in one instruction where
 * it is fast; the loop's trip count is random, so it costs a branch miss
 * per call. */
INLINE int KERN(nth_bit)(uint64_t m, unsigned k)
{
#if KERN_PATH > 0
	if (!slow_pdep)
		return __builtin_ctzll(_pdep_u64(1ULL << k, m));
#endif
	while (k--)
		m &= m - 1;
	return __builtin_ctzll(m);
}

static uint64_t KERN(moves)(uint64_t me, uint64_t opp)
{
	return KERN(moves_of)(me, opp);
}

static uint64_t KERN(flips)(uint64_t me, uint64_t opp, int sq)
{
	return KERN(flips_of)(me, opp, sq);
}

/* PASSED: the previous ply was a pass, so no moves now ends the game. */
static uint64_t KERN(perft_rec)(uint64_t me, uint64_t opp, int depth, bool passed)
{
	uint64_t m = KERN(moves_of)(me, opp);
	if (!m) {
		if (passed || !KERN(moves_of)(opp, me))
			return 1;
		return depth == 1 ? 1 : KERN(perft_rec)(opp, me, depth - 1, true);
	}
	if (depth == 1)
		return (uint64_t)KERN(popcount)(m);
	uint64_t n = 0;
	if (depth == 2) {
		/* A child with no move has one leaf below it, pass or end. */
		do {
			int sq = __builtin_ctzll(m);
			uint64_t f = KERN(flips_of)(me, opp, sq);
			uint64_t c = KERN(moves_of)(opp ^ f, me | f | 1ULL << sq);
			n += c ? (uint64_t)KERN(popcount)(c) : 1;
			m &= m - 1;
		} while (m);
		return n;
	}
	do {
		int sq = __builtin_ctzll(m);
		uint64_t f = KERN(flips_of)(me, opp, sq);
		n += KERN(perft_rec)(opp ^ f, me | f | 1ULL << sq, depth - 1, false);
		m &= m - 1;
	} while (m);
	return n;
}

INLINE void KERN(lane_init)(lane *l, const othello_pos *p, rng *r)
{
	l->me = p->me;
	l->opp = p->opp;
	l->m = KERN(moves_of)(p->me, p->opp);
	l->d = (rng_draw){.r = r};
}

/* One random ply: the move played (or OTHELLO_PASS), or -1 when the game
 * is over. */
INLINE int KERN(random_ply)(lane *l)
{
	if (l->m) {
		int move = KERN(nth_bit)(l->m, rng_draw_below(&l->d, (uint32_t)KERN(popcount)(l->m)));
		uint64_t f = KERN(flips_of)(l->me, l->opp, move);
		uint64_t next = l->opp ^ f;
		l->opp = l->me | f | 1ULL << move;
		l->me = next;
		l->m = KERN(moves_of)(l->me, l->opp);
		return move;
	}
	/* No move: the other side's moves decide between a pass and the end,
	 * and after a pass they are the next ply's moves. */
	uint64_t t = KERN(moves_of)(l->opp, l->me);
	if (!t)
		return -1;
	uint64_t x = l->me;
	l->me = l->opp;
	l->opp = x;
	l->m = t;
	return OTHELLO_PASS;
}

static void KERN(random_games)(const othello_pos *start, rng *r, othello_game *g, int n, bool record)
{
	/* The games are independent, so stepping several in lockstep lets the
	 * processor overlap their dependency chains (a ply is one long chain:
	 * moves, random pick, flips, moves again). */
	lane l[OTHELLO_BATCH];
	int plies[OTHELLO_BATCH];
	unsigned live = 0;
	for (int j = 0; j < n; j++) {
		KERN(lane_init)(&l[j], &start[j], &r[j]);
		plies[j] = 0;
		live |= 1u << j;
	}
	while (live) {
#pragma GCC unroll 4
		for (int j = 0; j < OTHELLO_BATCH; j++) {
			if (!(live >> j & 1))
				continue;
			int move = KERN(random_ply)(&l[j]);
			if (move < 0) {
				live &= ~(1u << j);
				continue;
			}
			if (record || plies[j] == 0)
				g[j].moves[plies[j]] = (uint8_t)move;
			plies[j]++;
		}
	}
	for (int j = 0; j < n; j++) {
		g[j].end.me = l[j].me;
		g[j].end.opp = l[j].opp;
		g[j].end.turn = start[j].turn ^ (plies[j] & 1);
		g[j].plies = plies[j];
	}
}

static int KERN(random_result)(uint64_t me, uint64_t opp, rng *r)
{
	othello_pos p = {me, opp, OTHELLO_BLACK};
	lane l;
	KERN(lane_init)(&l, &p, r);
	int plies = 0;
	while (KERN(random_ply)(&l) >= 0)
		plies++;
	int d = KERN(popcount)(l.me) - KERN(popcount)(l.opp);
	return plies & 1 ? -d : d;
}

static uint64_t KERN(perft)(uint64_t me, uint64_t opp, int depth)
{
	return KERN(perft_rec)(me, opp, depth, false);
}

/* perft_rec through the table above PERFT_HASH_MIN remaining plies, where
 * a subtree costs more than a probe. */
static uint64_t KERN(perft_tt)(othello_perft_table *t, uint64_t me, uint64_t opp, int depth)
{
	if (depth < PERFT_HASH_MIN)
		return KERN(perft_rec)(me, opp, depth, false);
	uint64_t ume = me, uopp = opp;
	perft_unique(&ume, &uopp);
	perft_entry *b = perft_bucket(t, ume, uopp, depth);
	for (int i = 0; i < 2; i++)
		if (b[i].me == ume && b[i].opp == uopp && b[i].depth == (uint64_t)depth)
			return b[i].n;
	uint64_t n = 0, m = KERN(moves_of)(me, opp);
	if (!m) {
		if (!KERN(moves_of)(opp, me))
			return 1;
		n = KERN(perft_tt)(t, opp, me, depth - 1);
	}
	for (; m; m &= m - 1) {
		int sq = __builtin_ctzll(m);
		uint64_t f = KERN(flips_of)(me, opp, sq);
		n += KERN(perft_tt)(t, opp ^ f, me | f | 1ULL << sq, depth - 1);
	}
	perft_store(b, ume, uopp, depth, n);
	return n;
}

static uint64_t KERN(perft_hashed)(othello_perft_table *t, uint64_t me, uint64_t opp, int depth)
{
	return KERN(perft_tt)(t, me, opp, depth);
}

static const othello_kernels KERN(kernels) = {
	KERN(moves), KERN(flips), KERN(perft), KERN(perft_hashed), KERN(random_games), KERN(random_result),
};

#undef KERN_DIR_MOVES
