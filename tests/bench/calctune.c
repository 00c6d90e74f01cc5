/* calctune: fits the weighted rule's weights (lib/calc/calcweights.h)
 * by hill climbing on the rule's own games. The score of a weight vector
 * is the number of DEALS seeded deals (seed SEED) it wins, ties going to
 * fewer cards left; every trial plays the same deals. The climb starts
 * from the weights that make the rule choose exactly as greedy does, and
 * tries each weight STEP up and down in turn, keeping the first change
 * that scores higher; a round with no change halves STEP; it stops after
 * ROUNDS rounds. The header is written to stdout, progress to stderr.
 *   calctune [SEED DEALS ROUNDS]   (default 1 20000 20) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc/calc.h"
#include "calc/calcweights.h"
#include "core/rng.h"

/* Greedy's pile score as weights: an empty pile 64, a top needed sooner
 * than the hand 128, each covered card needed sooner 1 (lower is better
 * there), scaled by 1/64 and negated. */
static const float greedy_weights[CALC_NWEIGHTS] = {
	[0] = -1.0f, [6] = -2.0f, [8] = -5.0f / 64,
};

static double score(const float *w, uint64_t seed, int deals)
{
	long won = 0, rest = 0;
	for (int g = 0; g < deals; g++) {
		rng r;
		uint8_t deck[52];
		calc_state s;
		rng_stream(&r, seed, (uint64_t)g);
		calc_shuffle(0, &r, deck);
		calc_deal(&s, 0, deck);
		calc_weighted_playout_with(&s, w);
		won += calc_success(&s);
		rest += calc_rest(&s);
	}
	return (double)won - (double)rest / ((double)deals * 52 + 1);
}

static void climb(float *w, uint64_t seed, int deals, int rounds)
{
	double best = score(w, seed, deals);
	float step = 0.5f;
	fprintf(stderr, "calctune: greedy's weights win %.0f of %d\n", best, deals);
	for (int round = 0; round < rounds; round++) {
		bool changed = false;
		for (int j = 0; j < CALC_NWEIGHTS; j++) {
			for (int sign = 1; sign >= -1; sign -= 2) {
				float keep = w[j];
				w[j] = keep + (float)sign * step;
				double v = score(w, seed, deals);
				if (v > best) {
					best = v;
					changed = true;
					break;
				}
				w[j] = keep;
			}
		}
		if (!changed)
			step /= 2;
		fprintf(stderr, "calctune: round %d: %.0f of %d won\n", round + 1, best, deals);
	}
}

int main(int argc, char **argv)
{
	if (argc != 1 && argc != 4) {
		fputs("usage: calctune [SEED DEALS ROUNDS]\n", stderr);
		return 2;
	}
	uint64_t seed = argc == 4 ? strtoull(argv[1], NULL, 10) : 1;
	int deals = argc == 4 ? atoi(argv[2]) : 20000, rounds = argc == 4 ? atoi(argv[3]) : 20;
	if (deals < 1 || deals > 10000000 || rounds < 0 || rounds > 1000) {
		fputs("calctune: DEALS must be 1..10000000 and ROUNDS 0..1000\n", stderr);
		return 2;
	}
	float w[CALC_NWEIGHTS];
	memcpy(w, greedy_weights, sizeof w);
	climb(w, seed, deals, rounds);
	printf("/* calcweights: the weighted rule's weights (calc.c, weighted_score).\n"
	       " * Made by `make calc-tables`: tests/bench/calctune %llu %d %d, a hill\n"
	       " * climb on the rule's own success over seeded deals. */\n"
	       "#ifndef YOMI_CALCWEIGHTS_H\n#define YOMI_CALCWEIGHTS_H\n\n"
	       "enum { CALC_NWEIGHTS = %d };\nstatic const float calc_weights[CALC_NWEIGHTS] = {",
	       (unsigned long long)seed, deals, rounds, CALC_NWEIGHTS);
	for (int j = 0; j < CALC_NWEIGHTS; j++) {
		char num[32];
		snprintf(num, sizeof num, "%.7g", (double)w[j]);
		printf("%s%s%sf,", j % 6 ? " " : "\n\t", num, strpbrk(num, ".e") ? "" : ".0");
	}
	printf("\n};\n\n#endif\n");
	return 0;
}
