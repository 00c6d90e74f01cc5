/* Nim-family games against known answers from outside: Bouton, the
 * seed's misere table, Wythoff's Beatty pairs (A000201, A001950), Wythoff
 * Grundy rows (A004484, A004485) and diagonal (A047708), Kayles (A002186)
 * and Dawson's Kayles (A002187 shifted by one) with their periods. */
#include <stdlib.h>

#include "nim/nim.h"
#include "unit.h"
#include "core/util.h"

static nim_game game(const char *spec, int m, uint32_t max, bool misere)
{
	nim_game g = {.m = m, .misere = misere};
	for (int i = 0; i < m; i++)
		g.max[i] = max;
	const char *why;
	if (!nim_parse_game(spec, &g, &why))
		die("bad game %s: %s", spec, why);
	return g;
}

static void test_misere_nim_matches_seed_and_bouton(void)
{
	/* Misere Nim, 3 heaps up to 10: the seed's table has 91 P positions,
	 * and the solver agrees with Bouton's misere rule everywhere. */
	uint32_t h[NIM_MAX_HEAPS];
	nim_game g = game("nim", 3, 10, true);
	nim_table *t = nim_solve(&g, false);
	int p = 0, bad = 0;
	for (uint64_t i = 0; i < t->n; i++) {
		nim_decode(&g, i, h);
		p += t->outcome[i] == 0;
		bad += (t->outcome[i] == 0) != nim_bouton_p(h, 3, true);
	}
	CHECK(p == 91, "misere Nim 3x10 has 91 P positions (%d)", p);
	CHECK(bad == 0, "misere Nim 3x10: solver equals Bouton's misere rule (%d differ)", bad);
	nim_table_free(t);
}

static void test_normal_nim_is_bouton_and_nim_sum(void)
{
	/* Normal Nim, 3 heaps up to 12 and 4 heaps up to 5: outcome is
	 * Bouton's rule, Grundy is the nim-sum and equals the mex. */
	uint32_t h[NIM_MAX_HEAPS];
	for (int m = 3; m <= 4; m++) {
		nim_game g = game("nim", m, m == 3 ? 12 : 5, false);
		nim_table *t = nim_solve(&g, true);
		int bad = 0, gbad = 0;
		for (uint64_t i = 0; i < t->n; i++) {
			nim_decode(&g, i, h);
			bad += (t->outcome[i] == 0) != nim_bouton_p(h, m, false);
			gbad += t->grundy[i] != nim_grundy_slow(t, i);
		}
		CHECK(bad == 0 && gbad == 0, "normal Nim %d heaps: Bouton and nim-sum = mex (%d, %d differ)", m,
		      bad, gbad);
		nim_table_free(t);
	}
}

static void test_bouton_move_reaches_p_position(void)
{
	/* Bouton's moves reach P positions, normal and misere. Of the 1000
	 * positions of 3 heaps up to 9, 76 are P in either play, and misere's
	 * empty position is won without a move: 924 + 923 moves to make. */
	uint32_t h[NIM_MAX_HEAPS];
	int bad = 0, moves = 0;
	for (int mis = 0; mis < 2; mis++) {
		nim_game g = game("nim", 3, 9, mis);
		for (uint64_t i = 0; i < nim_positions(&g); i++) {
			nim_decode(&g, i, h);
			uint32_t before[3] = {h[0], h[1], h[2]};
			if (nim_bouton_p(h, 3, mis) || h[0] + h[1] + h[2] == 0)
				continue; /* P, or misere's empty position: won, no move */
			moves++;
			int changed = 0;
			if (!nim_bouton_move(h, 3, mis))
				bad++;
			for (int k = 0; k < 3; k++)
				changed += h[k] != before[k] ? (h[k] < before[k] ? 1 : 10) : 0;
			if (changed != 1 || !nim_bouton_p(h, 3, mis))
				bad++;
		}
	}
	CHECK(bad == 0 && moves == 1847,
	      "Bouton's move takes from one heap and leaves a P position (%d moves, %d bad)", moves,
	      bad);
}

static void test_wythoff_pairs_are_beatty_sequences(void)
{
	/* Wythoff: the first Beatty pairs are A000201 and A001950. */
	static const uint64_t a201[] = {1, 3, 4, 6, 8, 9, 11, 12, 14, 16, 17, 19, 21, 22, 24, 25, 27, 29, 30, 32};
	static const uint64_t a1950[] = {2, 5, 7, 10, 13, 15, 18, 20, 23, 26, 28, 31, 34, 36, 39, 41, 44, 47, 49, 52};
	int bad = 0;
	for (int k = 1; k <= 20; k++) {
		uint64_t a, b;
		nim_wythoff_pair((uint64_t)k, &a, &b);
		bad += a != a201[k - 1] || b != a1950[k - 1];
	}
	CHECK(bad == 0, "Wythoff pairs 1..20 are A000201 and A001950");
}

static void test_wythoff_pairs_partition_integers(void)
{
	/* Up to 10000 the pairs are complementary Beatty sequences: every
	 * positive integer appears exactly once, and b - a = k. */
	uint8_t *seen = calloc(30001, 1);
	int bad = 0;
	for (uint64_t k = 1; k <= 10000; k++) {
		uint64_t a, b;
		nim_wythoff_pair(k, &a, &b);
		if (b - a != k || a > 30000 || b > 30000)
			bad++;
		else
			seen[a]++, seen[b]++;
	}
	uint64_t a10000, b10000;
	nim_wythoff_pair(10000, &a10000, &b10000);
	for (uint64_t v = 1; v <= a10000; v++)
		bad += seen[v] != 1;
	free(seen);
	CHECK(bad == 0, "Wythoff pairs up to k = 10000 partition the integers up to %llu", (unsigned long long)a10000);
}

static void test_wythoff_pairs_match_solver(void)
{
	/* The generic solver's P positions on 1000 x 1000 are exactly the
	 * pairs and their swaps. */
	nim_game g = game("wythoff", 2, 1000, false);
	nim_table *t = nim_solve(&g, false);
	uint8_t *isp = calloc(t->n, 1);
	for (uint64_t k = 0; k <= 1000; k++) {
		uint64_t a, b;
		nim_wythoff_pair(k, &a, &b);
		uint32_t x[2] = {(uint32_t)a, (uint32_t)b}, y[2] = {(uint32_t)b, (uint32_t)a};
		if (a <= 1000 && b <= 1000) {
			isp[nim_encode(&g, x)] = 1;
			isp[nim_encode(&g, y)] = 1;
		}
	}
	int bad = 0;
	for (uint64_t i = 0; i < t->n; i++)
		bad += (t->outcome[i] == 0) != isp[i];
	free(isp);
	nim_table_free(t);
	CHECK(bad == 0, "Wythoff 1000x1000: solver P positions = Beatty pairs and swaps (%d differ)", bad);
}

static void test_wythoff_grundy_rows_and_diagonal(void)
{
	/* Wythoff Grundy values: rows 3 and 4 and the diagonal. */
	static const uint32_t row3[] = {3, 4, 5, 6, 2, 0, 1, 9, 10, 12, 8, 7, 15, 11, 16, 18, 14, 13, 21, 17, 22, 24, 20, 19, 27, 23, 28, 30, 26, 25, 33, 29, 34, 36, 32, 31, 39, 35, 40, 42, 38, 37, 45, 41, 46, 48, 44, 43, 51, 47, 52, 54, 50, 49, 57, 53, 58, 60, 56, 55, 63, 59};
	static const uint32_t row4[] = {4, 5, 3, 2, 7, 6, 9, 0, 1, 8, 13, 12, 11, 16, 15, 10, 19, 18, 17, 14, 21, 20, 25, 24, 23, 28, 27, 22, 31, 30, 29, 26, 33, 32, 37, 36, 35, 40, 39, 34, 43, 42, 41, 38, 45, 44, 49, 48, 47, 52, 51, 46, 55, 54, 53, 50, 57, 56, 61, 60, 59, 64};
	static const uint32_t diag[] = {0, 2, 1, 6, 7, 8, 3, 5, 4, 16, 14, 15, 10, 9, 11, 20, 13, 21, 12, 25, 17, 18, 19, 30, 31, 38, 35, 36, 22, 23, 43, 45, 48, 49, 24, 26, 27, 28, 29, 33, 60, 32, 61, 57, 66, 37, 63, 34, 64, 67, 40, 39, 41, 42, 82, 44, 74, 79, 47, 46, 87, 86, 50, 95, 96, 52, 101, 51, 102, 53, 54};
	nim_game g = game("wythoff", 2, 80, false);
	nim_table *t = nim_solve(&g, true);
	int b3 = 0, b4 = 0, bd = 0;
	for (uint32_t n = 0; n < 62; n++) {
		uint32_t x[2] = {3, n}, y[2] = {4, n};
		b3 += t->grundy[nim_encode(&g, x)] != row3[n];
		b4 += t->grundy[nim_encode(&g, y)] != row4[n];
	}
	for (uint32_t n = 0; n < 71; n++) {
		uint32_t x[2] = {n, n};
		bd += t->grundy[nim_encode(&g, x)] != diag[n];
	}
	CHECK(b3 == 0 && b4 == 0, "Wythoff Grundy rows 3 and 4 are A004484, A004485 (%d, %d differ)", b3, b4);
	CHECK(bd == 0, "Wythoff Grundy diagonal is A047708 (%d differ)", bd);
	nim_table_free(t);
}

static void test_misere_wythoff_differs_at_six_positions(void)
{
	/* Misere Wythoff differs from normal play only at small positions:
	 * (0,0) and (1,2), (2,1) are P in normal play and N in misere play;
	 * (0,1), (1,0) and (2,2) the other way round. Checked on 300 x 300. */
	uint32_t h[NIM_MAX_HEAPS];
	nim_game gn = game("wythoff", 2, 300, false), gm = game("wythoff", 2, 300, true);
	nim_table *tn = nim_solve(&gn, false), *tm = nim_solve(&gm, false);
	char diff[256] = "";
	for (uint64_t i = 0; i < tn->n; i++)
		if (tn->outcome[i] != tm->outcome[i]) {
			nim_decode(&gn, i, h);
			snprintf(diff + strlen(diff), sizeof diff - strlen(diff), "(%u,%u)", h[0], h[1]);
		}
	CHECK_STR(diff, "(0,0)(1,0)(0,1)(2,1)(1,2)(2,2)", "misere and normal Wythoff differ only at six small positions");
	nim_table_free(tn);
	nim_table_free(tm);
}

static void test_kayles_grundy_and_period(void)
{
	/* Kayles (0.77): A002186, periodic with period 12 from n = 71. */
	static const uint32_t kayles[] = {0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1};
	nim_game g = game("octal:0.77", 1, 0, false);
	uint32_t *v = nim_octal_grundy(&g, 500);
	int bad = 0;
	for (int i = 0; i < 105; i++)
		bad += v[i] != kayles[i];
	CHECK(bad == 0, "Kayles Grundy values 0..104 are A002186");
	uint32_t per = 0, pre = 0;
	CHECK(nim_octal_period(&g, v, 500, &per, &pre) && per == 12 && pre == 71,
	      "Kayles: period 12 from heap 71");
	free(v);
}

static void test_dawson_kayles_grundy_and_period(void)
{
	/* Dawson's Kayles (0.07): A002187(n - 1); period 34, the last
	 * exception of A002187 at 51 puts the start of the period at 53. */
	static const uint32_t dawson[] = {0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4};
	size_t nd = sizeof dawson / sizeof dawson[0];
	nim_game g = game("octal:0.07", 1, 0, false);
	uint32_t *v = nim_octal_grundy(&g, 600);
	int bad = v[0] != 0;
	for (size_t i = 1; i <= nd; i++)
		bad += v[i] != dawson[i - 1];
	CHECK(bad == 0, "Dawson's Kayles Grundy values are A002187 shifted by one (%zu terms)", nd);
	uint32_t per = 0, pre = 0;
	CHECK(nim_octal_period(&g, v, 600, &per, &pre) && per == 34 && pre == 53,
	      "Dawson's Kayles: period 34 from heap 53 (got %u from %u)", per, pre);
	free(v);
}

static void test_octal_sets_match_grundy(void)
{
	/* The search over sets of heaps agrees with the Grundy values in
	 * normal play (P exactly where G = 0), for Kayles, Dawson's Kayles
	 * and 0.137. */
	const char *octs[] = {"octal:0.77", "octal:0.07", "octal:0.137"};
	for (int k = 0; k < 3; k++) {
		nim_game g = game(octs[k], 1, 0, false);
		uint32_t *v = nim_octal_grundy(&g, 40);
		uint8_t out[41];
		uint32_t rem[41];
		char mv[41][16];
		bool ok = nim_octal_sets(&g, 40, 5000000, out, rem, mv);
		int bad = 0;
		for (int i = 0; i <= 40; i++)
			bad += ok ? (out[i] == 0) != (v[i] == 0) : 1;
		CHECK(ok && bad == 0, "%s: outcomes on sets of heaps match the Grundy values to heap 40", octs[k]);
		free(v);
	}
}

/* Counts, Wythoff moves and octal sequences without tables agree with
 * the tables and direct computations they replace. */
static void test_nim_count_by_bits(void)
{
	uint32_t h[NIM_MAX_HEAPS];
	srand(7);
	int bad = 0;
	for (int trial = 0; trial < 300; trial++) {
		nim_game g = game("nim", 1 + trial % 5, 0, trial % 2);
		for (int i = 0; i < g.m; i++)
			g.max[i] = (uint32_t)(rand() % (trial % 3 == 0 ? 3 : 23));
		uint64_t n = nim_positions(&g), p = 0;
		for (uint64_t i = 0; i < n; i++) {
			nim_decode(&g, i, h);
			p += nim_bouton_p(h, g.m, g.misere);
		}
		bad += p != nim_count_p(&g);
	}
	CHECK(bad == 0, "Nim P counts by bits equal enumeration on 300 random bounds (%d differ)", bad);
	/* Up to 2^17 - 1, any two heaps have their nim-sum as the third. */
	nim_game big = game("nim", 3, 131071, false);
	CHECK(nim_count_p(&big) == 131072ull * 131072ull, "3 heaps up to 2^17 - 1: 2^34 P positions");
}

static void test_wythoff_without_table(void)
{
	uint32_t h[NIM_MAX_HEAPS];
	for (int mis = 0; mis < 2; mis++) {
		nim_game g = game("wythoff", 2, 0, mis);
		g.max[0] = 130, g.max[1] = 170;
		nim_table *t = nim_solve(&g, false);
		int badp = 0, badm = 0, badc = 0;
		uint64_t p = 0;
		for (uint64_t i = 0; i < t->n; i++) {
			nim_decode(&g, i, h);
			p += t->outcome[i] == 0;
			if (t->outcome[i] == 0 && nim_wythoff_partner(h[1], mis) != h[0])
				badp++;
			uint32_t mv[2] = {h[0], h[1]};
			bool moved = nim_wythoff_move(mv, mis);
			bool legal = moved && mv[0] <= h[0] && mv[1] <= h[1] &&
				     (mv[0] == h[0] || mv[1] == h[1] || h[0] - mv[0] == h[1] - mv[1]);
			/* Misere (0, 0) is won without a move. */
			bool won = moved || (mis && h[0] == 0 && h[1] == 0);
			if (won != (t->outcome[i] == 1) ||
			    (moved && (!legal || t->outcome[nim_encode(&g, mv)] != 0)))
				badm++;
		}
		badc += p != nim_wythoff_count_p(&g);
		for (uint32_t a = 0; a < 60; a += 7)
			for (uint32_t b = 0; b < 60; b += 5) {
				nim_game sub = g;
				sub.max[0] = a, sub.max[1] = b;
				uint64_t q = 0;
				for (uint32_t y = 0; y <= b; y++)
					for (uint32_t x = 0; x <= a; x++) {
						uint32_t xy[2] = {x, y};
						q += t->outcome[nim_encode(&g, xy)] == 0;
					}
				badc += q != nim_wythoff_count_p(&sub);
			}
		nim_table_free(t);
		CHECK(badp == 0 && badm == 0 && badc == 0,
		      "Wythoff%s: partners, moves by the pairs and counts match the solver (%d, %d, %d wrong)",
		      mis ? " misere" : "", badp, badm, badc);
	}
}

/* The option nimtable listed first: plain enumeration over the values V. */
static bool first_option_plain(const nim_game *g, const uint32_t *v, uint32_t h, uint32_t target,
			       uint32_t *a, uint32_t *b)
{
	for (int d = 1; d <= g->ndigits && (uint32_t)d <= h; d++) {
		uint8_t dg = g->digit[d];
		uint32_t rest = h - (uint32_t)d;
		if ((dg & 1) && rest == 0 && target == 0) {
			*a = *b = 0;
			return true;
		}
		if ((dg & 2) && rest > 0 && v[rest] == target) {
			*a = rest, *b = 0;
			return true;
		}
		if (dg & 4)
			for (uint32_t x = 1; 2 * x <= rest; x++)
				if ((v[x] ^ v[rest - x]) == target) {
					*a = x, *b = rest - x;
					return true;
				}
	}
	return false;
}

static void test_octal_by_period(void)
{
	const char *octs[] = {"octal:0.77", "octal:0.07", "octal:0.137", "octal:0.6", "octal:0.47"};
	for (int k = 0; k < 5; k++) {
		nim_game g = game(octs[k], 1, 0, false);
		uint32_t n = 3000;
		uint32_t *v = nim_octal_grundy(&g, n);
		nim_octal_seq s;
		const char *why = nim_octal_values(&g, n, 1u << 30, 1e12, &s);
		int badv = 0, bado = 0;
		for (uint32_t i = 0; !why && i <= n; i++)
			badv += nim_octal_value(&s, i) != v[i];
		for (uint32_t hh = 0; !why && hh <= n; hh += 1 + hh / 50)
			for (uint32_t target = 0; target < 8; target++) {
				uint32_t a = 0, b = 0, wa = 0, wb = 0;
				bool got = nim_octal_first_option(&g, &s, hh, target, &a, &b);
				bool want = first_option_plain(&g, v, hh, target, &wa, &wb);
				bado += got != want || (got && (a != wa || b != wb));
			}
		uint32_t p1 = 0, q1 = 0, p2 = 0, q2 = 0;
		bool f1 = nim_octal_period(&g, v, n, &p1, &q1);
		bool f2 = !why && nim_octal_seq_period(&g, &s, n, &p2, &q2);
		CHECK(!why && badv == 0 && bado == 0 && f1 == f2 && p1 == p2 && q1 == q2,
		      "%s: values by the period and first options match direct computation to heap %u "
		      "(%d, %d wrong; period %u/%u from %u/%u)",
		      octs[k], n, badv, bado, p1, p2, q1, q2);
		free(v);
		nim_octal_seq_free(&s);
	}
}

static void test_octal_to_a_billion(void)
{
	nim_game g = game("octal:0.77", 1, 0, false);
	nim_octal_seq s;
	uint32_t per = 0, pre = 0, a = 0, b = 0, h = 999999999;
	bool ok = nim_octal_values(&g, 1000000000, 1u << 20, 1e9, &s) == NULL;
	while (ok && nim_octal_value(&s, h) == 0)
		h--;
	/* a winning move from heap h: an option of value 0 */
	CHECK(ok && s.len < 5000 && nim_octal_value(&s, 1000000000) == nim_octal_value(&s, 1000000000 - 12) &&
		      nim_octal_seq_period(&g, &s, 1000000000, &per, &pre) && per == 12 && pre == 71 &&
		      nim_octal_first_option(&g, &s, h, 0, &a, &b) && a + b + 1 >= h - 2 &&
		      (nim_octal_value(&s, a) ^ nim_octal_value(&s, b)) == 0,
	      "Kayles to heap 10^9 by its period (period %u from %u; %u stored; heap %u to %u+%u)", per,
	      pre, s.len, h, a, b);
	nim_octal_seq_free(&s);
	g = game("octal:0.6", 1, 0, false);
	CHECK(nim_octal_values(&g, 1000000000, 1u << 30, 1e9, &s) != NULL && s.v == NULL,
	      "octal:0.6 (no period known) to 10^9 is refused within the work bound");
}

static const unit_test tests[] = {
	UNIT_TEST(misere_nim_matches_seed_and_bouton),
	UNIT_TEST(normal_nim_is_bouton_and_nim_sum),
	UNIT_TEST(bouton_move_reaches_p_position),
	UNIT_TEST(wythoff_pairs_are_beatty_sequences),
	UNIT_TEST(wythoff_pairs_partition_integers),
	UNIT_TEST(wythoff_pairs_match_solver),
	UNIT_TEST(wythoff_grundy_rows_and_diagonal),
	UNIT_TEST(misere_wythoff_differs_at_six_positions),
	UNIT_TEST(kayles_grundy_and_period),
	UNIT_TEST(dawson_kayles_grundy_and_period),
	UNIT_TEST(octal_sets_match_grundy),
	UNIT_TEST(nim_count_by_bits),
	UNIT_TEST(wythoff_without_table),
	UNIT_TEST(octal_by_period),
	UNIT_TEST(octal_to_a_billion),
};

int main(int argc, char **argv)
{
	util_init("unit");
	return UNIT_MAIN(tests, argc, argv);
}
