#include "search/mcts.h"

#include <math.h>
#include <stdlib.h>

#include "core/util.h"

void mcts_reset(mcts_tree *t)
{
	if (!t->cap)
		util_grow((void **)&t->node, &t->cap, 1024, sizeof *t->node);
	t->node[0] = (mcts_node){.move = -1};
	t->n = 1;
}

void mcts_free(mcts_tree *t)
{
	free(t->node);
	*t = (mcts_tree){0};
}

uint32_t mcts_expand(mcts_tree *t, uint32_t parent, const int32_t *moves, uint32_t n)
{
	if (t->n + n > UINT32_MAX)
		die("search tree too large");
	util_grow((void **)&t->node, &t->cap, t->n + n, sizeof *t->node);
	uint32_t first = (uint32_t)t->n;
	for (uint32_t i = 0; i < n; i++)
		t->node[first + i] = (mcts_node){.move = moves[i]};
	t->node[parent].child = first;
	t->node[parent].nchild = n;
	t->n += n;
	return first;
}

uint32_t mcts_select(const mcts_tree *t, uint32_t parent, double c)
{
	const mcts_node *p = &t->node[parent];
	const mcts_node *ch = &t->node[p->child];
	double logn = log((double)(p->visits ? p->visits : 1));
	uint32_t best = 0;
	double best_v = -1;
	for (uint32_t i = 0; i < p->nchild; i++) {
		if (!ch[i].visits)
			return p->child + i;
		double v = ch[i].score / ch[i].visits + c * sqrt(logn / ch[i].visits);
		if (v > best_v) {
			best_v = v;
			best = i;
		}
	}
	return p->child + best;
}

uint32_t mcts_best(const mcts_tree *t, uint32_t parent)
{
	const mcts_node *p = &t->node[parent];
	const mcts_node *ch = &t->node[p->child];
	uint32_t best = 0;
	for (uint32_t i = 1; i < p->nchild; i++) {
		/* Cross-multiplied means: no division by an unvisited child. */
		if (ch[i].visits > ch[best].visits ||
		    (ch[i].visits == ch[best].visits &&
		     ch[i].score * ch[best].visits > ch[best].score * ch[i].visits))
			best = i;
	}
	return p->child + best;
}
