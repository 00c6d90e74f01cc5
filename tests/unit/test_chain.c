/* The search against a brute force over every word (no classes, no
 * pruning, no table) on small random dictionaries: this checks the
 * exchange argument in chain.h, alpha-beta and the table together. */
#include <stdlib.h>
#include <unistd.h>

#include "shiritori/chain.h"
#include "core/rng.h"
#include "unit.h"
#include "core/util.h"

static int64_t brute(const dict *d, const chain_rules *r, uint8_t *used, uint32_t tail,
		     int turn, int depth)
{
	int left = 2 * r->rounds - turn;
	if (depth > left)
		depth = left;
	if (depth == 0)
		return 0;
	int64_t best = 0;
	bool any = false;
	for (uint32_t w = 0; w < d->nwords; w++) {
		if (used[w] || d->head[w] != tail)
			continue;
		int64_t v = d->len[w];
		if (r->lose_tail && r->lose_tail[d->tail[w]]) {
			v -= CHAIN_LOSS;
		} else {
			used[w] = 1;
			v -= brute(d, r, used, d->tail[w], turn + 1, depth - 1);
			used[w] = 0;
		}
		if (!any || v > best)
			best = v;
		any = true;
	}
	return any ? best : -CHAIN_LOSS;
}

/* The choice chain.h promises, by brute force: every legal word in class
 * order (classes by id, each class's words longest first), the K-th of
 * the best with K drawn from the stream (SEED, turn) below their number;
 * DEPTH 0 is the random player (any legal word). */
static uint32_t reference_choice(const dict *d, const chain_rules *r, const chain_game *g,
				 int depth, uint64_t seed)
{
	uint32_t words[64];
	int64_t values[64];
	size_t n = 0;
	int64_t best = -CHAIN_INF;
	for (uint32_t i = d->hstart[g->tail]; i < d->hstart[g->tail + 1]; i++) {
		uint32_t c = d->hclasses[i];
		for (uint32_t j = d->cstart[c]; j < d->cstart[c + 1]; j++) {
			uint32_t w = d->cwords[j];
			if (g->used[w])
				continue;
			int64_t v = d->len[w];
			if (depth == 0) {
				v = 0;
			} else if (r->lose_tail && r->lose_tail[d->tail[w]]) {
				v -= CHAIN_LOSS;
			} else {
				g->used[w] = 1;
				v -= brute(d, r, g->used, d->tail[w], g->turn + 1, depth - 1);
				g->used[w] = 0;
			}
			words[n] = w;
			values[n++] = v;
			if (v > best)
				best = v;
		}
	}
	size_t nbest = 0;
	for (size_t i = 0; i < n; i++)
		nbest += values[i] == best;
	rng rs;
	rng_stream(&rs, seed, (uint64_t)(g->turn + 1));
	uint64_t k = rng_below(&rs, nbest);
	for (size_t i = 0; i < n; i++)
		if (values[i] == best && k-- == 0)
			return words[i];
	return UINT32_MAX;
}

static const char *make_dict(rng *rng, int nkeys, int nwords)
{
	static char path[64];
	snprintf(path, sizeof path, "/tmp/yomi-chain-%d.csv", (int)getpid());
	FILE *f = fopen(path, "w");
	fprintf(f, "word,head,tail,len\n");
	for (int i = 0; i < nwords; i++)
		fprintf(f, "w%d,%c,%c,%d\n", i, 'a' + (int)rng_below(rng, (uint64_t)nkeys),
			'a' + (int)rng_below(rng, (uint64_t)nkeys), 1 + (int)rng_below(rng, 6));
	fclose(f);
	return path;
}

/* One random position and the search that looks at it. */
typedef struct {
	const dict *d;
	const chain_rules *r;
	chain_search *s;
	chain_game *g;
	int trial;
} position;

typedef struct {
	int cases, bad;
} tally;

/* The five comparisons share one sweep over 300 positions, so the
 * search's table carries over from one to the next as it did when they
 * were a single loop: the sweep runs once, whichever tests are asked. */
static struct {
	bool done;
	tally value, trace, choice, order, same;
} sweep;

/* The brute-force value of the mover playing W, searched DEPTH plies on. */
static int64_t brute_play(const position *p, uint32_t w, int depth)
{
	const dict *d = p->d;
	int64_t v = d->len[w];
	if (p->r->lose_tail && p->r->lose_tail[d->tail[w]])
		return v - CHAIN_LOSS;
	p->g->used[w] = 1;
	v -= brute(d, p->r, p->g->used, d->tail[w], p->g->turn + 1, depth);
	p->g->used[w] = 0;
	return v;
}

static void sweep_values(const position *p)
{
	for (int depth = 1; depth <= 2 * p->r->rounds; depth++) {
		int64_t want = brute(p->d, p->r, p->g->used, p->g->tail, p->g->turn, depth);
		int64_t got = chain_value(p->s, p->g, depth);
		sweep.value.cases++;
		if (want != got) {
			sweep.value.bad++;
			printf("# trial %d depth %d: brute %lld, search %lld\n", p->trial, depth,
			       (long long)want, (long long)got);
		}
	}
}

/* The trace lists every legal word; each candidate's value, at depth
 * end, equals the brute-force value of playing it; exactly one is marked
 * chosen, the word returned, and it has the best value. */
static void sweep_trace(const position *p)
{
	chain_trace tr = {0};
	chain_strategy end = {.kind = CHAIN_LOOKAHEAD, .depth = CHAIN_DEPTH_END};
	uint32_t chosen;
	if (chain_choose(p->s, p->g, &end, 7, &tr, &chosen)) {
		for (size_t i = 0; i < tr.n; i++) {
			int64_t want = brute_play(p, tr.c[i].word, 2 * p->r->rounds);
			sweep.trace.cases++;
			if (!tr.c[i].value_known || tr.c[i].value != want)
				sweep.trace.bad++;
		}
		size_t legal = 0;
		for (uint32_t x = 0; x < p->d->nwords; x++)
			legal += !p->g->used[x] && p->d->head[x] == p->g->tail;
		if (legal != tr.n)
			sweep.trace.bad++;
		int64_t best = tr.c[0].value;
		for (size_t i = 0; i < tr.n; i++)
			if (tr.c[i].value > best)
				best = tr.c[i].value;
		int marked = 0;
		for (size_t i = 0; i < tr.n; i++) {
			if (!tr.c[i].chosen)
				continue;
			marked++;
			if (tr.c[i].value != best || tr.c[i].word != chosen)
				sweep.trace.bad++;
		}
		if (marked != 1)
			sweep.trace.bad++;
	}
	free(tr.c);
}

/* Without a trace only ties are searched exactly: the choice must still
 * be a best word, at several depths, the one chain.h documents among
 * them, and a trace must not change it. */
static void sweep_choices(const position *p)
{
	const dict *d = p->d;
	chain_game *g = p->g;
	for (int depth = 1; depth <= 4; depth++) {
		chain_strategy la = {.kind = CHAIN_LOOKAHEAD, .depth = depth};
		uint32_t w;
		if (!chain_choose(p->s, g, &la, (uint64_t)p->trial, NULL, &w))
			break;
		int64_t best = -4 * CHAIN_LOSS, got = 0;
		bool found = false;
		for (uint32_t x = 0; x < d->nwords; x++) {
			if (g->used[x] || d->head[x] != g->tail)
				continue;
			int64_t v = brute_play(p, x, depth - 1);
			if (v > best)
				best = v;
			if (x == w)
				got = v, found = true;
		}
		sweep.choice.cases++;
		if (!found || got != best)
			sweep.choice.bad++;
		sweep.order.cases++;
		if (w != reference_choice(d, p->r, g, depth, (uint64_t)p->trial))
			sweep.order.bad++;
		chain_trace tr2 = {0};
		uint32_t w2;
		bool moved = chain_choose(p->s, g, &la, (uint64_t)p->trial, &tr2, &w2);
		free(tr2.c);
		sweep.same.cases++;
		if (!moved || w2 != w)
			sweep.same.bad++;
	}
	/* The random player draws the same way over every legal word. */
	chain_strategy rnd = {.kind = CHAIN_RANDOM};
	uint32_t rw;
	if (chain_choose(p->s, g, &rnd, 5, NULL, &rw)) {
		sweep.order.cases++;
		if (rw != reference_choice(d, p->r, g, 0, 5))
			sweep.order.bad++;
	}
}

static void sweep_trial(rng *rng, int trial)
{
	const char *path = make_dict(rng, 2 + (int)rng_below(rng, 3), 6 + (int)rng_below(rng, 9));
	dict *d = dict_load(path);
	chain_rules r = {.rounds = 2 + (int)rng_below(rng, 4)};
	if (trial % 3 == 0) {
		r.lose_tail = calloc(d->nkeys, 1);
		r.lose_tail[rng_below(rng, d->nkeys)] = 1;
	}
	uint64_t *z = chain_zobrist(d);
	chain_search *s = chain_search_new(d, &r);
	chain_game g;
	chain_init(&g, d, &r, z);
	chain_start(&g, (uint32_t)rng_below(rng, d->nwords));
	/* A few random moves first, so positions with words used out of
	 * class order are covered too. */
	int pre = (int)rng_below(rng, 3);
	for (int m = 0; m < pre && g.end == CHAIN_RUNNING; m++) {
		chain_strategy rnd = {.kind = CHAIN_RANDOM};
		uint32_t w;
		if (!chain_choose(s, &g, &rnd, (uint64_t)trial, NULL, &w))
			break;
		chain_play(&g, w);
	}
	if (g.end == CHAIN_RUNNING) {
		position p = {.d = d, .r = &r, .s = s, .g = &g, .trial = trial};
		sweep_values(&p);
		sweep_trace(&p);
		sweep_choices(&p);
	}
	chain_free(&g);
	chain_search_free(s);
	free(z);
	free(r.lose_tail);
	dict_free(d);
	unlink(path);
}

static void run_sweep(void)
{
	if (sweep.done)
		return;
	rng rng;
	rng_seed(&rng, 2026);
	for (int trial = 0; trial < 300; trial++)
		sweep_trial(&rng, trial);
	sweep.done = true;
}

static void test_chain_values_match_bruteforce(void)
{
	run_sweep();
	CHECK(sweep.value.bad == 0 && sweep.value.cases > 500,
	      "search values equal brute force at every depth (%d positions, %d wrong)",
	      sweep.value.cases, sweep.value.bad);
}

static void test_chain_traced_values_match_bruteforce(void)
{
	run_sweep();
	CHECK(sweep.trace.bad == 0 && sweep.trace.cases > 300,
	      "traces list every legal word at its brute-force value, the choice best "
	      "(%d candidates, %d wrong)",
	      sweep.trace.cases, sweep.trace.bad);
}

static void test_chain_untraced_choice_is_best(void)
{
	run_sweep();
	CHECK(sweep.choice.bad == 0 && sweep.choice.cases > 300,
	      "untraced choices at depths 1-4 are best by brute force (%d choices, %d wrong)",
	      sweep.choice.cases, sweep.choice.bad);
}

static void test_chain_choice_is_documented_kth_best(void)
{
	run_sweep();
	CHECK(sweep.order.bad == 0 && sweep.order.cases > 300,
	      "choices are the documented k-th best word in class order (%d choices, %d differ)",
	      sweep.order.cases, sweep.order.bad);
}

static void test_chain_trace_keeps_choice(void)
{
	run_sweep();
	CHECK(sweep.same.bad == 0 && sweep.same.cases > 300,
	      "a trace never changes the choice (%d choices, %d differ)", sweep.same.cases,
	      sweep.same.bad);
}

static const unit_test tests[] = {
	UNIT_TEST(chain_values_match_bruteforce),
	UNIT_TEST(chain_traced_values_match_bruteforce),
	UNIT_TEST(chain_untraced_choice_is_best),
	UNIT_TEST(chain_choice_is_documented_kth_best),
	UNIT_TEST(chain_trace_keeps_choice),
};

int main(int argc, char **argv)
{
	util_init("unit");
	return UNIT_MAIN(tests, argc, argv);
}
