/* calcvi: a value of Calculation positions for a player who cannot see
 * the stock, fitted stage by stage from exact chances (fitted value
 * iteration), and the players it makes. Research tool for issue 27.
 *
 * A stage is the number of cards face down with the hand empty (an
 * afterstate: the hand placed and every pile top that fits sent up). At
 * stages up to EXACT the value is the exact chance (calcsolve_expect over
 * eager lines); above, a logistic model over features of the piles
 * against the foundations, one model a stage, fitted to the backed-up
 * value: the mean over the next card's ranks (weighed by their unseen
 * copies) of the best placement's value one stage down. The positions
 * come from the games of FILE (playout's rows with --deals --moves,
 * every position with the hand turned, all its placements) and from
 * GAMES games of the weighted rule with a fifth of its placements at
 * random, both standard deals.
 *
 * Then the players it makes play the decks of DECKS (rows with a deck
 * column) and one row each is written:
 *
 *   player,deals,won,rest
 *
 * ply1 takes the placement of the highest value; ply2 the one of the
 * highest backed-up value (an expectimax over the next card's rank with
 * the values at its leaves). Both take exact chances from EXACT + 1
 * unseen down. On stderr: each stage's positions, the mean and standard
 * deviation of their targets and the model's root mean square error;
 * then, over FILE's positions whose placements all lie at 3 to EXACT
 * unseen (and then at LO to HI unseen, if given), how much chance each
 * judge's choice loses against the best
 * placement's, and how often it loses none: the model, the greedy and
 * weighted rules, 128 greedy or cascade rollouts a placement, and 32
 * sampled orders won by the eager solver with the order in view.
 *   calcvi EXACT GAMES FILE DECKS [LO HI]
 * EXACT 1..12 (7 takes about a minute, 8 far longer), GAMES 0..10^7,
 * 3 <= LO <= HI <= 14. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc/calc.h"
#include "calc/calcrows.h"
#include "calc/calcsolve.h"
#include "core/cli.h"
#include "core/rng.h"
#include "core/table.h"
#include "core/util.h"

#include "calcafter.h"

#define VI_USAGE "usage: calcvi EXACT GAMES FILE DECKS [LO HI]"

enum { VI_NF = 30, VI_STAGES = 49 };
enum { VI_BUDGET = 2000000 };

typedef struct {
	calc_state *s;
	float *y;
	size_t n, cap;
} vi_set;

static double vi_w[VI_STAGES][VI_NF];
static int vi_exact;
static calcsolve vi_sv;

/* The cards left on the piles when every unseen card is within reach at
 * any time (the solver's bound, played out slowly): 0 unless the piles
 * already block one another for good; *ROUNDS gets the passes it took. */
static int vi_relaxed(const calc_state *s, int *rounds)
{
	unsigned reach = 0;
	int len[4], found[4];
	for (int j = s->next; j < s->ncards; j++)
		reach |= 1u << s->stock[j];
	for (int w = 0; w < s->npiles; w++)
		len[w] = s->len[w];
	for (int k = 0; k < 4; k++)
		found[k] = s->found[k];
	*rounds = 0;
	for (bool moved = true; moved; ++*rounds) {
		moved = false;
		for (int k = 0; k < 4; k++)
			while (found[k] < 13 && reach >> calc_need(k, found[k]) & 1) {
				found[k]++;
				moved = true;
			}
		for (int w = 0; w < s->npiles; w++)
			while (len[w]) {
				int c = s->pile[w][len[w] - 1], ok = 0;
				for (int k = 0; k < 4; k++)
					ok |= found[k] < 13 && calc_need(k, found[k]) == c;
				if (!ok)
					break;
				reach |= 1u << c;
				len[w]--;
				moved = true;
			}
	}
	return len[0] + len[1] + len[2] + len[3];
}

static void vi_features(const calc_state *s, double *x)
{
	int u[14], cnt[14] = {0};
	for (int r = 1; r <= 13; r++)
		u[r] = calc_urgency(s, r);
	for (int i = s->next; i < s->ncards; i++)
		cnt[s->stock[i]]++;
	memset(x, 0, VI_NF * sizeof *x);
	x[0] = 1;
	int shallow[14];
	for (int r = 0; r < 14; r++)
		shallow[r] = 99;
	for (int w = 0; w < s->npiles; w++) {
		int len = s->len[w];
		if (!len) {
			x[2] += 1;
			continue;
		}
		x[1] += len / 8.0;
		x[17] = fmax(x[17], len / 8.0);
		x[18] += len * len / 64.0;
		int top = u[s->pile[w][len - 1]];
		x[15] += top / 16.0;
		x[20] += s->pile[w][0] == 13;
		int above = -1, inv = 0;
		for (int i = len - 1; i >= 0; i--) {
			int c = s->pile[w][i], uc = u[c];
			if (len - 1 - i < shallow[c])
				shallow[c] = len - 1 - i;
			if (above > uc) {
				x[3] += 0.25;
				x[5] += uc <= 1;
				x[6] += uc <= 3;
				x[7] += uc <= 6;
				x[8] += (above - uc) / 16.0;
				x[21] += (len - 1 - i) / 16.0;
			}
			for (int j = i + 1; j < len; j++)
				inv += u[s->pile[w][j]] > uc;
			if (uc > above)
				above = uc;
		}
		x[4] += inv / 8.0;
		x[14] += inv == 0;
	}
	int mintop = 13;
	for (int w = 0; w < s->npiles; w++)
		if (s->len[w] && u[s->pile[w][s->len[w] - 1]] < mintop)
			mintop = u[s->pile[w][s->len[w] - 1]];
	x[16] = mintop / 13.0;
	int fmin = 13, fmax_ = 0;
	for (int k = 0; k < 4; k++) {
		if (s->found[k] < fmin)
			fmin = s->found[k];
		if (s->found[k] > fmax_)
			fmax_ = s->found[k];
		int r = calc_need(k, s->found[k]);
		if (!r || cnt[r])
			continue;
		x[10] += 1;
		x[9] += (shallow[r] < 99 ? shallow[r] : 8) / 4.0;
		x[22] += shallow[r] >= 2;
	}
	x[23] = (fmax_ - fmin) / 13.0;
	for (int r = 1; r <= 13; r++) {
		x[12] += cnt[r] * (u[r] == 0);
		x[13] += cnt[r] * (u[r] <= 2) / 4.0;
		x[19] += cnt[r] * (u[r] >= 9) / 8.0;
	}
	x[11] = after_unseen(s) / 48.0;
	int rounds, left = vi_relaxed(s, &rounds);
	x[26] = left > 0;
	x[27] = left / 8.0;
	x[28] = rounds / 8.0;
	x[29] = x[5] * x[11];
	x[24] = x[3] * x[11];
	x[25] = x[2] * x[11];
}

static double vi_model(const calc_state *s, int stage)
{
	double x[VI_NF], z = 0;
	vi_features(s, x);
	for (int i = 0; i < VI_NF; i++)
		z += vi_w[stage][i] * x[i];
	return 1 / (1 + exp(-z));
}

static double vi_exact_value(const calc_state *s)
{
	return after_chance(&vi_sv, s, VI_BUDGET);
}

static double vi_value(const calc_state *s)
{
	int n = after_unseen(s);
	if (n <= vi_exact)
		return vi_exact_value(s);
	return vi_model(s, n);
}

/* The mean over the next card's rank of the best placement's value. */
static double vi_backup(const calc_state *a)
{
	int cnt[14] = {0}, n = after_unseen(a);
	for (int i = a->next; i < a->ncards; i++)
		cnt[a->stock[i]]++;
	double sum = 0;
	for (int r = 1; r <= 13; r++) {
		if (!cnt[r])
			continue;
		calc_state t = *a, o[AFTER_MAX];
		int mv[AFTER_MAX];
		calc_turn_rank(&t, r);
		int k = after_options(&t, o, mv);
		double best = 0;
		for (int i = 0; i < k; i++) {
			double v = vi_value(&o[i]);
			if (v > best)
				best = v;
		}
		sum += cnt[r] * best;
	}
	return sum / n;
}

static void vi_keep(vi_set *set, const calc_state *s)
{
	if (set->n == set->cap) {
		set->cap = set->cap ? 2 * set->cap : 1024;
		set->s = xrealloc(set->s, set->cap * sizeof *set->s);
		set->y = xrealloc(set->y, set->cap * sizeof *set->y);
	}
	set->s[set->n++] = *s;
}

/* Every afterstate of the turned position S into its stage's set. */
static void vi_collect(vi_set *sets, const calc_state *s)
{
	calc_state o[AFTER_MAX];
	int mv[AFTER_MAX];
	int k = after_options(s, o, mv);
	for (int i = 0; i < k; i++)
		if (after_unseen(&o[i]) > 0)
			vi_keep(&sets[after_unseen(&o[i])], &o[i]);
}

/* Each turned card once: a position whose hand and stock stand as in
 * the one before (a pile top sent up between) adds nothing. */
static void vi_replayed(void *ctx, const calc_state *s, const calc_state *before)
{
	if (!before || before->hand != s->hand || before->next != s->next)
		vi_collect(ctx, s);
}

static void vi_from_rows(vi_set *sets, const char *path)
{
	after_replay(path, vi_replayed, sets);
}

static void vi_visit(void *ctx, const calc_state *s)
{
	vi_collect(ctx, s);
}

/* Solves A d = b in place (N unknowns, A row-major), partial pivoting. */
static void vi_solve(double *a, double *b, int n)
{
	for (int c = 0; c < n; c++) {
		int p = c;
		for (int r = c + 1; r < n; r++)
			if (fabs(a[r * n + c]) > fabs(a[p * n + c]))
				p = r;
		for (int k = 0; k < n; k++) {
			double t = a[c * n + k];
			a[c * n + k] = a[p * n + k];
			a[p * n + k] = t;
		}
		double t = b[c];
		b[c] = b[p];
		b[p] = t;
		for (int r = c + 1; r < n; r++) {
			double f = a[r * n + c] / a[c * n + c];
			for (int k = c; k < n; k++)
				a[r * n + k] -= f * a[c * n + k];
			b[r] -= f * b[c];
		}
	}
	for (int c = n - 1; c >= 0; c--) {
		for (int k = c + 1; k < n; k++)
			b[c] -= a[c * n + k] * b[k];
		b[c] /= a[c * n + c];
	}
}

/* Logistic regression of SET's targets by Newton's method, a little
 * ridge so that stages with few positions stay bounded. */
static void vi_fit(const vi_set *set, double *w)
{
	static double x[VI_NF], h[VI_NF * VI_NF], g[VI_NF];
	double *xs = xmalloc(set->n * VI_NF * sizeof *xs);
	for (size_t i = 0; i < set->n; i++)
		vi_features(&set->s[i], xs + i * VI_NF);
	for (int it = 0; it < 12; it++) {
		for (int i = 0; i < VI_NF; i++) {
			g[i] = 1e-3 * w[i] * (double)set->n;
			for (int j = 0; j < VI_NF; j++)
				h[i * VI_NF + j] = i == j ? 1e-3 * (double)set->n : 0;
		}
		for (size_t e = 0; e < set->n; e++) {
			memcpy(x, xs + e * VI_NF, sizeof x);
			double z = 0;
			for (int i = 0; i < VI_NF; i++)
				z += w[i] * x[i];
			double p = 1 / (1 + exp(-z)), q = p * (1 - p) + 1e-6;
			for (int i = 0; i < VI_NF; i++) {
				g[i] += (p - set->y[e]) * x[i];
				for (int j = 0; j < VI_NF; j++)
					h[i * VI_NF + j] += q * x[i] * x[j];
			}
		}
		vi_solve(h, g, VI_NF);
		for (int i = 0; i < VI_NF; i++)
			w[i] -= g[i];
	}
	free(xs);
}

/* Stage by stage from the bottom: targets, then the stage's model. */
static void vi_train(vi_set *sets)
{
	for (int n = 1; n < VI_STAGES; n++) {
		vi_set *set = &sets[n];
		size_t kept = 0;
		double mean = 0, sq = 0;
		for (size_t i = 0; i < set->n; i++) {
			double y = n <= vi_exact ? vi_exact_value(&set->s[i]) : vi_backup(&set->s[i]);
			if (y < 0)
				continue;
			set->s[kept] = set->s[i];
			set->y[kept++] = (float)y;
			mean += y;
			sq += y * y;
		}
		set->n = kept;
		if (!kept)
			continue;
		if (n > 1)
			memcpy(vi_w[n], vi_w[n - 1], sizeof vi_w[n]);
		vi_fit(set, vi_w[n]);
		double err = 0;
		for (size_t i = 0; i < kept; i++) {
			double d = vi_model(&set->s[i], n) - set->y[i];
			err += d * d;
		}
		mean /= (double)kept;
		fprintf(stderr, "stage %d: %zu positions, mean %.3f, sd %.3f, rmse %.3f\n", n, kept,
			mean, sqrt(sq / (double)kept - mean * mean), sqrt(err / (double)kept));
	}
}

/* The value PLY (1 or 2) gives afterstate A: ply1 its value, ply2 its
 * backed-up value; either the backed-up value one stage above the exact
 * ones, so that the exact chances decide from there. */
static double vi_judge(const calc_state *a, int ply)
{
	int n = after_unseen(a);
	if (n <= vi_exact)
		return vi_value(a);
	return ply == 2 || n == vi_exact + 1 ? vi_backup(a) : vi_value(a);
}

/* The ply1 or ply2 player's choice (CTX points to the ply): the
 * afterstate of the highest value, the first of those that tie. */
static int vi_choose(void *ctx, const calc_state *s, const calc_state *o, const int *mv, int k)
{
	int ply = *(const int *)ctx, pick = 0;
	double best = -1;
	(void)s;
	(void)mv;
	for (int i = 0; i < k; i++) {
		double v = vi_judge(&o[i], ply);
		if (v > best) {
			best = v;
			pick = i;
		}
	}
	return pick;
}

static void vi_evaluate(const char *path)
{
	table *t = table_open(path, NULL);
	int deck = table_need_col(t, "deck");
	char **decks = NULL;
	size_t n = 0;
	while (table_read_row(t)) {
		decks = xrealloc(decks, (n + 1) * sizeof *decks);
		decks[n++] = xstrdup(table_field(t, (size_t)deck));
	}
	table_close(t);
	for (int ply = 1; ply <= 2; ply++) {
		long won = 0, rest = 0;
		for (size_t i = 0; i < n; i++) {
			int r = after_play("calcvi", decks[i], vi_choose, &ply);
			won += r == 0;
			rest += r;
		}
		printf("ply%d,%zu,%ld,%.2f\n", ply, n, won, (double)rest / (double)n);
		fflush(stdout);
	}
}

enum { VI_JUDGES = 7, VI_ROLLOUTS = 128 };
static const char *const vi_judge_name[VI_JUDGES] = {
	"model", "greedy", "weighted", "greedy rollouts", "cascade rollouts", "32 sampled orders",
	"256 sampled orders",
};

/* How vi_sampled finishes each reshuffle. */
enum { VI_GREEDY, VI_CASCADE, VI_SOLVER };

/* Afterstate A's value on N reshuffles of its unseen cards (stream K of
 * one key for every placement, so that placements are compared on the
 * same orders): the share won by greedy rollouts, cascade rollouts, or
 * with SOLVER by the eager solver with the order in view (within 20,000
 * positions: the sampled orders). */
static double vi_sampled(const calc_state *a, int n, int how)
{
	static calcsolve sv;
	if (how == VI_SOLVER && !sv.key)
		calcsolve_init(&sv, 16, false);
	int won = 0;
	for (int k = 0; k < n; k++) {
		rng r;
		rng_seed(&r, 1000003u * (uint64_t)k + 11);
		calc_state c = *a;
		calc_resample(&c, &r);
		if (how == VI_SOLVER) {
			calc_turn(&c);
			won += calcsolve_run(&sv, &c, 20000, NULL) == CALCSOLVE_WON;
			continue;
		}
		if (how == VI_CASCADE)
			calc_cascade_playout(&c, false, -1);
		else
			calc_greedy_playout(&c);
		won += calc_success(&c);
	}
	return (double)won / n;
}

/* The option each judge picks among the K afterstates O of S at stage U;
 * false if a rule's move is not among them. */
static bool vi_picks(void *ctx, const calc_state *s, const calc_state *o, const int *mv, int k,
		     int u, int *pick)
{
	(void)ctx;
	pick[1] = after_option_of(s, mv, k, calc_greedy_move(s));
	pick[2] = after_option_of(s, mv, k, calc_weighted_move(s));
	if (pick[1] < 0 || pick[2] < 0)
		return false;
	double top[VI_JUDGES] = {0};
	for (int j = 0; j < k; j++) {
		double v[VI_JUDGES] = {vi_model(&o[j], u),
				       0,
				       0,
				       vi_sampled(&o[j], VI_ROLLOUTS, VI_GREEDY),
				       vi_sampled(&o[j], VI_ROLLOUTS, VI_CASCADE),
				       vi_sampled(&o[j], 32, VI_SOLVER),
				       vi_sampled(&o[j], 256, VI_SOLVER)};
		for (int q = 0; q < VI_JUDGES; q++) {
			if (q == 1 || q == 2)
				continue;
			if (!j || v[q] > top[q]) {
				top[q] = v[q];
				pick[q] = j;
			}
		}
	}
	return true;
}

/* How well each judge ranks the placements where the exact chances are
 * known: over best's positions of FILE whose afterstates lie at 3 to
 * EXACT unseen, with two or more placements and no pile top to send up,
 * the mean loss of chance against the best placement and the share of
 * choices that lose none. */
static void vi_regret(const char *path, int lo, int hi)
{
	after_score r;
	after_regret(path, lo, hi, &vi_sv, VI_BUDGET, VI_JUDGES, vi_picks, NULL, &r);
	fprintf(stderr, "regret %d-%d unseen: %ld choices left out, the exact search past its budget\n",
		lo, hi, r.unsolved);
	for (int q = 0; q < VI_JUDGES; q++)
		fprintf(stderr, "regret %d-%d unseen, %s: %ld choices, mean loss %.4f, best %.3f\n", lo,
			hi, vi_judge_name[q], r.choices, r.loss[q] / (double)r.choices,
			r.hit[q] / (double)r.choices);
}

int main(int argc, char **argv)
{
	if (argc != 5 && argc != 7)
		die("%s", VI_USAGE);
	vi_exact = (int)cli_i64("EXACT", argv[1], 1, 12);
	long games = cli_i64("GAMES", argv[2], 0, 10000000);
	calcsolve_init(&vi_sv, 20, false);
	static vi_set sets[VI_STAGES];
	vi_from_rows(sets, argv[3]);
	after_explore(games, 7, vi_visit, sets);
	vi_train(sets);
	vi_regret(argv[3], 3, vi_exact);
	if (argc == 7) {
		int lo = (int)cli_i64("LO", argv[5], 3, 14);
		vi_regret(argv[3], lo, (int)cli_i64("HI", argv[6], lo, 14));
	}
	printf("player,deals,won,rest\n");
	vi_evaluate(argv[4]);
	return 0;
}
