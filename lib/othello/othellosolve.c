#include "othello/othellosolve.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/util.h"

/* Scores lie in [-64, 64]; INF is beyond them. */
enum { INF = 127 };
/* Up to this many empty squares a node searches without the table and
 * orders its moves by parity and square type only: the tree below is
 * too small to repay more. */
enum { SHALLOW = 6 };
/* From this many empty squares on, a node looks its children up in the
 * table before searching any (enhanced transposition cut-off). */
enum { ETC_EMPTIES = 10 };
/* Stability cut-offs from this many empty squares on, and only when the
 * window is high enough for them to succeed now and then. */
enum { STABLE_EMPTIES = 5 };

#define CORNERS 0x8100000000000081ULL
/* b2 g2 b7 g7, which give the corner away. */
#define XSQUARES 0x0042000000004200ULL
/* The edge squares next to a corner. */
#define CSQUARES 0x4281000000008142ULL
#define FILE_A 0x0101010101010101ULL
#define FILE_H 0x8080808080808080ULL
#define RANK_1 0x00000000000000ffULL
#define RANK_8 0xff00000000000000ULL

static inline int popcount(uint64_t x)
{
	return __builtin_popcountll(x);
}

static inline uint64_t bit(int sq)
{
	return 1ULL << sq;
}

/* Quadrants (a1-d4, e1-h4, a5-d8, e5-h8) as bits 0-3: a quadrant's bit in
 * the parity is set when it holds an odd number of empty squares. */
static inline int quadrant(int sq)
{
	return (sq >> 2 & 1) | (sq >> 4 & 2);
}

static const uint64_t QUADRANT[4] = {
	0x000000000f0f0f0fULL, 0x00000000f0f0f0f0ULL,
	0x0f0f0f0f00000000ULL, 0xf0f0f0f000000000ULL,
};

/* The squares of the quadrants whose parity bit is set, by parity. */
static uint64_t odd_squares[16];

/* Move order in shallow nodes: corners, then the squares that give
 * nothing away, then the edge squares next to corners, then the
 * diagonal neighbours of corners. */
static const uint64_t PRIORITY[4] = {
	CORNERS, ~(CORNERS | XSQUARES | CSQUARES), CSQUARES, XSQUARES,
};

typedef struct {
	uint64_t me, opp;
	int8_t lower, upper; /* bounds on the score for the side to move */
	uint8_t move;        /* the best move found, or 64 */
	uint8_t empties;     /* a proxy for the work the entry saves */
	uint32_t gen;        /* entries of older generations are free */
} tt_entry;

/* Two entries to a cache line: a probe reads one line. */
typedef struct {
	_Alignas(64) tt_entry e[2];
} tt_bucket;

struct othellosolve {
	tt_bucket *tt;
	size_t mask;    /* of the bucket index */
	uint32_t gen;
	uint64_t nodes;
};

/* Rays from each square to the edge, towards higher bits (E, N, NW, NE)
 * and towards lower bits (W, S, SE, SW), for the last square's flips. */
static uint64_t ray_up[64][4], ray_down[64][4];
/* Stable discs of an edge line (8 squares in bit order) for the side
 * owning P against O: discs no sequence of moves on the line can flip. */
static uint8_t edge_stable[256][256];
/* The 8 bits of a byte spread down file a (bit i to square 8i). */
static uint64_t file_of_byte[256];
/* Diagonals of 2 squares or more, in pairs: one in the a1-h8 direction,
 * one in the a8-h1 direction. */
static uint64_t diagonals[26];

static void rays_init(void)
{
	static const int dcol[4] = {1, 0, -1, 1}, drow[4] = {0, 1, 1, 1};
	for (int sq = 0; sq < 64; sq++)
		for (int d = 0; d < 4; d++)
			for (int way = 1; way >= -1; way -= 2) {
				uint64_t ray = 0;
				int c = sq % 8 + way * dcol[d], r = sq / 8 + way * drow[d];
				for (; c >= 0 && c < 8 && r >= 0 && r < 8;
				     c += way * dcol[d], r += way * drow[d])
					ray |= bit(r * 8 + c);
				if (way > 0)
					ray_up[sq][d] = ray;
				else
					ray_down[sq][d] = ray;
			}
}

/* The line P, O after colour P (MINE) or O plays on empty square E:
 * the runs of the other colour it brackets along the line flip. */
static void line_play(unsigned *p, unsigned *o, int e, bool mine)
{
	unsigned *me = mine ? p : o, *them = mine ? o : p;
	*me |= 1u << e;
	for (int dir = -1; dir <= 1; dir += 2) {
		unsigned run = 0;
		int k = e + dir;
		while (k >= 0 && k < 8 && (*them >> k & 1)) {
			run |= 1u << k;
			k += dir;
		}
		if (run && k >= 0 && k < 8 && (*me >> k & 1)) {
			*me |= run;
			*them &= ~run;
		}
	}
}

/* Fills edge_stable for lines with more discs before lines with fewer:
 * a disc is stable when it is there and stays stable after every move
 * either side could make on any empty square of the line (moves on an
 * edge may flip nothing along it, through other lines). */
static void edge_init(void)
{
	for (int filled = 8; filled >= 0; filled--) {
		for (unsigned f = 0; f < 256; f++) {
			if (popcount(f) != filled)
				continue;
			for (unsigned p = f;; p = (p - 1) & f) {
				unsigned o = f & ~p, st = p;
				for (int e = 0; e < 8 && st; e++) {
					if (f >> e & 1)
						continue;
					for (int c = 0; c < 2; c++) {
						unsigned np = p, no = o;
						line_play(&np, &no, e, c == 0);
						st &= edge_stable[np][no];
					}
				}
				edge_stable[p][o] = (uint8_t)st;
				if (!p)
					break;
			}
		}
	}
}

__attribute__((constructor)) static void solve_init(void)
{
	rays_init();
	edge_init();
	for (int par = 0; par < 16; par++)
		for (int q = 0; q < 4; q++)
			if (par >> q & 1)
				odd_squares[par] |= QUADRANT[q];
	for (unsigned b = 0; b < 256; b++)
		for (int i = 0; i < 8; i++)
			if (b >> i & 1)
				file_of_byte[b] |= bit(8 * i);
	int n = 0;
	for (int start = -6; start <= 6; start++) {
		uint64_t d1 = 0, d2 = 0;
		for (int r = 0; r < 8; r++) {
			int c1 = r + start, c2 = 7 - r + start;
			if (c1 >= 0 && c1 < 8)
				d1 |= bit(r * 8 + c1);
			if (c2 >= 0 && c2 < 8)
				d2 |= bit(r * 8 + c2);
		}
		diagonals[n++] = d1;
		diagonals[n++] = d2;
	}
}

/* File a of X as a byte (square 8i to bit i). */
static inline unsigned file_a_byte(uint64_t x)
{
	return (unsigned)(((x & FILE_A) * 0x0102040810204080ULL) >> 56);
}

/* Squares whose line in each direction is full, as four masks. */
typedef struct {
	uint64_t row, col, diag9, diag7;
} full_lines;

static full_lines get_full(uint64_t occ)
{
	full_lines f = {0, 0, 0, 0};
	for (int r = 0; r < 8; r++)
		if ((occ >> 8 * r & 0xff) == 0xff)
			f.row |= RANK_1 << 8 * r;
	uint64_t v = occ & occ >> 32;
	v &= v >> 16;
	v &= v >> 8;
	f.col = (v & 0xff) * FILE_A;
	for (int i = 0; i < 26; i += 2) {
		if ((occ & diagonals[i]) == diagonals[i])
			f.diag9 |= diagonals[i];
		if ((occ & diagonals[i + 1]) == diagonals[i + 1])
			f.diag7 |= diagonals[i + 1];
	}
	/* The corners' one-square diagonals are always full when taken. */
	f.diag9 |= 0x0100000000000080ULL;
	f.diag7 |= 0x0000000000000001ULL | 0x8000000000000000ULL;
	return f;
}

/* Discs of P that no sequence of moves can flip: stable edge discs and
 * discs on four full lines, then, until nothing changes, discs each of
 * whose lines is full or ends at the edge or a stable disc of P next to
 * them. A lower bound on the discs P keeps to the end. */
static uint64_t stable_discs(uint64_t p, uint64_t o)
{
	uint64_t occ = p | o;
	full_lines f = get_full(occ);
	uint64_t st = edge_stable[p & 0xff][o & 0xff];
	st |= (uint64_t)edge_stable[p >> 56][o >> 56] << 56;
	st |= file_of_byte[edge_stable[file_a_byte(p)][file_a_byte(o)]];
	st |= file_of_byte[edge_stable[file_a_byte(p >> 7)][file_a_byte(o >> 7)]] << 7;
	st &= p;
	const uint64_t edge = FILE_A | FILE_H | RANK_1 | RANK_8;
	uint64_t inner = p & ~edge & f.row & f.col & f.diag9 & f.diag7;
	st |= inner;
	uint64_t cand = p & ~edge & ~st;
	for (;;) {
		uint64_t h = f.row | st << 1 | st >> 1;
		uint64_t v = f.col | st << 8 | st >> 8;
		uint64_t d9 = f.diag9 | st << 9 | st >> 9;
		uint64_t d7 = f.diag7 | st << 7 | st >> 7;
		uint64_t add = cand & h & v & d9 & d7;
		if (!add)
			return st;
		st |= add;
		cand &= ~add;
	}
}

uint64_t othellosolve_stable(uint64_t me, uint64_t opp)
{
	return stable_discs(me, opp);
}

int othellosolve_final(uint64_t me, uint64_t opp)
{
	int m = popcount(me), o = popcount(opp), e = 64 - m - o;
	return m > o ? m - o + e : m < o ? m - o - e : 0;
}

/* Discs the side owning ME flips by playing SQ, the one empty square
 * left: every other square holds a disc, so along each ray the
 * opponent's discs up to the first of ME's flip. */
static inline int last_flips(uint64_t me, int sq)
{
	int n = 0;
	for (int d = 0; d < 4; d++) {
		uint64_t up = ray_up[sq][d], b = up & me;
		if (b)
			n += popcount(up & ((b & -b) - 1));
		uint64_t down = ray_down[sq][d];
		b = down & me;
		if (b)
			n += popcount(down & ~((2ULL << (63 - __builtin_clzll(b))) - 1));
	}
	return n;
}

/* The score of the side owning ME (everything but SQ is a disc of one
 * side) with SQ the last empty square. Below ALPHA + 1 it may return any
 * bound at least the score and at most ALPHA. */
static inline int solve_1(uint64_t me, int sq, int alpha)
{
	int mine = popcount(me);
	int n = last_flips(me, sq);
	if (n)
		return 2 * (mine + n + 1) - 64;
	/* The opponent plays, or nobody does and the square goes to the
	 * winner: at best 2 * mine - 62. */
	int high = 2 * mine - 62;
	if (high <= alpha)
		return high;
	n = last_flips(~(me | bit(sq)), sq);
	if (n)
		return 2 * (mine - n) - 64;
	return 2 * mine - 63 > 0 ? high : high - 2;
}

static int solve_2(othellosolve *s, uint64_t me, uint64_t opp, int alpha, bool passed)
{
	s->nodes++;
	uint64_t empty = ~(me | opp);
	int x1 = __builtin_ctzll(empty), x2 = __builtin_ctzll(empty & (empty - 1));
	int best = -INF;
	uint64_t f = othello_flips(me, opp, x1);
	if (f) {
		s->nodes++;
		best = -solve_1(opp ^ f, x2, -alpha - 1);
		if (best > alpha)
			return best;
	}
	f = othello_flips(me, opp, x2);
	if (f) {
		s->nodes++;
		int score = -solve_1(opp ^ f, x1, -alpha - 1);
		return score > best ? score : best;
	}
	if (best > -INF)
		return best;
	if (passed)
		return othellosolve_final(me, opp);
	return -solve_2(s, opp, me, -alpha - 1, true);
}

#ifdef YOMI_DEBUG
static void check_node(uint64_t me, uint64_t opp, int alpha, int n)
{
	if (me & opp)
		die("othellosolve: internal error: a square holds two discs");
	if (popcount(~(me | opp)) != n)
		die("othellosolve: internal error: %d empty squares counted as %d",
		    popcount(~(me | opp)), n);
	if (alpha < -64 || alpha >= 64)
		die("othellosolve: internal error: null window at %d", alpha);
}

static int check_score(int score)
{
	if (score < -64 || score > 64 || (score & 1))
		die("othellosolve: internal error: score %d", score);
	return score;
}
#define CHECK_NODE(me, opp, alpha, n) check_node(me, opp, alpha, n)
#define CHECKED(score) check_score(score)
#else
#define CHECK_NODE(me, opp, alpha, n) ((void)0)
#define CHECKED(score) (score)
#endif

static int nws(othellosolve *s, uint64_t me, uint64_t opp, int alpha, int n, int parity);

/* The opponent keeps its stable discs, so the score is at most 64 less
 * twice their number: when that is no more than ALPHA, *HIGH gets it.
 * Stable discs are few while many squares are empty, and a low window
 * is out of their reach, so the count is made only for high windows. */
static inline bool stability_cut(uint64_t me, uint64_t opp, int alpha, int n, int *high)
{
	if (alpha < 64 - 2 * popcount(opp) || alpha < 2 * n + 8)
		return false;
	*high = 64 - 2 * popcount(stable_discs(opp, me));
	return *high <= alpha;
}

/* A null window search near the end: is the score above ALPHA? Moves
 * in the quadrants with an odd number of empty squares first (the side
 * that plays last in a region gains), each group by square type. */
static int nws_shallow(othellosolve *s, uint64_t me, uint64_t opp, int alpha, int n, int parity)
{
	CHECK_NODE(me, opp, alpha, n);
	s->nodes++;
	uint64_t moves = othello_moves(me, opp);
	if (!moves) {
		if (!othello_moves(opp, me))
			return othellosolve_final(me, opp);
		return -nws_shallow(s, opp, me, -alpha - 1, n, parity);
	}
	int high;
	if (n >= STABLE_EMPTIES && stability_cut(me, opp, alpha, n, &high))
		return high;
	int best = -INF;
	uint64_t odd = odd_squares[parity];
	for (int half = 0; half < 2; half++) {
		uint64_t group = moves & (half ? ~odd : odd);
		for (int k = 0; k < 4 && group; k++) {
			for (uint64_t m = group & PRIORITY[k]; m; m &= m - 1) {
				int sq = __builtin_ctzll(m);
				uint64_t f = othello_flips(me, opp, sq);
				uint64_t cme = opp ^ f, copp = me | f | bit(sq);
				int score = n == 3 ? -solve_2(s, cme, copp, -alpha - 1, false)
						   : -nws_shallow(s, cme, copp, -alpha - 1, n - 1,
								  parity ^ 1 << quadrant(sq));
				if (score > best) {
					best = score;
					if (best > alpha)
						return best;
				}
			}
		}
	}
	return best;
}

/* The transposition table: pairs of entries, the newer or costlier kept. */
static inline uint64_t hash_of(uint64_t me, uint64_t opp)
{
	uint64_t h = me * 0x9e3779b97f4a7c15ULL ^ (opp + 0x632be59bd9b4e019ULL) * 0xc2b2ae3d27d4eb4fULL;
	return h ^ h >> 29;
}

static inline tt_bucket *tt_bucket_of(othellosolve *s, uint64_t me, uint64_t opp)
{
	return &s->tt[hash_of(me, opp) & s->mask];
}

static tt_entry *tt_find(othellosolve *s, tt_bucket *b, uint64_t me, uint64_t opp)
{
	for (int i = 0; i < 2; i++)
		if (b->e[i].gen == s->gen && b->e[i].me == me && b->e[i].opp == opp)
			return &b->e[i];
	return NULL;
}

static void tt_store(othellosolve *s, tt_bucket *b, uint64_t me, uint64_t opp, int n, int lower,
		     int upper, int move)
{
	tt_entry *e = b->e, *slot = tt_find(s, b, me, opp);
	if (slot) {
		if (lower < slot->lower)
			lower = slot->lower;
		if (upper > slot->upper)
			upper = slot->upper;
		if (move == 64)
			move = slot->move;
	} else {
		/* The older generation, else the one with fewer empties. */
		bool old0 = e[0].gen != s->gen, old1 = e[1].gen != s->gen;
		slot = old0 ? &e[0] : old1 ? &e[1] : e[0].empties <= e[1].empties ? &e[0] : &e[1];
	}
	*slot = (tt_entry){me, opp, (int8_t)lower, (int8_t)upper, (uint8_t)move, (uint8_t)n, s->gen};
}

/* A move and the order it is tried in. */
typedef struct {
	uint64_t flips;
	int sq, score;
} move;

/* Empty squares next to a disc of X: where X's opponent might one day
 * move. */
static inline uint64_t frontier(uint64_t x, uint64_t empty)
{
	uint64_t w = x & ~FILE_A, e = x & ~FILE_H;
	uint64_t n = w >> 1 | e << 1 | x << 8 | x >> 8 | w << 7 | w >> 9 | e << 9 | e >> 7;
	return n & empty;
}

/* Stable discs of P on the four edges. */
static inline uint64_t edge_discs(uint64_t p, uint64_t o)
{
	uint64_t st = edge_stable[p & 0xff][o & 0xff];
	st |= (uint64_t)edge_stable[p >> 56][o >> 56] << 56;
	st |= file_of_byte[edge_stable[file_a_byte(p)][file_a_byte(o)]];
	st |= file_of_byte[edge_stable[file_a_byte(p >> 7)][file_a_byte(o >> 7)]] << 7;
	return st & p;
}

/* Fastest first: the fewer replies (corners counted twice), the sooner a
 * move is tried; then the more stable edge discs and moves of our own
 * after it, the fewer squares the opponent might reach later, an odd
 * region and a good square type break ties. The table's move and
 * wipe-outs come before all. Child table entries are fetched into the
 * cache on the way, for the enhanced transposition cut-off and the
 * child's own probe. */
static int list_moves(othellosolve *s, uint64_t me, uint64_t opp, uint64_t moves, int ttmove,
		      int parity, move *list)
{
	int n = 0;
	for (; moves; moves &= moves - 1) {
		int sq = __builtin_ctzll(moves);
		uint64_t f = othello_flips(me, opp, sq);
		uint64_t cme = opp ^ f, copp = me | f | bit(sq);
		__builtin_prefetch(tt_bucket_of(s, cme, copp));
		int score;
		if (sq == ttmove) {
			score = 1 << 30;
		} else if (!cme) {
			score = 1 << 29;
		} else {
			uint64_t reply = othello_moves(cme, copp);
			score = -(popcount(reply) + popcount(reply & CORNERS)) * (1 << 16);
			score += popcount(edge_discs(copp, cme)) * (1 << 13);
			score += popcount(othello_moves(copp, cme)) * (1 << 12);
			score -= popcount(frontier(copp, ~(cme | copp))) * (1 << 6);
			if (parity >> quadrant(sq) & 1)
				score += 1 << 3;
			if (bit(sq) & CORNERS)
				score += 1 << 4;
			else if (bit(sq) & XSQUARES)
				score -= 1 << 4;
		}
		list[n++] = (move){f, sq, score};
	}
	return n;
}

/* Moves LIST[I..N-1]'s best to I and returns it. */
static inline move *next_best(move *list, int i, int n)
{
	int b = i;
	for (int k = i + 1; k < n; k++)
		if (list[k].score > list[b].score)
			b = k;
	move t = list[i];
	list[i] = list[b];
	list[b] = t;
	return &list[i];
}

/* Enhanced transposition cut-off: a child the table already knows to
 * be bad enough for the opponent settles the node. */
static int etc(othellosolve *s, uint64_t me, uint64_t opp, int alpha, const move *list, int nm)
{
	for (int i = 0; i < nm; i++) {
		uint64_t cme = opp ^ list[i].flips, copp = me | list[i].flips | bit(list[i].sq);
		tt_entry *e = tt_find(s, tt_bucket_of(s, cme, copp), cme, copp);
		if (e && -e->upper > alpha)
			return -e->upper;
	}
	return -INF;
}

/* A null window search far from the end: stability cut-off, then the
 * table, then the moves fastest first. */
static int nws_deep(othellosolve *s, uint64_t me, uint64_t opp, int alpha, int n, int parity)
{
	CHECK_NODE(me, opp, alpha, n);
	s->nodes++;
	tt_bucket *b = tt_bucket_of(s, me, opp);
	__builtin_prefetch(b);
	int high;
	if (stability_cut(me, opp, alpha, n, &high))
		return high;
	tt_entry *e = tt_find(s, b, me, opp);
	int ttmove = 64;
	if (e) {
		if (e->lower > alpha)
			return e->lower;
		if (e->upper <= alpha)
			return e->upper;
		ttmove = e->move;
	}
	uint64_t moves = othello_moves(me, opp);
	if (!moves) {
		if (!othello_moves(opp, me))
			return othellosolve_final(me, opp);
		return -nws_deep(s, opp, me, -alpha - 1, n, parity);
	}
	move list[32];
	int nm = list_moves(s, me, opp, moves, ttmove, parity, list);
	if (n >= ETC_EMPTIES) {
		int score = etc(s, me, opp, alpha, list, nm);
		if (score > alpha)
			return score;
	}
	int best = -INF, best_sq = 64;
	for (int i = 0; i < nm; i++) {
		move *m = next_best(list, i, nm);
		uint64_t cme = opp ^ m->flips, copp = me | m->flips | bit(m->sq);
		int score = -nws(s, cme, copp, -alpha - 1, n - 1, parity ^ 1 << quadrant(m->sq));
		if (score > best) {
			best = score;
			best_sq = m->sq;
			if (best > alpha)
				break;
		}
	}
	if (best > alpha)
		tt_store(s, b, me, opp, n, best, 64, best_sq);
	else
		tt_store(s, b, me, opp, n, -64, best, 64);
	return best;
}

static int parity_of(uint64_t empty)
{
	int p = 0;
	for (int q = 0; q < 4; q++)
		p |= (popcount(empty & QUADRANT[q]) & 1) << q;
	return p;
}

/* Whether the score is above ALPHA, by the number of empty squares. */
static int nws(othellosolve *s, uint64_t me, uint64_t opp, int alpha, int n, int parity)
{
	int score;
	if (n == 0) {
		s->nodes++;
		score = othellosolve_final(me, opp);
	} else if (n == 1) {
		s->nodes++;
		score = solve_1(me, __builtin_ctzll(~(me | opp)), alpha);
	} else if (n == 2) {
		score = solve_2(s, me, opp, alpha, false);
	} else if (n <= SHALLOW) {
		score = nws_shallow(s, me, opp, alpha, n, parity);
	} else {
		score = nws_deep(s, me, opp, alpha, n, parity);
	}
	return CHECKED(score);
}

/* One null window search of the root: the first move of LIST (in its
 * order) whose score is above ALPHA goes to the front and into *BEST_SQ. */
static int root_probe(othellosolve *s, uint64_t me, uint64_t opp, int alpha, int n, move *list,
		      int nm, int *best_sq)
{
	s->nodes++;
	int best = -INF, parity = parity_of(~(me | opp));
	for (int i = 0; i < nm; i++) {
		uint64_t f = list[i].flips, cme = opp ^ f, copp = me | f | bit(list[i].sq);
		int score = -nws(s, cme, copp, -alpha - 1, n - 1, parity ^ 1 << quadrant(list[i].sq));
		if (score > best) {
			best = score;
			if (best > alpha) {
				move m = list[i];
				memmove(list + 1, list, (size_t)i * sizeof *list);
				list[0] = m;
				*best_sq = m.sq;
				return best;
			}
		}
	}
	return best;
}

/* The exact score by null windows alone: probes gallop from 0 (is the
 * score above -1, 1, 5, 13...?) until one fails the other way, then
 * bisect what is left. Each probe is far cheaper than a search with a
 * wide window, and the table carries what one probe learnt to the next.
 * *BEST_SQ gets a move that reaches the score. */
static int root_search(othellosolve *s, uint64_t me, uint64_t opp, int *best_sq)
{
	int n = popcount(~(me | opp));
	uint64_t moves = othello_moves(me, opp);
	if (!moves) {
		*best_sq = OTHELLO_PASS;
		if (!othello_moves(opp, me))
			return othellosolve_final(me, opp);
		int sq;
		return -root_search(s, opp, me, &sq);
	}
	move list[32];
	int nm = list_moves(s, me, opp, moves, 64, parity_of(~(me | opp)), list);
	for (int i = 0; i < nm; i++)
		next_best(list, i, nm);
	/* Should every probe fail low, the score is -64 and any move has it. */
	*best_sq = list[0].sq;
	int lo = -64, hi = 64, alpha = -1, step = 2;
	enum { UP, DOWN, BISECT, START } way = START;
	while (lo < hi) {
		alpha = alpha <= lo ? lo + 1 : alpha >= hi ? hi - 1 : alpha;
		int score = root_probe(s, me, opp, alpha, n, list, nm, best_sq);
		if (score > alpha) {
			lo = score;
			way = way == DOWN || way == BISECT ? BISECT : UP;
		} else {
			hi = score;
			way = way == UP || way == BISECT ? BISECT : DOWN;
		}
		if (way == BISECT) {
			alpha = ((lo + hi) / 2) | 1;
		} else {
			alpha += way == UP ? step : -step;
			step *= 2;
		}
	}
	return CHECKED(lo);
}

othellosolve *othellosolve_new(int bits)
{
	if (bits < 10 || bits > 28)
		die("othellosolve: table of 2^%d entries: bits must be 10 to 28", bits);
	othellosolve *s = xcalloc(1, sizeof *s);
	size_t n = (size_t)1 << (bits - 1);
	size_t bytes = n * sizeof *s->tt, align = 2u << 20;
	s->tt = aligned_alloc(bytes < align ? 64 : align, bytes);
	if (!s->tt)
		die("out of memory for a table of 2^%d positions", bits);
#ifdef MADV_HUGEPAGE
	/* Probes land anywhere in the table: with 4 KB pages nearly each one
	 * also misses the TLB. */
	madvise(s->tt, bytes, MADV_HUGEPAGE);
#endif
	memset(s->tt, 0, bytes);
	s->mask = n - 1;
	s->gen = 1;
	return s;
}

void othellosolve_free(othellosolve *s)
{
	if (!s)
		return;
	free(s->tt);
	free(s);
}

void othellosolve_forget(othellosolve *s)
{
	if (++s->gen == 0) {
		memset(s->tt, 0, (s->mask + 1) * sizeof *s->tt);
		s->gen = 1;
	}
}

uint64_t othellosolve_nodes(const othellosolve *s)
{
	return s->nodes;
}

static int empties_of(const othello_pos *p)
{
	return popcount(~(p->me | p->opp));
}

int othellosolve_best(othellosolve *s, const othello_pos *p, int *move)
{
	return root_search(s, p->me, p->opp, move);
}

int othellosolve_move(othellosolve *s, const othello_pos *p, int move)
{
	othello_pos c = *p;
	othello_play(&c, move);
	int sq;
	return -root_search(s, c.me, c.opp, &sq);
}

bool othellosolve_above(othellosolve *s, const othello_pos *p, int alpha)
{
	int n = empties_of(p);
	return nws(s, p->me, p->opp, alpha, n, parity_of(~(p->me | p->opp))) > alpha;
}
