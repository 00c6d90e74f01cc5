/* Othello rules against hand-checked positions, a plain square-by-square
 * reference on many game positions, and the published perft counts. */
#include <stdlib.h>

#include "core/isa.h"
#include "search/mcts.h"
#include "othello/othello.h"
#include "othello/othelloplay.h"
#include "unit.h"
#include "core/util.h"

/* A position from eight ranks written rank 1 first, files a..h. */
static othello_pos board(const char *const ranks[8], const char *turn)
{
	char text[65];
	for (int r = 0; r < 8; r++)
		memcpy(text + 8 * r, ranks[r], 8);
	text[64] = '\0';
	othello_pos p;
	const char *err = othello_parse(text, turn, &p);
	if (err)
		die("bad test board: %s", err);
	return p;
}

static int sq(const char *name)
{
	return othello_parse_move(name, (unsigned)strlen(name));
}

static uint64_t squares(const char *names)
{
	uint64_t b = 0;
	char buf[128];
	snprintf(buf, sizeof buf, "%s", names);
	for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
		b |= 1ULL << sq(t);
	return b;
}

/* The reference: walk each direction square by square. */
static uint64_t ref_flips(uint64_t me, uint64_t opp, int s)
{
	if ((me | opp) >> s & 1)
		return 0;
	uint64_t all = 0;
	for (int dr = -1; dr <= 1; dr++) {
		for (int dc = -1; dc <= 1; dc++) {
			if (!dr && !dc)
				continue;
			uint64_t run = 0;
			int r = s / 8 + dr, c = s % 8 + dc;
			while (r >= 0 && r < 8 && c >= 0 && c < 8 && (opp >> (r * 8 + c) & 1)) {
				run |= 1ULL << (r * 8 + c);
				r += dr;
				c += dc;
			}
			if (run && r >= 0 && r < 8 && c >= 0 && c < 8 && (me >> (r * 8 + c) & 1))
				all |= run;
		}
	}
	return all;
}

static uint64_t ref_moves(uint64_t me, uint64_t opp)
{
	uint64_t m = 0;
	for (int s = 0; s < 64; s++)
		if (ref_flips(me, opp, s))
			m |= 1ULL << s;
	return m;
}

static void test_start_position(void)
{
	othello_pos p;
	othello_start(&p);
	char text[65];
	othello_format(&p, text);
	CHECK_STR(text, "---------------------------OX------XO---------------------------",
		  "standard start: white d4 e5, black d5 e4");
	CHECK(othello_moves(p.me, p.opp) == squares("d3 c4 f5 e6"), "black's first moves: d3 c4 f5 e6");
}

static void test_c3_flips_in_eight_directions(void)
{
	/* Playing c3 flips in all eight directions, up to a black disc each. */
	static const char *const star[8] = {
		"X-X-X---", "-OOO----", "XO-OOX--", "-OOOO---",
		"X-XOO---", "-----X--", "--------", "--------",
	};
	othello_pos p = board(star, "X");
	CHECK(othello_flips(p.me, p.opp, sq("c3")) == squares("b2 c2 d2 b3 d3 e3 b4 c4 d4 e5"),
	      "c3 flips ten discs in eight directions");
	othello_play(&p, sq("c3"));
	CHECK(p.turn == OTHELLO_WHITE && __builtin_popcountll(othello_black(&p)) == 19 &&
		      __builtin_popcountll(othello_white(&p)) == 2,
	      "after c3: white to move, 19 black, 2 white");
}

static void test_runs_do_not_wrap_at_edges(void)
{
	/* Runs that reach the edge flip nothing: no wrapping onto the next
	 * rank, whichever way. */
	static const char *const wrap_e[8] = {
		"-------O", "X-------", "--------", "---OX---",
		"---XO---", "--------", "--------", "--------",
	};
	othello_pos p = board(wrap_e, "X");
	CHECK(!(othello_moves(p.me, p.opp) >> sq("g1") & 1) && !othello_flips(p.me, p.opp, sq("g1")),
	      "g1 does not flip h1 by wrapping to a2");
	static const char *const wrap_w[8] = {
		"------XO", "--------", "--------", "---OX---",
		"---XO---", "--------", "--------", "--------",
	};
	p = board(wrap_w, "X");
	CHECK(!(othello_moves(p.me, p.opp) >> sq("a2") & 1), "a2 does not flip h1 by wrapping to g1");
	static const char *const wrap_d[8] = {
		"--------", "-------O", "--------", "X--OX---",
		"---XO---", "--------", "--------", "--------",
	};
	p = board(wrap_d, "X");
	CHECK(!othello_flips(p.me, p.opp, sq("g1")) && !(othello_moves(p.me, p.opp) >> sq("g1") & 1),
	      "diagonals do not wrap either (g1, h2, then a4)");
}

static void test_corner_moves_flip_along_edges(void)
{
	/* A corner move along a rank, a file and the diagonal. */
	static const char *const corner[8] = {
		"-OX-----", "OO------", "X-X-----", "---OX---",
		"---XO---", "--------", "--------", "--------",
	};
	othello_pos p = board(corner, "X");
	CHECK(othello_flips(p.me, p.opp, sq("a1")) == squares("b1 a2 b2"), "a1 flips b1, a2 and b2");
	static const char *const corner8[8] = {
		"--------", "--------", "--------", "---OX---",
		"---XX---", "-----O--", "------O-", "-----XO-",
	};
	p = board(corner8, "X");
	CHECK(othello_flips(p.me, p.opp, sq("h8")) == squares("g8 g7 f6"),
	      "h8 flips g8 along the rank, g7 and f6 along the diagonal to e5");
}

static void test_pass_then_wipeout_ends_game(void)
{
	/* A pass, then a move that leaves black without discs: the end. */
	static const char *const pass[8] = {
		"-XOOOOOO", "--------", "--------", "---OO---",
		"---OO---", "--------", "--------", "--------",
	};
	othello_pos p = board(pass, "X");
	CHECK(!othello_moves(p.me, p.opp) && othello_legal(&p, OTHELLO_PASS) && !othello_over(&p),
	      "black has no move and must pass");
	CHECK(!othello_legal(&p, sq("a1")), "a1 is not black's");
	othello_play(&p, OTHELLO_PASS);
	CHECK(p.turn == OTHELLO_WHITE && othello_moves(p.me, p.opp) == squares("a1"),
	      "white's only move is a1");
	CHECK(!othello_legal(&p, OTHELLO_PASS), "white may not pass while it can move");
	othello_play(&p, sq("a1"));
	CHECK(othello_over(&p) && !othello_black(&p) && !othello_legal(&p, OTHELLO_PASS),
	      "black wiped out: the game is over and nobody may pass");
	CHECK(othello_perft(&p, 5) == 1, "a finished game is one leaf at any depth");
}

static void test_parse_rejects_bad_text(void)
{
	othello_pos p;
	char text[65];
	const char *err = othello_parse("XO", "X", &p);
	CHECK_STR(err, "board must have 64 characters (X, O, - or .), or 65 with the side to move appended",
		  "short board");
	static const char *const bad[8] = {
		"x-------", "--------", "--------", "---OX---",
		"---XO---", "--------", "--------", "--------",
	};
	memcpy(text, bad[0], 8);
	for (int r = 1; r < 8; r++)
		memcpy(text + 8 * r, bad[r], 8);
	text[64] = '\0';
	CHECK_STR(othello_parse(text, "X", &p), "board may hold only X, O, - and .", "lowercase x");
	text[0] = '-';
	text[27] = '-';
	CHECK_STR(othello_parse(text, "X", &p),
		  "impossible position: a centre square (d4, e4, d5, e5) is empty", "empty centre");
	text[27] = 'O';
	CHECK_STR(othello_parse(text, "?", &p), "side to move must be X (black) or O (white)",
		  "unknown side to move");
	CHECK(othello_parse(text, "white", &p) == NULL && p.turn == OTHELLO_WHITE, "turn 'white'");
}

static void test_move_names_round_trip(void)
{
	char name[5];
	int ok = 1;
	for (int m = 0; m < OTHELLO_NMOVES; m++) {
		othello_move_name(m, name);
		ok &= othello_parse_move(name, (unsigned)strlen(name)) == m;
	}
	CHECK(ok && sq("a1") == 0 && sq("h1") == 7 && sq("a8") == 56 && sq("h8") == 63 &&
		      sq("i1") < 0 && sq("a9") < 0 && sq("I1") < 0 && sq("pas") < 0 && sq("F5") == sq("f5") &&
		      sq("Pass") == OTHELLO_PASS && sq("PASS") == OTHELLO_PASS,
	      "move names round-trip; a1 = 0, h8 = 63; F5 and PASS read too");
}

static void test_bitboards_match_reference(void)
{
	/* Bitboards against the reference on every position of 300 random
	 * games, and each game replays move by move to its recorded end. */
	rng r;
	int bad_moves = 0, bad_flips = 0, bad_replay = 0, positions = 0;
	for (int gi = 0; gi < 300; gi++) {
		othello_game g;
		othello_pos s;
		othello_start(&s);
		rng_stream(&r, 7, (uint64_t)gi);
		othello_random_game(&s, &r, &g, true);
		othello_pos q = s;
		for (int k = 0; k <= g.plies; k++) {
			positions++;
			if (othello_moves(q.me, q.opp) != ref_moves(q.me, q.opp))
				bad_moves++;
			for (int x = 0; x < 64; x++)
				if (othello_flips(q.me, q.opp, x) != ref_flips(q.me, q.opp, x))
					bad_flips++;
			if (k == g.plies)
				break;
			if (!othello_legal(&q, g.moves[k])) {
				bad_replay++;
				break;
			}
			othello_play(&q, g.moves[k]);
		}
		if (!othello_over(&q) || q.me != g.end.me || q.opp != g.end.opp || q.turn != g.end.turn)
			bad_replay++;
	}
	CHECK(!bad_moves && !bad_flips, "moves and flips equal the reference on %d positions", positions);
	CHECK(!bad_replay, "300 random games replay legally to their ends");
}

static void test_batch_equals_single_games(void)
{
	/* Batches equal games one at a time from the same streams. */
	othello_pos st[OTHELLO_BATCH];
	rng rb[OTHELLO_BATCH], r;
	othello_game gb[OTHELLO_BATCH];
	int same = 1;
	for (int j = 0; j < OTHELLO_BATCH; j++) {
		othello_start(&st[j]);
		rng_stream(&rb[j], 3, (uint64_t)j);
	}
	othello_random_games(st, rb, gb, OTHELLO_BATCH, true);
	for (int j = 0; j < OTHELLO_BATCH; j++) {
		othello_game g1;
		rng_stream(&r, 3, (uint64_t)j);
		othello_random_game(&st[j], &r, &g1, true);
		same &= g1.plies == gb[j].plies && !memcmp(g1.moves, gb[j].moves, (size_t)g1.plies) &&
			g1.end.me == gb[j].end.me;
	}
	CHECK(same, "a batch of %d games equals the games one by one", OTHELLO_BATCH);
}

/* What one path makes of fixed work: 100 recorded random games (in
 * batches), 100 random results, perft 7, and whether moves and flips
 * equal the reference on every position of the games. */
typedef struct {
	othello_game g[100];
	int result[100];
	uint64_t perft7;
	int bad;
} path_work;

static void run_path_work(path_work *w)
{
	othello_pos st[OTHELLO_BATCH];
	rng rb[OTHELLO_BATCH], r;
	for (int j = 0; j < OTHELLO_BATCH; j++)
		othello_start(&st[j]);
	for (int gi = 0; gi < 100; gi += OTHELLO_BATCH) {
		for (int j = 0; j < OTHELLO_BATCH; j++)
			rng_stream(&rb[j], 11, (uint64_t)(gi + j));
		othello_random_games(st, rb, &w->g[gi], OTHELLO_BATCH, true);
	}
	w->bad = 0;
	for (int gi = 0; gi < 100; gi++) {
		rng_stream(&r, 12, (uint64_t)gi);
		w->result[gi] = othello_random_result(st[0].me, st[0].opp, &r);
		othello_pos q = st[0];
		for (int k = 0; k < w->g[gi].plies; k++) {
			w->bad += othello_moves(q.me, q.opp) != ref_moves(q.me, q.opp);
			for (int x = 0; x < 64; x += 3)
				w->bad += othello_flips(q.me, q.opp, x) != ref_flips(q.me, q.opp, x);
			othello_play(&q, w->g[gi].moves[k]);
		}
	}
	w->perft7 = othello_perft(&st[0], 7);
}

static void test_every_path_plays_the_same_games(void)
{
	/* Each instruction-set path the machine has against the base path:
	 * the same games draw for draw, results and counts. */
	static path_work base, other;
	isa_path_id had = isa_path(), best = isa_machine();
	isa_force(ISA_BASE);
	run_path_work(&base);
	CHECK(!base.bad && base.perft7 == 55092, "base path: moves and flips equal the reference, perft 7");
	for (int p = ISA_AVX2; p < ISA_NPATHS; p++) {
		if (p > (int)best) {
			printf("# this machine lacks the %s path: not tested\n", isa_name((isa_path_id)p));
			continue;
		}
		isa_force((isa_path_id)p);
		run_path_work(&other);
		int same = !other.bad && other.perft7 == base.perft7 &&
			   !memcmp(other.result, base.result, sizeof base.result);
		for (int gi = 0; gi < 100; gi++)
			same &= other.g[gi].plies == base.g[gi].plies &&
				!memcmp(other.g[gi].moves, base.g[gi].moves, (size_t)base.g[gi].plies) &&
				other.g[gi].end.me == base.g[gi].end.me && other.g[gi].end.opp == base.g[gi].end.opp;
		CHECK(same, "%s path: the base path's games, results and perft", isa_name((isa_path_id)p));
	}
	isa_force(had);
}

static void test_hashed_perft_equals_plain(void)
{
	/* Hashed perft against plain perft on every path: from the start to
	 * depth 9 through a small table (entries replaced all the time) and
	 * a large one, and depth 5 from 40 mid-game positions (passes too). */
	isa_path_id had = isa_path();
	othello_perft_table *small = othello_perft_table_new(4096), *large = othello_perft_table_new(8 << 20);
	othello_pos start;
	othello_start(&start);
	for (int p = 0; p <= (int)isa_machine(); p++) {
		isa_force((isa_path_id)p);
		int same = 1;
		for (int d = 1; d <= 9; d++) {
			uint64_t n = othello_perft(&start, d);
			same &= othello_perft_hashed(&start, d, small) == n && othello_perft_hashed(&start, d, large) == n;
		}
		rng r;
		for (int gi = 0; gi < 40; gi++) {
			othello_game g;
			rng_stream(&r, 21, (uint64_t)gi);
			othello_random_game(&start, &r, &g, true);
			othello_pos q = start;
			for (int k = 0; k < 20 + gi % 30 && k < g.plies; k++)
				othello_play(&q, g.moves[k]);
			same &= othello_perft_hashed(&q, 5, large) == othello_perft(&q, 5);
		}
		CHECK(same, "%s path: hashed perft equals plain perft", isa_name((isa_path_id)p));
	}
	othello_perft_table_free(small);
	othello_perft_table_free(large);
	isa_force(had);
}

static void test_perft_known_counts(void)
{
	/* Perft from the start (the published counts, depths 1-11). */
	static const uint64_t perft[] = {4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288,
					 24571284, 212258800};
	othello_pos p;
	othello_start(&p);
	for (int d = 1; d <= 11; d++) {
		uint64_t n = othello_perft(&p, d);
		CHECK(n == perft[d - 1], "perft %d = %llu", d, (unsigned long long)n);
	}
}

static void test_players_take_only_legal_move(void)
{
	/* With one legal move, every player returns it. */
	static const char *const only[8] = {
		"-XOOOOOO", "--------", "--------", "---OO---",
		"---OO---", "--------", "--------", "--------",
	};
	othello_pos p = board(only, "O");
	othelloplay pl;
	rng r;
	int agree = 1;
	const char *const specs[] = {"random", "mc:10", "mcts:50"};
	for (int i = 0; i < 3; i++) {
		othelloplay_parse(specs[i], 0.5, 5, &pl);
		rng_stream(&r, 1, 1);
		rng_draw d = {.r = &r};
		agree &= othelloplay_choose(&pl, &p, &d) == sq("a1");
		othelloplay_free(&pl);
	}
	CHECK(agree, "random, mc and mcts all play the only legal move");
}

static void test_random_player_replays_playouts(void)
{
	/* The random player replays random playouts move for move. */
	othelloplay pl;
	othello_pos p;
	rng r;
	othelloplay_parse("random", 0.5, 5, &pl);
	int same = 1;
	for (int gi = 0; gi < 50; gi++) {
		othello_game g;
		othello_start(&p);
		rng_stream(&r, 9, (uint64_t)gi);
		othello_random_game(&p, &r, &g, true);
		rng_stream(&r, 9, (uint64_t)gi);
		rng_draw d = {.r = &r};
		for (int k = 0; k < g.plies; k++) {
			int m = othelloplay_choose(&pl, &p, &d);
			same &= m == g.moves[k];
			othello_play(&p, m);
		}
		same &= othello_over(&p);
	}
	othelloplay_free(&pl);
	CHECK(same, "the random player plays the random playouts' moves");
}

static void test_player_specs(void)
{
	othelloplay pl;
	CHECK(!othelloplay_parse("mcts:0", 0.5, 5, &pl) && !othelloplay_parse("mc:x", 0.5, 5, &pl) &&
		      !othelloplay_parse("alpha", 0.5, 5, &pl) && othelloplay_parse("mc:7", 0.5, 5, &pl) &&
		      pl.kind == OTHELLOPLAY_MC && pl.playouts == 7,
	      "player specs");
	othelloplay_free(&pl);
}

static const unit_test tests[] = {
	UNIT_TEST(start_position),
	UNIT_TEST(c3_flips_in_eight_directions),
	UNIT_TEST(runs_do_not_wrap_at_edges),
	UNIT_TEST(corner_moves_flip_along_edges),
	UNIT_TEST(pass_then_wipeout_ends_game),
	UNIT_TEST(parse_rejects_bad_text),
	UNIT_TEST(move_names_round_trip),
	UNIT_TEST(bitboards_match_reference),
	UNIT_TEST(batch_equals_single_games),
	UNIT_TEST(every_path_plays_the_same_games),
	UNIT_TEST(hashed_perft_equals_plain),
	UNIT_TEST(perft_known_counts),
	UNIT_TEST(players_take_only_legal_move),
	UNIT_TEST(random_player_replays_playouts),
	UNIT_TEST(player_specs),
};

int main(int argc, char **argv)
{
	util_init("unit");
	return UNIT_MAIN(tests, argc, argv);
}
