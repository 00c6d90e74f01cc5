#include "othello/othelloplay.h"

#include <string.h>

#include "core/util.h"

bool othelloplay_parse(const char *spec, double ucb, uint32_t threshold, othelloplay *p)
{
	*p = (othelloplay){.kind = OTHELLOPLAY_RANDOM, .ucb = ucb, .threshold = threshold,
			   .max_empties = OTHELLOPLAY_MAX_EMPTIES};
	if (!strcmp(spec, "random"))
		return true;
	if (!strcmp(spec, "perfect")) {
		p->kind = OTHELLOPLAY_PERFECT;
		p->playouts = OTHELLOPLAY_PERFECT_PLAYOUTS;
		return true;
	}
	const char *n;
	if (!strncmp(spec, "perfect:", 8)) {
		p->kind = OTHELLOPLAY_PERFECT;
		n = spec + 8;
	} else if (!strncmp(spec, "mc:", 3)) {
		p->kind = OTHELLOPLAY_MC;
		n = spec + 3;
	} else if (!strncmp(spec, "mcts:", 5)) {
		p->kind = OTHELLOPLAY_MCTS;
		n = spec + 5;
	} else {
		return false;
	}
	int64_t v;
	if (!util_parse_i64(n, 1, OTHELLOPLAY_MAX_PLAYOUTS, &v))
		return false;
	p->playouts = (uint32_t)v;
	return true;
}

void othelloplay_free(othelloplay *p)
{
	mcts_free(&p->tree);
	othellosolve_free(p->solver);
	p->solver = NULL;
}

/* Exactly the choice a random playout makes, so that random players
 * replay othello_random_game. */
static int choose_random(const othello_pos *pos, rng_draw *d)
{
	if (!othello_moves(pos->me, pos->opp))
		return OTHELLO_PASS;
	int32_t moves[64];
	uint32_t n = (uint32_t)othello_move_list(pos, moves);
	return moves[rng_draw_below(d, n)];
}

/* Flat Monte Carlo: the move whose random continuations score best for
 * the mover (wins count 1, draws 1/2); the first such move on ties. */
static int choose_mc(const othelloplay *p, const othello_pos *pos, rng *r)
{
	int32_t moves[64];
	uint32_t n = (uint32_t)othello_move_list(pos, moves);
	if (n == 1)
		return moves[0];
	int best = moves[0];
	double best_score = -1;
	for (uint32_t i = 0; i < n; i++) {
		othello_pos c = *pos;
		othello_play(&c, moves[i]);
		double score = 0;
		for (uint32_t k = 0; k < p->playouts; k++)
			score += 1.0 - othelloplay_reward(othello_random_result(c.me, c.opp, r));
		if (score > best_score) {
			best_score = score;
			best = moves[i];
		}
	}
	return best;
}

/* UCT: select by UCB1 down to a leaf, expand it once it has THRESHOLD
 * visits, finish the game at random, and credit each node on the path
 * from the view of the player who chose it. */
static int choose_mcts(othelloplay *p, const othello_pos *pos, rng *r)
{
	int32_t moves[64];
	uint32_t n = (uint32_t)othello_move_list(pos, moves);
	if (n == 1)
		return moves[0];
	mcts_tree *t = &p->tree;
	mcts_reset(t);
	mcts_expand(t, 0, moves, n);
	uint32_t path[OTHELLO_MAX_PLIES + 2];
	for (uint32_t it = 0; it < p->playouts; it++) {
		othello_pos c = *pos;
		uint32_t node = 0, depth = 0;
		path[depth++] = 0;
		for (;;) {
			if (!t->node[node].nchild) {
				if (t->node[node].visits < p->threshold || othello_over(&c))
					break;
				uint32_t k = (uint32_t)othello_move_list(&c, moves);
				mcts_expand(t, node, moves, k);
			}
			node = mcts_select(t, node, p->ucb);
			othello_play(&c, t->node[node].move);
			path[depth++] = node;
		}
		/* The reward for the side to move at the leaf; the node above it
		 * was chosen by the other side, and so on up. */
		double reward = othelloplay_reward(othello_random_result(c.me, c.opp, r));
		while (depth--) {
			reward = 1.0 - reward;
			t->node[path[depth]].visits++;
			t->node[path[depth]].score += reward;
		}
	}
	return t->node[mcts_best(t, 0)].move;
}

/* Exact from max_empties on, UCT before. The solver's table is kept from
 * move to move and game to game: what it holds stays true. */
static int choose_perfect(othelloplay *p, const othello_pos *pos, rng *r)
{
	if (__builtin_popcountll(~(pos->me | pos->opp)) > p->max_empties)
		return choose_mcts(p, pos, r);
	if (!othello_moves(pos->me, pos->opp))
		return OTHELLO_PASS;
	if (!p->solver)
		p->solver = othellosolve_new(OTHELLOPLAY_SOLVER_BITS);
	int move;
	othellosolve_best(p->solver, pos, &move);
	return move;
}

int othelloplay_choose(othelloplay *p, const othello_pos *pos, rng_draw *d)
{
	switch (p->kind) {
	case OTHELLOPLAY_MC: return choose_mc(p, pos, d->r);
	case OTHELLOPLAY_MCTS: return choose_mcts(p, pos, d->r);
	case OTHELLOPLAY_PERFECT: return choose_perfect(p, pos, d->r);
	default: return choose_random(pos, d);
	}
}
