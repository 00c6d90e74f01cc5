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

int main(void)
{
	util_init("unit");
	rng rng;
	rng_seed(&rng, 2026);
	int value_cases = 0, value_bad = 0, trace_cases = 0, trace_bad = 0, choice_cases = 0,
	    choice_bad = 0, same_cases = 0, same_bad = 0, order_cases = 0, order_bad = 0;
	for (int trial = 0; trial < 300; trial++) {
		const char *path = make_dict(&rng, 2 + (int)rng_below(&rng, 3), 6 + (int)rng_below(&rng, 9));
		dict *d = dict_load(path);
		chain_rules r = {.rounds = 2 + (int)rng_below(&rng, 4)};
		if (trial % 3 == 0) {
			r.lose_tail = calloc(d->nkeys, 1);
			r.lose_tail[rng_below(&rng, d->nkeys)] = 1;
		}
		uint64_t *z = chain_zobrist(d);
		chain_search *s = chain_search_new(d, &r);
		chain_game g;
		chain_init(&g, d, &r, z);
		chain_start(&g, (uint32_t)rng_below(&rng, d->nwords));
		/* A few random moves first, so positions with words used out of
		 * class order are covered too. */
		int pre = (int)rng_below(&rng, 3);
		for (int m = 0; m < pre && g.end == CHAIN_RUNNING; m++) {
			chain_strategy rnd = {.kind = CHAIN_RANDOM};
			uint32_t w;
			if (!chain_choose(s, &g, &rnd, (uint64_t)trial, NULL, &w))
				break;
			chain_play(&g, w);
		}
		if (g.end != CHAIN_RUNNING)
			goto next;
		for (int depth = 1; depth <= 2 * r.rounds; depth++) {
			int64_t want = brute(d, &r, g.used, g.tail, g.turn, depth);
			int64_t got = chain_value(s, &g, depth);
			value_cases++;
			if (want != got) {
				value_bad++;
				printf("# trial %d depth %d: brute %lld, search %lld\n", trial, depth,
				       (long long)want, (long long)got);
			}
		}
		/* Every traced candidate's value, at depth end, equals the
		 * brute-force value of playing it. */
		chain_trace tr = {0};
		chain_strategy end = {.kind = CHAIN_LOOKAHEAD, .depth = CHAIN_DEPTH_END};
		uint32_t chosen;
		if (chain_choose(s, &g, &end, 7, &tr, &chosen)) {
			for (size_t i = 0; i < tr.n; i++) {
				uint32_t w = tr.c[i].word;
				int64_t want = d->len[w];
				if (r.lose_tail && r.lose_tail[d->tail[w]]) {
					want -= CHAIN_LOSS;
				} else {
					g.used[w] = 1;
					want -= brute(d, &r, g.used, d->tail[w], g.turn + 1, 2 * r.rounds);
					g.used[w] = 0;
				}
				trace_cases++;
				if (!tr.c[i].value_known || tr.c[i].value != want)
					trace_bad++;
			}
			/* The chosen word has the best value. */
			int64_t best = tr.c[0].value;
			for (size_t i = 0; i < tr.n; i++)
				if (tr.c[i].value > best)
					best = tr.c[i].value;
			for (size_t i = 0; i < tr.n; i++)
				if (tr.c[i].chosen && tr.c[i].value != best)
					trace_bad++;
		}
		free(tr.c);
		/* Without a trace only ties are searched exactly: the choice must
		 * still be a best word, at several depths. */
		for (int depth = 1; depth <= 4; depth++) {
			chain_strategy la = {.kind = CHAIN_LOOKAHEAD, .depth = depth};
			uint32_t w;
			if (!chain_choose(s, &g, &la, (uint64_t)trial, NULL, &w))
				break;
			int64_t best = -4 * CHAIN_LOSS, got = 0;
			for (uint32_t x = 0; x < d->nwords; x++) {
				if (g.used[x] || d->head[x] != g.tail)
					continue;
				int64_t v = d->len[x];
				if (r.lose_tail && r.lose_tail[d->tail[x]]) {
					v -= CHAIN_LOSS;
				} else {
					g.used[x] = 1;
					v -= brute(d, &r, g.used, d->tail[x], g.turn + 1, depth - 1);
					g.used[x] = 0;
				}
				if (v > best)
					best = v;
				if (x == w)
					got = v;
			}
			choice_cases++;
			if (got != best)
				choice_bad++;
			order_cases++;
			if (w != reference_choice(d, &r, &g, depth, (uint64_t)trial))
				order_bad++;
			/* A trace must not change the choice. */
			chain_trace tr2 = {0};
			uint32_t w2;
			chain_choose(s, &g, &la, (uint64_t)trial, &tr2, &w2);
			free(tr2.c);
			same_cases++;
			if (w2 != w)
				same_bad++;
		}
		/* The random player draws the same way over every legal word. */
		chain_strategy rnd = {.kind = CHAIN_RANDOM};
		uint32_t rw;
		if (chain_choose(s, &g, &rnd, 5, NULL, &rw)) {
			order_cases++;
			if (rw != reference_choice(d, &r, &g, 0, 5))
				order_bad++;
		}
	next:
		chain_free(&g);
		chain_search_free(s);
		free(z);
		free(r.lose_tail);
		dict_free(d);
		unlink(path);
	}
	CHECK(value_bad == 0 && value_cases > 500,
	      "search values equal brute force at every depth (%d positions, %d wrong)", value_cases,
	      value_bad);
	CHECK(trace_bad == 0 && trace_cases > 300,
	      "traced values at depth end equal brute force (%d candidates, %d wrong)", trace_cases,
	      trace_bad);
	CHECK(choice_bad == 0 && choice_cases > 300,
	      "untraced choices at depths 1-4 are best by brute force (%d choices, %d wrong)",
	      choice_cases, choice_bad);
	CHECK(order_bad == 0 && order_cases > 300,
	      "choices are the documented k-th best word in class order (%d choices, %d differ)",
	      order_cases, order_bad);
	CHECK(same_bad == 0 && same_cases > 300,
	      "a trace never changes the choice (%d choices, %d differ)", same_cases, same_bad);
	return unit_done();
}
