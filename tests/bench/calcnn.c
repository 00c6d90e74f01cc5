/* calcnn: a small neural network as the value of Calculation afterstates
 * (the hand placed, every pile top that fits sent up, the next card face
 * down) for a player who cannot see the stock, fitted to exact chances,
 * and how well it ranks placements. Research tool for issue 27.
 *
 * calcvi's logistic models over hand-made features explained about half
 * the variance of the exact chances and ranked placements no better than
 * the greedy rule. This asks whether a value that reads the piles card by
 * card does better. Each pile is read from the top, NN_SLOTS cards, each
 * card by how many cards each foundation needs before it takes that rank
 * (and whether it takes it at all); one encoder (two layers) serves the
 * four piles, whose outputs are averaged and maxed, so that the piles'
 * order does not matter; the head (two layers) adds the unseen cards by
 * rank, the foundations' progress and how many copies of each
 * foundation's next four ranks are unseen, and gives the chance through a
 * logistic. Trained by Adam on cross-entropy against the exact chance
 * (calcsolve_expect over eager lines), batches of NN_BATCH.
 *
 *   calcnn LO HI GAMES EPOCHS FILE [TRAIN]
 *
 * The positions: the afterstates at LO to HI cards unseen of GAMES
 * exploration games (after_explore: the weighted rule, a fifth of its
 * placements at random; stream 11), or with TRAIN (rows as FILE's) of GAMES
 * such games from each position of TRAIN's games at HI + 1 to HI + 12
 * unseen, its unseen cards reshuffled. A tenth of the games is held out
 * whole (with TRAIN, continuations of one position can fall on both
 * sides, so the held-out error flatters the fit a little). Writes
 * one row an epoch, epoch,loss,rmse (training cross-entropy, held-out
 * root mean square error), then stage,positions,sd,rmse over the held-out
 * positions, then judge,choices,loss,best: over FILE's positions (rows of
 * playout --deals --moves, positions no training game saw) at LO to HI
 * unseen with two placements or more and no pile top to send up, the mean
 * chance each judge's choice loses against the best placement's and the
 * share of choices that lose none, for the network and the greedy and
 * weighted rules. LO 1..HI, HI up to 9, GAMES 1..10^6, EPOCHS 1..1000. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc/calc.h"
#include "calc/calcrows.h"
#include "calc/calcsolve.h"
#include "core/cli.h"
#include "core/rng.h"
#include "core/util.h"

#include "calcafter.h"

#define NN_USAGE "usage: calcnn LO HI GAMES EPOCHS FILE [TRAIN]"

enum {
	NN_SLOTS = 12,                      /* pile cards read, from the top */
	NN_CF = 5,                          /* features a card */
	NN_PIN = NN_SLOTS * NN_CF + 2,      /* a pile's inputs */
	NN_H1 = 64, NN_H2 = 32,             /* the pile encoder's layers */
	NN_GIN = 1 + 13 + 4 + 16,           /* the position's own inputs */
	NN_HIN = 2 * NN_H2 + NN_GIN, NN_H3 = 64,
	NN_BATCH = 32,
};
enum { NN_BUDGET = 2000000 };

/* The parameters' offsets in one array, so that Adam runs over all. */
enum {
	NN_W1 = 0, NN_B1 = NN_W1 + NN_H1 * NN_PIN,
	NN_W2 = NN_B1 + NN_H1, NN_B2 = NN_W2 + NN_H2 * NN_H1,
	NN_W3 = NN_B2 + NN_H2, NN_B3 = NN_W3 + NN_H3 * NN_HIN,
	NN_W4 = NN_B3 + NN_H3, NN_B4 = NN_W4 + NN_H3,
	NN_NP = NN_B4 + 1,
};

typedef struct {
	float pin[4][NN_PIN], gin[NN_GIN];
} nn_input;

typedef struct {
	nn_input *x;
	float *y;
	int *stage;
	bool *held;
	size_t n, cap;
} nn_set;

/* A forward pass kept for the backward one. */
typedef struct {
	float h1[4][NN_H1], h2[4][NN_H2], hin[NN_HIN], h3[NN_H3];
	int arg[NN_H2]; /* the pile whose output the max took */
	float p;
} nn_pass;

static float nn_par[NN_NP], nn_grad[NN_NP], nn_m[NN_NP], nn_v[NN_NP];
static long nn_steps;
static calcsolve nn_sv;

/* How many cards foundation K takes before it takes RANK: 1 - that/13,
 * or 0 if it never takes it again. */
static float nn_soon(const calc_state *s, int k, int rank)
{
	for (int n = s->found[k]; n < 13; n++)
		if (calc_need(k, n) == rank)
			return 1.0f - (float)(n - s->found[k]) / 13.0f;
	return 0;
}

static void nn_encode(const calc_state *s, nn_input *x)
{
	memset(x, 0, sizeof *x);
	float soon[14][4];
	for (int r = 1; r <= 13; r++)
		for (int k = 0; k < 4; k++)
			soon[r][k] = nn_soon(s, k, r);
	for (int w = 0; w < s->npiles; w++) {
		int len = s->len[w];
		float *p = x->pin[w];
		for (int i = 0; i < NN_SLOTS && i < len; i++) {
			int c = s->pile[w][len - 1 - i];
			for (int k = 0; k < 4; k++)
				p[i * NN_CF + k] = soon[c][k];
			p[i * NN_CF + 4] = 1;
		}
		p[NN_SLOTS * NN_CF] = (float)len / 13.0f;
		p[NN_SLOTS * NN_CF + 1] = len > NN_SLOTS ? (float)(len - NN_SLOTS) / 8.0f : 0;
	}
	int cnt[14] = {0};
	for (int i = s->next; i < s->ncards; i++)
		cnt[s->stock[i]]++;
	float *g = x->gin;
	g[0] = (float)after_unseen(s) / 48.0f;
	for (int r = 1; r <= 13; r++)
		g[r] = (float)cnt[r] / 4.0f;
	for (int k = 0; k < 4; k++) {
		g[14 + k] = (float)s->found[k] / 13.0f;
		for (int j = 0; j < 4; j++) {
			int n = s->found[k] + j;
			g[18 + 4 * k + j] = n < 13 ? (float)cnt[calc_need(k, n)] / 4.0f : 0;
		}
	}
}

/* OUT = relu(W IN + B), W rows of N inputs. */
static void nn_layer(const float *w, const float *b, const float *in, int n, int m, float *out)
{
	for (int j = 0; j < m; j++) {
		float z = b[j];
		const float *row = w + (size_t)j * n;
		for (int i = 0; i < n; i++)
			z += row[i] * in[i];
		out[j] = z > 0 ? z : 0;
	}
}

static float nn_forward(const nn_input *x, nn_pass *f)
{
	const float *P = nn_par;
	for (int w = 0; w < 4; w++) {
		nn_layer(P + NN_W1, P + NN_B1, x->pin[w], NN_PIN, NN_H1, f->h1[w]);
		nn_layer(P + NN_W2, P + NN_B2, f->h1[w], NN_H1, NN_H2, f->h2[w]);
	}
	for (int j = 0; j < NN_H2; j++) {
		float sum = 0, max = f->h2[0][j];
		f->arg[j] = 0;
		for (int w = 0; w < 4; w++) {
			sum += f->h2[w][j];
			if (f->h2[w][j] > max) {
				max = f->h2[w][j];
				f->arg[j] = w;
			}
		}
		f->hin[j] = sum / 4;
		f->hin[NN_H2 + j] = max;
	}
	memcpy(f->hin + 2 * NN_H2, x->gin, sizeof x->gin);
	nn_layer(P + NN_W3, P + NN_B3, f->hin, NN_HIN, NN_H3, f->h3);
	float z = P[NN_B4];
	for (int j = 0; j < NN_H3; j++)
		z += P[NN_W4 + j] * f->h3[j];
	f->p = 1 / (1 + expf(-z));
	return f->p;
}

/* Adds to the gradient of the layer at offsets W, B (N inputs IN, M relu
 * outputs OUT) for the gradient D of its outputs, passed only where an
 * output is positive, and writes the gradient of its inputs into DIN
 * (NULL: not wanted). */
static void nn_layer_back(int w, int b, const float *in, const float *out, float *d, int n,
			  int m, float *din)
{
	if (din)
		memset(din, 0, (size_t)n * sizeof *din);
	for (int j = 0; j < m; j++) {
		if (out[j] <= 0)
			continue;
		float dj = d[j];
		float *gw = nn_grad + w + (size_t)j * n;
		const float *row = nn_par + w + (size_t)j * n;
		nn_grad[b + j] += dj;
		for (int i = 0; i < n; i++)
			gw[i] += dj * in[i];
		if (din)
			for (int i = 0; i < n; i++)
				din[i] += dj * row[i];
	}
}

static void nn_backward(const nn_input *x, nn_pass *f, float y)
{
	float dz = f->p - y, d3[NN_H3], dhin[NN_HIN];
	nn_grad[NN_B4] += dz;
	for (int j = 0; j < NN_H3; j++) {
		nn_grad[NN_W4 + j] += dz * f->h3[j];
		d3[j] = dz * nn_par[NN_W4 + j];
	}
	nn_layer_back(NN_W3, NN_B3, f->hin, f->h3, d3, NN_HIN, NN_H3, dhin);
	for (int w = 0; w < 4; w++) {
		float d2[NN_H2], d1[NN_H1];
		for (int j = 0; j < NN_H2; j++)
			d2[j] = dhin[j] / 4 + (f->arg[j] == w ? dhin[NN_H2 + j] : 0);
		nn_layer_back(NN_W2, NN_B2, f->h1[w], f->h2[w], d2, NN_H1, NN_H2, d1);
		nn_layer_back(NN_W1, NN_B1, x->pin[w], f->h1[w], d1, NN_PIN, NN_H1, NULL);
	}
}

static void nn_adam(float lr)
{
	const float b1 = 0.9f, b2 = 0.999f;
	nn_steps++;
	float c1 = 1 - powf(b1, (float)nn_steps), c2 = 1 - powf(b2, (float)nn_steps);
	for (int i = 0; i < NN_NP; i++) {
		float g = nn_grad[i] / NN_BATCH;
		nn_m[i] = b1 * nn_m[i] + (1 - b1) * g;
		nn_v[i] = b2 * nn_v[i] + (1 - b2) * g * g;
		nn_par[i] -= lr * (nn_m[i] / c1) / (sqrtf(nn_v[i] / c2) + 1e-8f);
		nn_grad[i] = 0;
	}
}

/* He initialisation of each layer's weights, from R. */
static void nn_init(rng *r)
{
	static const int lay[][3] = {{NN_W1, NN_PIN, NN_H1},
				     {NN_W2, NN_H1, NN_H2},
				     {NN_W3, NN_HIN, NN_H3},
				     {NN_W4, NN_H3, 1}};
	for (size_t l = 0; l < sizeof lay / sizeof lay[0]; l++) {
		float sd = sqrtf(2.0f / (float)lay[l][1]);
		for (int i = 0; i < lay[l][1] * lay[l][2]; i++) {
			/* a sum of four uniforms: near enough a normal's shape */
			float u = 0;
			for (int t = 0; t < 4; t++)
				u += (float)rng_below32(r, 1u << 24) / (float)(1u << 24) - 0.5f;
			nn_par[lay[l][0] + i] = u * sd * sqrtf(3.0f);
		}
	}
}

static double nn_exact(const calc_state *s)
{
	return after_chance(&nn_sv, s, NN_BUDGET);
}

typedef struct {
	nn_set *set;
	int lo, hi;
} nn_collect;

static void nn_visit(void *ctx, const calc_state *s)
{
	nn_collect *c = ctx;
	calc_state o[AFTER_MAX];
	int mv[AFTER_MAX], k = after_options(s, o, mv);
	for (int i = 0; i < k; i++) {
		int u = after_unseen(&o[i]);
		if (u < c->lo || u > c->hi)
			continue;
		double v = nn_exact(&o[i]);
		if (v < 0)
			continue;
		nn_set *set = c->set;
		if (set->n == set->cap) {
			set->cap = set->cap ? 2 * set->cap : 4096;
			set->x = xrealloc(set->x, set->cap * sizeof *set->x);
			set->y = xrealloc(set->y, set->cap * sizeof *set->y);
			set->stage = xrealloc(set->stage, set->cap * sizeof *set->stage);
			set->held = xrealloc(set->held, set->cap * sizeof *set->held);
		}
		/* a game's deck stays in its stock array, so that the games held
		 * out share no positions with the ones trained on */
		uint64_t key = 0;
		for (int j = 0; j < o[i].ncards; j++)
			key = rng_mix64(key + o[i].stock[j]);
		set->held[set->n] = key % 10 == 0;
		nn_encode(&o[i], &set->x[set->n]);
		set->y[set->n] = (float)v;
		set->stage[set->n++] = u;
	}
}

/* nn_from_rows's arguments, as after_replay passes them on. */
typedef struct {
	nn_collect *c;
	long games;
	rng r;
} nn_rows;

static void nn_replayed(void *ctx, const calc_state *s, const calc_state *before)
{
	nn_rows *a = ctx;
	int u = after_unseen(s);
	(void)before;
	if (u <= a->c->hi || u > a->c->hi + 12)
		return;
	for (long g = 0; g < a->games; g++) {
		calc_state t = *s;
		calc_resample(&t, &a->r);
		after_wander(&t, &a->r, nn_visit, a->c);
	}
}

/* GAMES continuations (after_wander on a reshuffle of the unseen cards)
 * from each position of PATH's games with the hand turned and HI + 1 to
 * HI + 12 cards unseen: positions shaped by the player of PATH. */
static void nn_from_rows(nn_collect *c, const char *path, long games)
{
	nn_rows a = {.c = c, .games = games};
	rng_seed(&a.r, 11);
	after_replay(path, nn_replayed, &a);
}

/* Trains on the positions of all but a tenth of the games, reporting
 * each epoch. */
static void nn_train(const nn_set *set, int epochs)
{
	size_t *order = xmalloc(set->n * sizeof *order), m = 0;
	for (size_t i = 0; i < set->n; i++)
		if (!set->held[i])
			order[m++] = i;
	rng r;
	rng_seed(&r, 5);
	nn_init(&r);
	printf("epoch,loss,rmse\n");
	for (int e = 1; e <= epochs; e++) {
		for (size_t i = m; i > 1; i--) {
			size_t j = rng_below(&r, i), t = order[i - 1];
			order[i - 1] = order[j];
			order[j] = t;
		}
		float lr = 1e-3f * (e > epochs * 3 / 4 ? 0.1f : 1.0f);
		double loss = 0;
		for (size_t i = 0; i < m; i++) {
			nn_pass f;
			size_t q = order[i];
			float p = nn_forward(&set->x[q], &f), y = set->y[q];
			p = fminf(fmaxf(p, 1e-6f), 1 - 1e-6f);
			loss -= y * logf(p) + (1 - y) * logf(1 - p);
			nn_backward(&set->x[q], &f, y);
			if ((i + 1) % NN_BATCH == 0)
				nn_adam(lr);
		}
		double se = 0;
		long h = 0;
		for (size_t i = 0; i < set->n; i++) {
			if (!set->held[i])
				continue;
			nn_pass f;
			double d = nn_forward(&set->x[i], &f) - set->y[i];
			se += d * d;
			h++;
		}
		printf("%d,%.5f,%.4f\n", e, loss / (double)m, sqrt(se / (double)h));
		fflush(stdout);
	}
	free(order);
}

static void nn_stages(const nn_set *set, int lo, int hi)
{
	printf("stage,positions,sd,rmse\n");
	for (int u = lo; u <= hi; u++) {
		double s = 0, s2 = 0, se = 0;
		long n = 0;
		for (size_t i = 0; i < set->n; i++) {
			if (!set->held[i] || set->stage[i] != u)
				continue;
			nn_pass f;
			double y = set->y[i], d = nn_forward(&set->x[i], &f) - y;
			s += y;
			s2 += y * y;
			se += d * d;
			n++;
		}
		if (n)
			printf("%d,%ld,%.4f,%.4f\n", u, n, sqrt(fmax(0, s2 / n - s * s / n / n)),
			       sqrt(se / n));
	}
}

static double nn_value(const calc_state *s)
{
	nn_input x;
	nn_pass f;
	nn_encode(s, &x);
	return nn_forward(&x, &f);
}

/* The network's choice and the greedy and weighted rules', for
 * after_regret. */
static bool nn_picks(void *ctx, const calc_state *s, const calc_state *o, const int *mv, int k,
		     int u, int *pick)
{
	(void)ctx, (void)u;
	double best = -1;
	for (int j = 0; j < k; j++) {
		double q = nn_value(&o[j]);
		if (q > best) {
			best = q;
			pick[0] = j;
		}
	}
	pick[1] = after_option_of(s, mv, k, calc_greedy_move(s));
	pick[2] = after_option_of(s, mv, k, calc_weighted_move(s));
	return pick[1] >= 0 && pick[2] >= 0;
}

/* The network's, greedy's and weighted's losses of chance on FILE's
 * positions at LO..HI unseen. */
static void nn_regret(const char *path, int lo, int hi)
{
	static const char *name[3] = {"network", "greedy", "weighted"};
	after_score r;
	after_regret(path, lo, hi, &nn_sv, NN_BUDGET, 3, nn_picks, NULL, &r);
	printf("judge,choices,loss,best\n");
	for (int q = 0; q < 3; q++)
		printf("%s,%ld,%.4f,%.3f\n", name[q], r.choices, r.loss[q] / (double)r.choices,
		       r.hit[q] / (double)r.choices);
}

int main(int argc, char **argv)
{
	if (argc != 6 && argc != 7)
		die("%s", NN_USAGE);
	int hi = (int)cli_i64("HI", argv[2], 1, 9);
	int lo = (int)cli_i64("LO", argv[1], 1, hi);
	long games = cli_i64("GAMES", argv[3], 1, 1000000);
	int epochs = (int)cli_i64("EPOCHS", argv[4], 1, 1000);
	calcsolve_init(&nn_sv, 20, false);
	static nn_set set;
	nn_collect c = {&set, lo, hi};
	if (argc == 7)
		nn_from_rows(&c, argv[6], games);
	else
		after_explore(games, 11, nn_visit, &c);
	fprintf(stderr, "calcnn: %zu positions at %d-%d unseen\n", set.n, lo, hi);
	nn_train(&set, epochs);
	nn_stages(&set, lo, hi);
	nn_regret(argv[5], lo, hi);
	return 0;
}
