/* Bench: search speed of lib/chain. Usage: chainsearch DICT START [DEPTH|end]
 * Prints the root value, nodes, seconds and nodes per second of one search
 * of the position after START; with DEPTH "iter", the deepest depth each
 * second-long iterative deepening completes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "shiritori/chain.h"

int main(int argc, char **argv)
{
	util_init(argv[0]);
	if (argc != 4)
		die_usage("usage: chainsearch DICT START DEPTH|end|iter");
	dict *d = dict_load(argv[1]);
	chain_rules r = {.rounds = 15};
	uint64_t *z = chain_zobrist(d);
	chain_search *s = chain_search_new(d, &r);
	chain_game g;
	chain_init(&g, d, &r, z);
	int64_t w = dict_find(d, argv[2]);
	if (w < 0)
		die("no word %s", argv[2]);
	chain_start(&g, (uint32_t)w);
	if (strcmp(argv[3], "iter") == 0) {
		chain_strategy st = {.kind = CHAIN_LOOKAHEAD, .depth = 2, .time = 1.0};
		chain_trace tr = {0};
		uint32_t mv;
		double t0 = util_seconds(false);
		chain_choose(s, &g, &st, 1, &tr, &mv);
		printf("depth completed in 1 s: %d (%.2f s, %llu nodes)\n", tr.depth_done, util_seconds(false) - t0,
		       (unsigned long long)chain_search_nodes(s));
		return 0;
	}
	int depth = strcmp(argv[3], "end") == 0 ? CHAIN_DEPTH_END : atoi(argv[3]);
	double t0 = util_seconds(false);
	int64_t v = chain_value(s, &g, depth);
	double t = util_seconds(false) - t0;
	uint64_t n = chain_search_nodes(s);
	printf("value %lld, %llu nodes, %.3f s, %.2f M nodes/s\n", (long long)v, (unsigned long long)n,
	       t, (double)n / t / 1e6);
	return 0;
}
