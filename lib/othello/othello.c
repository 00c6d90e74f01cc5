#include "othello/othello.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "core/isa.h"
#include "core/util.h"

#define INLINE static inline __attribute__((always_inline))

#define EDGE 0x7e7e7e7e7e7e7e7eULL

/* Rays from each square to the board's edge, per lane direction: up
 * (towards higher bits: +1, +8, +7, +9) and down (-1, -8, -7, -9). */
static uint64_t ray_up_s[64][4] __attribute__((aligned(32))), ray_down_s[64][4] __attribute__((aligned(32)));

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
					ray_up_s[sq][l] = ray;
				else
					ray_down_s[sq][l] = ray;
			}
		}
	}
}

/* A playout's state. */
typedef struct {
	uint64_t me, opp, m; /* m: the moves of the side to move */
	rng_draw d;
} lane;

/* Hashed perft: a bucket is two entries, one cache line. The count of a
 * position two plies from the leaves costs less than a probe. */
enum { PERFT_HASH_MIN = 3 };
typedef struct {
	uint64_t me, opp, n, depth;
} perft_entry;

struct othello_perft_table {
	perft_entry (*b)[2];
	size_t mask;
	void *map; /* the mapping that holds b, and its length */
	size_t map_len;
};

/* The board mirrored left to right, upside down, and about the a1-h8
 * diagonal (delta swaps). */
static inline uint64_t mirror_files(uint64_t x)
{
	x = (x >> 1 & 0x5555555555555555ULL) | (x & 0x5555555555555555ULL) << 1;
	x = (x >> 2 & 0x3333333333333333ULL) | (x & 0x3333333333333333ULL) << 2;
	return (x >> 4 & 0x0F0F0F0F0F0F0F0FULL) | (x & 0x0F0F0F0F0F0F0F0FULL) << 4;
}

static inline uint64_t transpose(uint64_t x)
{
	uint64_t t;
	t = 0x0F0F0F0F00000000ULL & (x ^ x << 28);
	x ^= t ^ t >> 28;
	t = 0x3333000033330000ULL & (x ^ x << 14);
	x ^= t ^ t >> 14;
	t = 0x5500550055005500ULL & (x ^ x << 7);
	x ^= t ^ t >> 7;
	return x;
}

/* The least of the eight images of (ME, OPP) under the board's
 * symmetries, which have the same perft counts: one entry for all. */
static inline void perft_unique(uint64_t *me, uint64_t *opp)
{
	uint64_t m[8], o[8];
	m[0] = *me, o[0] = *opp;
	m[1] = __builtin_bswap64(m[0]), o[1] = __builtin_bswap64(o[0]);
	for (int i = 0; i < 2; i++)
		m[2 + i] = mirror_files(m[i]), o[2 + i] = mirror_files(o[i]);
	for (int i = 0; i < 4; i++)
		m[4 + i] = transpose(m[i]), o[4 + i] = transpose(o[i]);
	int best = 0;
	for (int i = 1; i < 8; i++)
		if (m[i] < m[best] || (m[i] == m[best] && o[i] < o[best]))
			best = i;
	*me = m[best];
	*opp = o[best];
}

static perft_entry *perft_bucket(const othello_perft_table *t, uint64_t me, uint64_t opp, int depth)
{
	uint64_t h = (me ^ rng_mix64(opp + (uint64_t)depth)) * 0x9E3779B97F4A7C15u;
	return t->b[(h ^ h >> 29) & t->mask];
}

/* Entry 0 keeps the deeper subtree (the dearer to count again), entry 1
 * takes whatever entry 0 does not. */
static void perft_store(perft_entry *b, uint64_t me, uint64_t opp, int depth, uint64_t n)
{
	perft_entry e = {me, opp, n, (uint64_t)depth};
	if ((uint64_t)depth >= b[0].depth) {
		if (b[0].depth)
			b[1] = b[0];
		b[0] = e;
	} else {
		b[1] = e;
	}
}

/* What each path provides (othellokern.h). */
typedef struct {
	uint64_t (*moves)(uint64_t me, uint64_t opp);
	uint64_t (*flips)(uint64_t me, uint64_t opp, int sq);
	uint64_t (*perft)(uint64_t me, uint64_t opp, int depth);
	uint64_t (*perft_hashed)(othello_perft_table *t, uint64_t me, uint64_t opp, int depth);
	void (*random_games)(const othello_pos *start, rng *r, othello_game *g, int n, bool record);
	int (*random_result)(uint64_t me, uint64_t opp, rng *r);
} othello_kernels;

/* Set with the path: PDEP is microcoded on some processors. */
static bool slow_pdep;

#define KERN_PATH 0
#define KERN(x) x##_base
#include "othello/othellokern.h"
#undef KERN_PATH
#undef KERN

#if defined(__x86_64__)
/* Four directions at once: GCC vector lanes for shifts by 1 (along a
 * row), 8 (along a column), 7 and 9 (the diagonals), each used both ways.
 * The propagating discs are masked so that no run wraps from the h-file
 * onto the a-file or back; columns cannot wrap, so their mask is full.
 * Only the vector paths of othellokern.h use them, so they are built
 * for AVX2 (which the AVX-512 path includes). */
typedef uint64_t v4u __attribute__((vector_size(32)));
ISA_BEGIN_AVX2
/* The vector helpers are always inlined, so no vector crosses a call and
 * the warning about the AVX calling convention does not apply. */
#pragma GCC diagnostic ignored "-Wpsabi"
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
ISA_END

#define ray_up(sq) (*(const v4u *)ray_up_s[sq])
#define ray_down(sq) (*(const v4u *)ray_down_s[sq])

#define KERN_PATH 1
#define KERN(x) x##_avx2
ISA_BEGIN_AVX2
#include "othello/othellokern.h"
ISA_END
#undef KERN_PATH
#undef KERN

#define KERN_PATH 2
#define KERN(x) x##_avx512
ISA_BEGIN_AVX512
#include "othello/othellokern.h"
ISA_END
#undef KERN_PATH
#undef KERN
#endif

static const othello_kernels *const paths[ISA_NPATHS] = {
	&kernels_base,
#if defined(__x86_64__)
	&kernels_avx2, &kernels_avx512,
#else
	&kernels_base, &kernels_base,
#endif
};

static const othello_kernels *kern(void)
{
	static int known = -1;
	isa_path_id p = isa_path();
	if ((int)p != known) {
		slow_pdep = isa_slow_pdep();
		known = (int)p;
	}
	return paths[p];
}

#define moves_of(me, opp) kern()->moves(me, opp)
#define flips_of(me, opp, sq) kern()->flips(me, opp, sq)

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

/* OTHELLO_BLACK or OTHELLO_WHITE for a side to move's text, else -1. */
static int parse_turn(const char *turn, size_t n)
{
	if ((n == 1 && turn[0] == 'X') || (n == 5 && !memcmp(turn, "black", 5)))
		return OTHELLO_BLACK;
	if ((n == 1 && turn[0] == 'O') || (n == 5 && !memcmp(turn, "white", 5)))
		return OTHELLO_WHITE;
	return -1;
}

const char *othello_parse(const char *board, const char *turn, othello_pos *p)
{
	size_t n = strlen(board);
	/* Edax's form: the side to move after the squares, with or without a
	 * space. */
	int side = -1;
	if (n == 65 || (n == 66 && board[64] == ' ')) {
		side = parse_turn(board + n - 1, 1);
		if (side < 0)
			return "side to move after the board must be X (black) or O (white)";
	} else if (n != 64) {
		return "board must have 64 characters (X, O, - or .), or 65 with the side to move "
		       "appended";
	}
	uint64_t black = 0, white = 0;
	for (int i = 0; i < 64; i++) {
		switch (board[i]) {
		case 'X': black |= 1ULL << i; break;
		case 'O': white |= 1ULL << i; break;
		case '-':
		case '.': break;
		default: return "board may hold only X, O, - and .";
		}
	}
	if (((black | white) & CENTRE) != CENTRE)
		return "impossible position: a centre square (d4, e4, d5, e5) is empty";
	int t = turn && *turn ? parse_turn(turn, strlen(turn)) : side;
	if (turn && *turn && t < 0)
		return "side to move must be X (black) or O (white)";
	if (t < 0)
		return "no side to move: a column 'turn', or X or O after the board";
	if (side >= 0 && t != side)
		return "the side to move after the board and the turn differ";
	p->turn = t;
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

int othello_move_list(const othello_pos *p, int moves[64])
{
	uint64_t m = othello_moves(p->me, p->opp);
	int n = 0;
	if (!m)
		moves[n++] = OTHELLO_PASS;
	for (; m; m &= m - 1)
		moves[n++] = __builtin_ctzll(m);
	return n;
}

int othello_parse_move(const char *s, unsigned n)
{
	if (n == 4 && !strncasecmp(s, "pass", 4))
		return OTHELLO_PASS;
	if (n != 2)
		return -1;
	int file = s[0] >= 'A' && s[0] <= 'H' ? s[0] - 'A' : s[0] - 'a';
	if (file < 0 || file > 7 || s[1] < '1' || s[1] > '8')
		return -1;
	return (s[1] - '1') * 8 + file;
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

uint64_t othello_perft(const othello_pos *p, int depth)
{
	return kern()->perft(p->me, p->opp, depth);
}

/* The buckets: zeroed pages from the kernel, aligned to 2 MB and marked
 * for huge pages where the kernel gives them on request, as a table of
 * gigabytes on 4 KB pages takes a page fault every 4 KB. */
static void perft_table_map(othello_perft_table *t, size_t n)
{
	const size_t huge = (size_t)2 << 20, bytes = n * sizeof *t->b;
	t->map_len = bytes + huge;
	t->map = mmap(NULL, t->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t->map == MAP_FAILED)
		die("out of memory (a perft table of %zu bytes): %s", bytes, strerror(errno));
	uintptr_t at = ((uintptr_t)t->map + huge - 1) & ~(uintptr_t)(huge - 1);
#ifdef MADV_HUGEPAGE
	madvise((void *)at, bytes, MADV_HUGEPAGE); /* a hint: without it, small pages */
#endif
	/* Every page touched now, so that setting up the table is not counted
	 * in the first depths' times (a virtual machine's host may fault
	 * again behind the guest's back at a first touch). */
	for (size_t off = 0; off < bytes; off += 4096)
		((volatile char *)at)[off] = 0;
	t->b = (perft_entry(*)[2])at;
}

othello_perft_table *othello_perft_table_new(size_t bytes)
{
	othello_perft_table *t = xcalloc(1, sizeof *t);
	size_t n = 64;
	while (n * 2 * sizeof(perft_entry[2]) <= bytes)
		n *= 2;
	perft_table_map(t, n);
	t->mask = n - 1;
	return t;
}

void othello_perft_table_free(othello_perft_table *t)
{
	if (!t)
		return;
	munmap(t->map, t->map_len);
	free(t);
}

uint64_t othello_perft_hashed(const othello_pos *p, int depth, othello_perft_table *t)
{
	return kern()->perft_hashed(t, p->me, p->opp, depth);
}

void othello_random_games(const othello_pos *start, rng *r, othello_game *g, int n, bool record)
{
	kern()->random_games(start, r, g, n, record);
}

void othello_random_game(const othello_pos *start, rng *r, othello_game *g, bool record)
{
	kern()->random_games(start, r, g, 1, record);
}

int othello_random_result(uint64_t me, uint64_t opp, rng *r)
{
	return kern()->random_result(me, opp, r);
}
