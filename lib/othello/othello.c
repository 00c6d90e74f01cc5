#include "othello/othello.h"

#include <string.h>
#if defined(__BMI2__) || defined(__AVX512VL__)
#include <immintrin.h>
#endif

#include "core/util.h"

#define INLINE static inline __attribute__((always_inline))

/* Four directions at once: GCC vector lanes for shifts by 1 (along a
 * row), 8 (along a column), 7 and 9 (the diagonals), each used both ways.
 * The propagating discs are masked so that no run wraps from the h-file
 * onto the a-file or back; columns cannot wrap, so their mask is full. */
typedef uint64_t v4u __attribute__((vector_size(32)));
/* The vector helpers are always inlined, so no vector crosses a call and
 * the warning about the AVX calling convention does not apply. */
#pragma GCC diagnostic ignored "-Wpsabi"
#define EDGE 0x7e7e7e7e7e7e7e7eULL
static const v4u SHIFT1 = {1, 8, 7, 9};
static const v4u SHIFT2 = {2, 16, 14, 18};
static const v4u SHIFT4 = {4, 32, 28, 36};
static const v4u LANE_MASK = {EDGE, ~0ULL, EDGE, EDGE};

INLINE v4u splat(uint64_t x)
{
	return (v4u){x, x, x, x};
}

typedef uint64_t v2u __attribute__((vector_size(16)));

INLINE uint64_t or_lanes(v4u v)
{
	/* Halves first: one 128-bit extract and OR instead of four moves. */
	v2u lo = {v[0], v[1]}, hi = {v[2], v[3]};
	v2u x = lo | hi;
	return x[0] | x[1];
}

/* Occluded fills (Kogge-Stone): GEN extended through runs of PROP, in
 * each lane's direction, towards higher bits (up) or lower bits (down). */
INLINE v4u fill_up(v4u gen, v4u prop)
{
	gen |= prop & (gen << SHIFT1);
	prop &= prop << SHIFT1;
	gen |= prop & (gen << SHIFT2);
	prop &= prop << SHIFT2;
	gen |= prop & (gen << SHIFT4);
	return gen;
}

INLINE v4u fill_down(v4u gen, v4u prop)
{
	gen |= prop & (gen >> SHIFT1);
	prop &= prop >> SHIFT1;
	gen |= prop & (gen >> SHIFT2);
	prop &= prop >> SHIFT2;
	gen |= prop & (gen >> SHIFT4);
	return gen;
}

INLINE uint64_t moves_of(uint64_t me, uint64_t opp)
{
	v4u o = splat(opp) & LANE_MASK;
	v4u p = splat(me);
	/* The opponent discs reached from my discs; one step past a run is a
	 * move if empty. */
	v4u up = fill_up(p, o) & o;
	v4u down = fill_down(p, o) & o;
	return or_lanes((up << SHIFT1) | (down >> SHIFT1)) & ~(me | opp);
}

/* Rays from each square to the board's edge, per lane direction: up
 * (towards higher bits: +1, +8, +7, +9) and down (-1, -8, -7, -9). */
static v4u ray_up[64], ray_down[64];

__attribute__((constructor)) static void rays_init(void)
{
	static const int dcol[4] = {1, 0, -1, 1}, drow[4] = {0, 1, 1, 1};
	for (int sq = 0; sq < 64; sq++) {
		for (int l = 0; l < 4; l++) {
			for (int way = 1; way >= -1; way -= 2) {
				uint64_t ray = 0;
				int c = sq % 8 + way * dcol[l], r = sq / 8 + way * drow[l];
				for (; c >= 0 && c < 8 && r >= 0 && r < 8; c += way * dcol[l], r += way * drow[l])
					ray |= 1ULL << (r * 8 + c);
				if (way > 0)
					ray_up[sq][l] = ray;
				else
					ray_down[sq][l] = ray;
			}
		}
	}
}

INLINE uint64_t flips_of(uint64_t me, uint64_t opp, int sq)
{
	v4u o = splat(opp), p = splat(me);
	/* Along each ray, the first square that is not the opponent's decides:
	 * if it is mine, the opponent discs before it flip. Upwards that square
	 * is the ray's lowest such bit, downwards its highest. */
	v4u ru = ray_up[sq];
	v4u bu = ru & ~o;
	v4u fu = bu & -bu;
	v4u up = ((fu - 1) & ru) & (v4u)((fu & p) != 0);
	v4u rd = ray_down[sq];
#if defined(__AVX512VL__) && defined(__AVX512CD__)
	v4u bd = rd & ~o;
	/* A count of 64 (no such square) shifts to 0, as the ISA defines. */
	v4u fd = (v4u)_mm256_srlv_epi64((__m256i)splat(1ULL << 63),
		_mm256_lzcnt_epi64((__m256i)bd));
	v4u down = (rd & -(fd << 1)) & (v4u)((fd & p) != 0);
#else
	/* Without a vector leading-zero count, fill the run of opponent discs
	 * from SQ instead. Edge files are masked out of sideways runs, so a
	 * run is empty when SQ's neighbour is off the board. */
	(void)rd;
	v4u x = splat(1ULL << sq);
	v4u run = fill_down(x, o & LANE_MASK);
	v4u down = (v4u)((run >> SHIFT1 & p) != 0) & (run & ~x);
#endif
	return or_lanes(up | down);
}

INLINE int popcount(uint64_t x)
{
	return __builtin_popcountll(x);
}

uint64_t othello_moves(uint64_t me, uint64_t opp)
{
	return moves_of(me, opp);
}

uint64_t othello_flips(uint64_t me, uint64_t opp, int sq)
{
	if (sq < 0 || sq > 63 || ((me | opp) >> sq & 1))
		return 0;
	return flips_of(me, opp, sq);
}

void othello_start(othello_pos *p)
{
	/* Black: d5 (bit 35), e4 (bit 28); white: d4 (27), e5 (36). */
	p->me = 1ULL << 35 | 1ULL << 28;
	p->opp = 1ULL << 27 | 1ULL << 36;
	p->turn = OTHELLO_BLACK;
}

uint64_t othello_black(const othello_pos *p)
{
	return p->turn == OTHELLO_BLACK ? p->me : p->opp;
}

uint64_t othello_white(const othello_pos *p)
{
	return p->turn == OTHELLO_BLACK ? p->opp : p->me;
}

bool othello_over(const othello_pos *p)
{
	return !moves_of(p->me, p->opp) && !moves_of(p->opp, p->me);
}

bool othello_legal(const othello_pos *p, int move)
{
	uint64_t m = moves_of(p->me, p->opp);
	if (move == OTHELLO_PASS)
		return !m && moves_of(p->opp, p->me);
	return move >= 0 && move < 64 && (m >> move & 1);
}

void othello_play(othello_pos *p, int move)
{
	uint64_t me = p->me, opp = p->opp;
	if (move != OTHELLO_PASS) {
		uint64_t f = flips_of(me, opp, move);
		me |= f | 1ULL << move;
		opp ^= f;
	}
	p->me = opp;
	p->opp = me;
	p->turn ^= 1;
	othello_check(p);
}

#define CENTRE (1ULL << 27 | 1ULL << 28 | 1ULL << 35 | 1ULL << 36)

void othello_check(const othello_pos *p)
{
#ifdef YOMI_DEBUG
	if (p->me & p->opp)
		die("othello: internal error: a square holds two discs");
	if (((p->me | p->opp) & CENTRE) != CENTRE)
		die("othello: internal error: an empty centre square");
	if (p->turn != OTHELLO_BLACK && p->turn != OTHELLO_WHITE)
		die("othello: internal error: side to move %d", p->turn);
#else
	(void)p;
#endif
}

const char *othello_parse(const char *board, const char *turn, othello_pos *p)
{
	size_t n = strlen(board);
	if (n != 64)
		return "board must have 64 characters (X, O or -)";
	uint64_t black = 0, white = 0;
	for (int i = 0; i < 64; i++) {
		switch (board[i]) {
		case 'X': black |= 1ULL << i; break;
		case 'O': white |= 1ULL << i; break;
		case '-': break;
		default: return "board may hold only X, O and -";
		}
	}
	if (((black | white) & CENTRE) != CENTRE)
		return "impossible position: a centre square (d4, e4, d5, e5) is empty";
	if (!strcmp(turn, "X") || !strcmp(turn, "black"))
		p->turn = OTHELLO_BLACK;
	else if (!strcmp(turn, "O") || !strcmp(turn, "white"))
		p->turn = OTHELLO_WHITE;
	else
		return "side to move must be X (black) or O (white)";
	p->me = p->turn == OTHELLO_BLACK ? black : white;
	p->opp = p->turn == OTHELLO_BLACK ? white : black;
	return NULL;
}

void othello_format(const othello_pos *p, char out[65])
{
	uint64_t b = othello_black(p), w = othello_white(p);
	for (int i = 0; i < 64; i++)
		out[i] = (b >> i & 1) ? 'X' : (w >> i & 1) ? 'O' : '-';
	out[64] = '\0';
}

int othello_parse_move(const char *s, unsigned n)
{
	if (n == 4 && !memcmp(s, "pass", 4))
		return OTHELLO_PASS;
	if (n != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
		return -1;
	return (s[1] - '1') * 8 + (s[0] - 'a');
}

const char *othello_move_name(int move, char out[5])
{
	if (move == OTHELLO_PASS) {
		memcpy(out, "pass", 5);
	} else {
		out[0] = (char)('a' + move % 8);
		out[1] = (char)('1' + move / 8);
		out[2] = '\0';
	}
	return out;
}

/* PASSED: the previous ply was a pass, so no moves now ends the game. */
static uint64_t perft_rec(uint64_t me, uint64_t opp, int depth, bool passed)
{
	uint64_t m = moves_of(me, opp);
	if (!m) {
		if (passed || !moves_of(opp, me))
			return 1;
		return depth == 1 ? 1 : perft_rec(opp, me, depth - 1, true);
	}
	if (depth == 1)
		return (uint64_t)popcount(m);
	uint64_t n = 0;
	if (depth == 2) {
		/* A child with no move has one leaf below it, pass or end. */
		do {
			int sq = __builtin_ctzll(m);
			uint64_t f = flips_of(me, opp, sq);
			uint64_t c = moves_of(opp ^ f, me | f | 1ULL << sq);
			n += c ? (uint64_t)popcount(c) : 1;
			m &= m - 1;
		} while (m);
		return n;
	}
	do {
		int sq = __builtin_ctzll(m);
		uint64_t f = flips_of(me, opp, sq);
		n += perft_rec(opp ^ f, me | f | 1ULL << sq, depth - 1, false);
		m &= m - 1;
	} while (m);
	return n;
}

uint64_t othello_perft(const othello_pos *p, int depth)
{
	return perft_rec(p->me, p->opp, depth, false);
}

/* The K-th (from 0) set bit of M. PDEP does it in one instruction where
 * it is fast (not on AMD before Zen 3, where it is microcoded); the loop's
 * trip count is random, so it costs a branch miss per call. */
INLINE int nth_bit(uint64_t m, unsigned k)
{
#if defined(__BMI2__) && !defined(__znver1__) && !defined(__znver2__)
	return __builtin_ctzll(_pdep_u64(1ULL << k, m));
#else
	while (k--)
		m &= m - 1;
	return __builtin_ctzll(m);
#endif
}

/* A playout's state. */
typedef struct {
	uint64_t me, opp, m; /* m: the moves of the side to move */
	rng_draw d;
} lane;

INLINE void lane_init(lane *l, const othello_pos *p, rng *r)
{
	l->me = p->me;
	l->opp = p->opp;
	l->m = moves_of(p->me, p->opp);
	l->d = (rng_draw){.r = r};
}

/* One random ply: the move played (or OTHELLO_PASS), or -1 when the game
 * is over. */
INLINE int random_ply(lane *l)
{
	if (l->m) {
		int move = nth_bit(l->m, rng_draw_below(&l->d, (uint32_t)popcount(l->m)));
		uint64_t f = flips_of(l->me, l->opp, move);
		uint64_t next = l->opp ^ f;
		l->opp = l->me | f | 1ULL << move;
		l->me = next;
		l->m = moves_of(l->me, l->opp);
		return move;
	}
	/* No move: the other side's moves decide between a pass and the end,
	 * and after a pass they are the next ply's moves. */
	uint64_t t = moves_of(l->opp, l->me);
	if (!t)
		return -1;
	uint64_t x = l->me;
	l->me = l->opp;
	l->opp = x;
	l->m = t;
	return OTHELLO_PASS;
}

void othello_random_games(const othello_pos *start, rng *r, othello_game *g, int n, bool record)
{
	/* The games are independent, so stepping several in lockstep lets the
	 * processor overlap their dependency chains (a ply is one long chain:
	 * moves, random pick, flips, moves again). */
	lane l[OTHELLO_BATCH];
	int plies[OTHELLO_BATCH];
	unsigned live = 0;
	for (int j = 0; j < n; j++) {
		lane_init(&l[j], &start[j], &r[j]);
		plies[j] = 0;
		live |= 1u << j;
	}
	while (live) {
#pragma GCC unroll 4
		for (int j = 0; j < OTHELLO_BATCH; j++) {
			if (!(live >> j & 1))
				continue;
			int move = random_ply(&l[j]);
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

void othello_random_game(const othello_pos *start, rng *r, othello_game *g, bool record)
{
	othello_random_games(start, r, g, 1, record);
}

int othello_random_result(uint64_t me, uint64_t opp, rng *r)
{
	othello_pos p = {me, opp, OTHELLO_BLACK};
	lane l;
	lane_init(&l, &p, r);
	int plies = 0;
	while (random_ply(&l) >= 0)
		plies++;
	int d = popcount(l.me) - popcount(l.opp);
	return plies & 1 ? -d : d;
}
