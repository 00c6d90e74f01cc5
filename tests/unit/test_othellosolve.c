/* The endgame solver against a plain minimax on random positions with up
 * to 10 empty squares, every move's score, the best move replayed, null
 * window answers, and stable discs that random continuations never flip. */
#include <stdbool.h>
#include <stdlib.h>

#include "core/rng.h"
#include "core/util.h"
#include "othello/othello.h"
#include "othello/othellosolve.h"
#include "unit.h"

/* Negamax over every line to the end, nothing pruned. */
static int minimax(uint64_t me, uint64_t opp, bool passed)
{
	uint64_t m = othello_moves(me, opp);
	if (!m)
		return passed ? othellosolve_final(me, opp) : -minimax(opp, me, true);
	int best = -65;
	for (; m; m &= m - 1) {
		int sq = __builtin_ctzll(m);
		uint64_t f = othello_flips(me, opp, sq);
		int v = -minimax(opp ^ f, me | f | 1ULL << sq, false);
		if (v > best)
			best = v;
	}
	return best;
}

/* A position with E empty squares from a random game of stream I, or
 * false when that game ended sooner. */
static bool random_position(int e, uint64_t i, othello_pos *p)
{
	rng r;
	rng_stream(&r, 29, i);
	othello_start(p);
	while (__builtin_popcountll(~(p->me | p->opp)) > e) {
		if (othello_over(p))
			return false;
		uint64_t m = othello_moves(p->me, p->opp);
		if (!m) {
			othello_play(p, OTHELLO_PASS);
			continue;
		}
		uint32_t k = rng_below32(&r, (uint32_t)__builtin_popcountll(m));
		while (k--)
			m &= m - 1;
		othello_play(p, __builtin_ctzll(m));
	}
	return !othello_over(p);
}

/* Solver and minimax on COUNT positions with E empties; counts the
 * positions where the side to move must pass into *PASSES. */
static void against_minimax(othellosolve *s, int e, int count, int *passes)
{
	int positions = 0, bad_best = 0, bad_move = 0, bad_replay = 0, bad_window = 0;
	for (uint64_t i = 0; positions < count; i++) {
		othello_pos p;
		if (!random_position(e, (uint64_t)e << 20 | i, &p))
			continue;
		positions++;
		othellosolve_forget(s);
		int want = minimax(p.me, p.opp, false), move;
		int got = othellosolve_best(s, &p, &move);
		bad_best += got != want;
		bad_replay += !othello_legal(&p, move) || othellosolve_move(s, &p, move) != want;
		uint64_t m = othello_moves(p.me, p.opp);
		if (!m) {
			(*passes)++;
			othello_pos c = p;
			othello_play(&c, OTHELLO_PASS);
			bad_move += othellosolve_move(s, &p, OTHELLO_PASS) != -minimax(c.me, c.opp, true);
		}
		for (; m; m &= m - 1) {
			othello_pos c = p;
			othello_play(&c, __builtin_ctzll(m));
			bad_move += othellosolve_move(s, &p, __builtin_ctzll(m)) != -minimax(c.me, c.opp, false);
		}
		othellosolve_forget(s);
		bad_window += !othellosolve_above(s, &p, want - 1) || othellosolve_above(s, &p, want);
	}
	CHECK(!bad_best && !bad_move && !bad_replay && !bad_window,
	      "%d positions with %d empties: best score %d wrong, move scores %d wrong, "
	      "best move replayed %d wrong, null windows %d wrong",
	      count, e, bad_best, bad_move, bad_replay, bad_window);
}

static void test_final_scores(void)
{
	CHECK(othellosolve_final(0xffULL, 0xff00ULL) == 0 && othellosolve_final(0x7ULL, 0x1ULL << 8) == 62 &&
		      othellosolve_final(0x1ULL, 0xfULL << 8) == -62 &&
		      othellosolve_final(~0ULL >> 20, ~0ULL << 44) == 44 - 20,
	      "final scores: empty squares go to the winner, none on a draw");
}

static void test_solver_matches_minimax(void)
{
	othellosolve *s = othellosolve_new(12);
	int passes = 0;
	for (int e = 1; e <= 10; e++)
		against_minimax(s, e, 40, &passes);
	CHECK(passes > 0, "%d of those positions had the side to move pass", passes);
	othellosolve_free(s);
}

/* Discs called stable keep their colour through random continuations. */
static void test_stable_discs_never_flip(void)
{
	int positions = 0, stable = 0, flipped = 0;
	for (uint64_t i = 0; positions < 300; i++) {
		othello_pos p;
		if (!random_position(12 + (int)(i % 20), 1 << 30 | i, &p))
			continue;
		positions++;
		uint64_t st = othellosolve_stable(p.me, p.opp);
		stable += __builtin_popcountll(st);
		for (uint64_t k = 0; k < 20; k++) {
			rng r;
			rng_stream(&r, 31, i << 8 | k);
			othello_game g;
			othello_random_game(&p, &r, &g, false);
			uint64_t mine = g.end.turn == p.turn ? g.end.me : g.end.opp;
			flipped += __builtin_popcountll(st & ~mine);
		}
	}
	CHECK(stable > 500 && !flipped,
	      "%d discs called stable in 300 positions, %d flipped in 20 random games each", stable,
	      flipped);
}

static void test_fforum_1(void)
{
	/* The FForum's first problem, 14 empties: g8 wins by 18. */
	othellosolve *s = othellosolve_new(12);
	othello_pos p;
	othello_parse("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--", "X", &p);
	int move;
	char name[5];
	int score = othellosolve_best(s, &p, &move);
	CHECK(score == 18 && move == othello_parse_move("g8", 2), "FForum #1: %+d by %s", score,
	      othello_move_name(move, name));
	othellosolve_free(s);
}

static const unit_test tests[] = {
	UNIT_TEST(final_scores),
	UNIT_TEST(solver_matches_minimax),
	UNIT_TEST(stable_discs_never_flip),
	UNIT_TEST(fforum_1),
};

int main(int argc, char **argv)
{
	util_init("unit");
	return UNIT_MAIN(tests, argc, argv);
}
