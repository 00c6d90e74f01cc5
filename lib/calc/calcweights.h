/* calcweights: the weighted rule's weights (calc.c, weighted_score).
 * Made by `make calc-tables`: tests/bench/calctune 1 20000 20, a hill
 * climb on the rule's own success over seeded deals. */
#ifndef YOMI_CALCWEIGHTS_H
#define YOMI_CALCWEIGHTS_H

enum { CALC_NWEIGHTS = 19 };
static const float calc_weights[CALC_NWEIGHTS] = {
	-1.0625f, -0.375f, 2.0f, 0.75f, -1.25f, -0.0625f,
	-1.4375f, -0.3125f, -0.140625f, -0.125f, 0.4375f, 0.5f,
	0.5625f, -0.25f, -0.1875f, -1.375f, -0.0625f, -1.25f,
	0.1875f,
};

#endif
