/* Bench: the cost of a shiritori move against the size of the list.
 * Usage: chainscale DICT GAMES
 * Plays GAMES games of greedy against greedy and GAMES of lookahead:2
 * against greedy from start words spread over the dictionary, and prints
 * the words, the mean number of classes under the key to answer (what a
 * move's cost depends on), the mean time of a greedy move and of a
 * lookahead:2 move (chain_choose alone) in microseconds, and the mean time
 * of a whole greedy game (chain_start to the end, both players). */
#include <stdio.h>
#include <stdlib.h>

#include "core/util.h"
#include "shiritori/chain.h"

int main(int argc, char **argv)
{
	util_init(argv[0]);
	if (argc != 3)
		die_usage("usage: chainscale DICT GAMES");
	dict *d = dict_load(argv[1]);
	int games = atoi(argv[2]);
	if (games < 1)
		die_usage("GAMES must be positive");
	chain_rules r = {.rounds = 15};
	uint64_t *z = chain_zobrist(d);
	chain_search *s = chain_search_new(d, &r);
	chain_game g;
	chain_init(&g, d, &r, z);
	const chain_strategy greedy = {.kind = CHAIN_GREEDY, .depth = 1};
	const chain_strategy la2 = {.kind = CHAIN_LOOKAHEAD, .depth = 2};
	double t_move[2] = {0, 0}, t_games = 0, classes = 0;
	long moves[2] = {0, 0};
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < games; i++) {
			uint32_t start = (uint32_t)((uint64_t)i * d->nwords / (uint64_t)games);
			double t0 = util_seconds(false);
			chain_start(&g, start);
			while (g.end == CHAIN_RUNNING) {
				/* pass 0: greedy both sides; pass 1: lookahead:2 moves first */
				bool la = pass == 1 && chain_mover(&g) == 1;
				uint32_t w;
				classes += g.avail[g.tail];
				double m0 = util_seconds(false);
				bool ok = chain_choose(s, &g, la ? &la2 : &greedy, (uint64_t)i, NULL, &w);
				t_move[la] += util_seconds(false) - m0;
				moves[la]++;
				if (!ok)
					chain_stuck(&g);
				else
					chain_play(&g, w);
			}
			if (pass == 0)
				t_games += util_seconds(false) - t0;
		}
	}
	printf("%u words, %.1f classes a move: greedy %.2f us a move, lookahead:2 %.2f us a move, "
	       "a greedy game %.3f ms\n",
	       d->nwords, classes / (double)(moves[0] + moves[1]), t_move[0] / (double)moves[0] * 1e6,
	       t_move[1] / (double)moves[1] * 1e6, t_games / games * 1e3);
	chain_free(&g);
	chain_search_free(s);
	free(z);
	dict_free(d);
	return 0;
}
