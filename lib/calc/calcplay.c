#include "calc/calcplay.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calc/calcbatch.h"
#include "core/util.h"

const char *const calcplay_policies[] = {"random", "greedy", "mcts", "simple", "best",
					 "clairvoyant", "weighted", NULL};

void calcplay_name(const calcplay *p, char *buf, size_t size)
{
	switch (p->kind) {
	case CALCPLAY_MCTS:
		snprintf(buf, size, "mcts:%u%s%s%s", p->playouts, p->eager ? ":eager" : "",
			 p->up_first ? ":upfirst" : "", p->peek ? ":peek" : "");
		break;
	case CALCPLAY_BEST: {
		char rounds[16] = "";
		if (p->rounds)
			snprintf(rounds, sizeof rounds, "+%d", p->rounds);
		char solve[16] = "";
		if (p->solve_from)
			snprintf(solve, sizeof solve, "/s%d", p->solve_from);
		snprintf(buf, size, "best:%u%s/%dx%u/%d/%d/%d%s%s%s", p->playouts, rounds, p->endgame,
			 p->samples, p->hold, p->exact, p->exact_all, solve, p->cascade ? "/c" : "",
			 p->waits ? "/w" : "");
		break;
	}
	case CALCPLAY_SIMPLE:
		snprintf(buf, size, "simple:%dx%d%s%s%s%s%s", p->level, p->width,
			 p->eager ? ":eager" : "", p->up_first ? ":upfirst" : "",
			 p->binary_ends ? ":binends" : "", p->per_card ? ":percard" : "",
			 p->peek ? ":peek" : "");
		break;
	case CALCPLAY_CLAIRVOYANT: snprintf(buf, size, "clairvoyant:%d", p->level); break;
	case CALCPLAY_GREEDY:
	case CALCPLAY_WEIGHTED:
		snprintf(buf, size, "%s%s", calcplay_policies[p->kind], p->cascade ? ":cascade" : "");
		break;
	default: snprintf(buf, size, "%s", calcplay_policies[p->kind]); break;
	}
}

double calcplay_reward(const calc_state *s, double bad)
{
	if (calc_success(s))
		return 1.0;
	if (bad < 0)
		return 0.0;
	int rest = calc_rest(s);
	/* The seed's resttoSuccessRate: nothing past half the deck. */
	if (rest > 26)
		return 0.0;
	double x = 1.0 - (double)(rest - 2) / 26.0;
	return bad * x * x;
}

void calcplay_free(calcplay *p)
{
	mcts_free(&p->tree);
	calcsolve_free(&p->solver);
	calcsolve_free(&p->exact_solver);
	calcsolve_free(&p->all_solver);
	calcsolve_memo_free(&p->memo);
}

/* S played out to the end by P's playout policy: uniformly random, or
 * eager (moves up first). Uniformly random playouts almost never win, so a
 * binary reward gives a search no signal until late in the game; eager
 * ones win often enough to tell moves apart from the start. */
static void play_out(const calcplay *p, calc_state *s, rng *r)
{
	if (p->eager)
		calc_eager_playout(s, r);
	else
		calc_random_playout(s, r);
}

/* The moves the searching trees weigh in S, distinct (calc_moves). A tree
 * whose playouts seldom win sees many moves tie and plays the one listed
 * first; with up_first the moves that put a card on a foundation come
 * first (in calc_moves' order otherwise), so a tie goes to a card going
 * up rather than to the hand covering a pile. */
static int tree_moves(const calcplay *p, const calc_state *s, int *moves)
{
	int n = calc_moves(s, moves, true);
	if (!p->up_first)
		return n;
	int rest[CALC_MAX_MOVES], k = 0, m = 0;
	for (int i = 0; i < n; i++) {
		if (CALC_TO(moves[i]) < 4)
			moves[k++] = moves[i];
		else
			rest[m++] = moves[i];
	}
	memcpy(moves + k, rest, (size_t)m * sizeof *rest);
	return n;
}

/* A random game from S with the unseen cards reshuffled: its reward. */
static double playout(const calcplay *p, const calc_state *s, rng *r)
{
	calc_state c = *s;
	calc_resample(&c, r);
	play_out(p, &c, r);
	return calcplay_reward(&c, p->bad);
}

/* UCT. Decision nodes have one child per distinct move; a move that turns
 * a card leads to a chance node with one child per rank, entered by the
 * card this iteration's reshuffled stock turns up. With peek the stock
 * keeps its true order: no reshuffle, and no chance nodes, since every
 * iteration would turn the same card. */
static int mcts_move(calcplay *p, const calc_state *s, rng *r)
{
	mcts_tree *t = &p->tree;
	int moves[CALC_MAX_MOVES];
	int n = tree_moves(p, s, moves);
	if (n == 1)
		return moves[0];
	int32_t m32[CALC_MAX_MOVES];
	for (int i = 0; i < n; i++)
		m32[i] = moves[i];
	mcts_reset(t);
	mcts_expand(t, 0, m32, (uint32_t)n);
	static const int32_t ranks[13] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
	uint32_t path[4 * 52 + 8];
	for (uint32_t it = 0; it < p->playouts; it++) {
		calc_state c = *s;
		if (!p->peek)
			calc_resample(&c, r);
		uint32_t node = 0, depth = 0;
		path[depth++] = 0;
		while (!calc_over(&c)) {
			if (!t->node[node].nchild) {
				if (t->node[node].visits < p->threshold)
					break;
				int k = tree_moves(p, &c, moves);
				for (int i = 0; i < k; i++)
					m32[i] = moves[i];
				mcts_expand(t, node, m32, (uint32_t)k);
			}
			node = mcts_select(t, node, p->ucb);
			int move = t->node[node].move;
			bool turned = CALC_FROM(move) == 0;
			calc_play(&c, move);
			path[depth++] = node;
			if (turned && c.hand && !p->peek) {
				if (!t->node[node].nchild)
					mcts_expand(t, node, ranks, 13);
				node = t->node[node].child + (uint32_t)(c.hand - 1);
				path[depth++] = node;
			}
		}
		play_out(p, &c, r);
		double reward = calcplay_reward(&c, p->bad);
		while (depth--) {
			t->node[path[depth]].visits++;
			t->node[path[depth]].score += reward;
		}
	}
	return t->node[mcts_best(t, 0)].move;
}

static double simple_value(const calcplay *p, calc_state *c, int level, rng *r, int *best);

/* The value simple gives a finished game LEVEL plies above the leaves: its
 * reward, or with binary_ends (as the seed's simpletree) 1 or 0 above the
 * leaves, where the leaves' playouts still score it by the reward. */
static double simple_over(const calcplay *p, const calc_state *c, int level)
{
	if (p->binary_ends && level > 0)
		return calc_success(c) ? 1.0 : 0.0;
	return calcplay_reward(c, p->bad);
}

/* simple_value below a chance node. */
typedef struct {
	const calcplay *p;
	int level;
	rng *r;
} simple_node;

static double simple_turned(void *ctx, calc_state *d, double alpha)
{
	simple_node *n = ctx;
	(void)alpha; /* never cut: the callers want every value */
	return simple_value(n->p, d, n->level, n->r, NULL);
}

/* simple's chance node with per_card: the mean over the unseen cards of
 * the value after turning each, as the seed's simpletree lists the cards
 * it can turn. The same mean as one subtree per rank weighed by its
 * copies, but each copy's subtree draws its own playouts, and the maxima
 * below are taken on each copy's, so the noise and the value differ. */
static double simple_each_card(const calcplay *p, const calc_state *c, int level, rng *r)
{
	double sum = 0;
	for (int j = c->next; j < c->ncards; j++) {
		calc_state d = *c;
		uint8_t card = d.stock[j];
		d.stock[j] = d.stock[d.next];
		d.stock[d.next] = card;
		calc_turn(&d);
		sum += simple_value(p, &d, level, r, NULL);
	}
	return sum / (c->ncards - c->next);
}

/* The seed's fixed-depth tree: LEVEL plies expanded (a turned card is a
 * ply), chance nodes averaged over the unseen cards (one subtree a rank
 * weighed by its copies, or with per_card one a card), decision nodes
 * maximised, WIDTH random playouts at each leaf. */
static double simple_value(const calcplay *p, calc_state *c, int level, rng *r, int *best)
{
	if (calc_over(c))
		return simple_over(p, c, level);
	if (!level) {
		double sum = 0;
		for (int i = 0; i < p->width; i++)
			sum += playout(p, c, r);
		return sum / p->width;
	}
	if (!c->hand && c->next < c->ncards)
		return p->per_card ? simple_each_card(p, c, level - 1, r)
				   : calc_next_card_mean(c, 0, simple_turned,
							 &(simple_node){p, level - 1, r});
	int moves[CALC_MAX_MOVES];
	int n = tree_moves(p, c, moves);
	double best_v = -1;
	for (int i = 0; i < n; i++) {
		calc_state d = *c;
		calc_play_unturned(&d, moves[i]);
		double v = simple_value(p, &d, level - 1, r, NULL);
		if (v > best_v) {
			best_v = v;
			if (best)
				*best = moves[i];
		}
	}
	return best_v;
}

/* simple with peek: the stock turns in its true order, so a move leads to
 * one position and a level is a move (no chance nodes); positions reached
 * by moves in another order, or with alike piles swapped, are one
 * (p->memo, by position and level); WIDTH random playouts at each leaf,
 * also in the true order. *BEST (when not NULL) gets the move. */
static double peek_value(calcplay *p, const calc_state *c, int level, rng *r, int *best)
{
	if (calc_over(c))
		return simple_over(p, c, level);
	uint64_t key = rng_mix64(calcsolve_hash(c) + (uint64_t)level);
	double v = 0;
	if (!best && calcsolve_memo_get(&p->memo, key, &v))
		return v;
	if (!level) {
		for (int i = 0; i < p->width; i++) {
			calc_state d = *c;
			play_out(p, &d, r);
			v += calcplay_reward(&d, p->bad);
		}
		v /= p->width;
	} else {
		int moves[CALC_MAX_MOVES];
		int n = tree_moves(p, c, moves);
		v = -1;
		for (int i = 0; i < n; i++) {
			calc_state d = *c;
			calc_play(&d, moves[i]);
			double w = peek_value(p, &d, level - 1, r, NULL);
			if (w > v) {
				v = w;
				if (best)
					*best = moves[i];
			}
		}
	}
	calcsolve_memo_put(&p->memo, key, v);
	return v;
}

/* Best's value of one rollout: success far above any failure, and among
 * failures fewer cards left is better (a signal long before any rollout
 * succeeds). */
static double rollout_value(calcbatch_outcome o)
{
	return o.success ? 1000.0 : 52.0 - o.rest;
}

/* Best's eager solver, for the sampled orders and the solved rollouts,
 * set up on first use. */
static calcsolve *eager_solver(calcplay *p)
{
	if (!p->solver.key)
		calcsolve_init(&p->solver, 14, false);
	return &p->solver;
}

/* Rollout K of S (stream (KEY, K) reshuffles its unseen cards, as
 * calcbatch_resampled deals them) played one at a time: by the greedy
 * rule, or with CASCADE by the cascade (calc_cascade_playout), and with
 * FROM by the eager solver from FROM cards unseen on, that order in view:
 * the greedy rule throws away most endgames that could still be won, so
 * its games to the end say more of its own endgame play than of the
 * position (tests/bench/NOTES.md). A win the solver does not find within
 * CALCPLAY_ROLLOUT_SOLVE_BUDGET positions is left to the rule. */
static calcbatch_outcome scalar_rollout(calcsolve *sv, int from, bool cascade, const calc_state *s,
					uint64_t key, uint64_t k)
{
	calc_state c = *s;
	rng r;
	rng_stream(&r, key, k);
	calc_resample(&c, &r);
	if (from) {
		if (cascade)
			calc_cascade_playout(&c, false, from);
		else
			calc_greedy_playout_to(&c, from);
		if (c.hand && calcsolve_run(sv, &c, CALCPLAY_ROLLOUT_SOLVE_BUDGET, NULL) == CALCSOLVE_WON)
			return (calcbatch_outcome){1, 0, 0};
	}
	if (cascade)
		calc_cascade_playout(&c, false, -1);
	else
		calc_greedy_playout(&c);
	return calcbatch_outcome_of(&c);
}

/* Rollouts FROM to FROM+N-1 of S, each (stream (KEY, k) reshuffles the
 * unseen cards of rollout k, so every state is judged on the same deals)
 * played by calcbatch a chunk at a time (with the cascade when P asks),
 * or one by one by scalar_rollout when P asks for the solver; OUT[k -
 * FROM] gets rollout k's value. Returns their sum. */
static double rollouts(const calcplay *p, calcsolve *sv, const calc_state *s, uint64_t key,
		       uint64_t from, size_t n, float *out)
{
	enum { CHUNK = 256 };
	calcbatch_outcome o[CHUNK];
	double v = 0;
	if (p->solve_from) {
		for (size_t k = 0; k < n; k++) {
			out[k] = (float)rollout_value(
				scalar_rollout(sv, p->solve_from, p->cascade, s, key, from + k));
			v += out[k];
		}
		return v;
	}
	for (size_t k = 0; k < n; k += CHUNK) {
		size_t m = n - k < CHUNK ? n - k : CHUNK;
		calcbatch_resampled(s, key, from + k, m, p->cascade, o);
		for (size_t j = 0; j < m; j++) {
			out[k + j] = (float)rollout_value(o[j]);
			v += out[k + j];
		}
	}
	return v;
}

/* Plays foundation moves by the greedy rule while there are any, turning
 * no card: the stock here is in its true order, so a card due once the
 * hand goes up is for the rollouts' reshuffles to deal, not for the
 * placements to see. */
static void play_foundation_moves(calc_state *s)
{
	int m;
	while ((m = calc_greedy_move(s)) >= 0 && CALC_TO(m) < 4)
		calc_play_unturned(s, m);
}

/* One candidate move's leaves for best's rollouts. A move that turns a
 * card leads to a chance node over the next card's rank (weighted by its
 * copies among the unseen cards) and then to the best placement of that
 * card once it is turned: one leaf for each rank and placement, and the
 * move's value is the mean over ranks of the best placement's rollout
 * mean. That is one ply of lookahead more than rollouts alone, and an
 * honest one: the placement is chosen knowing the card but not the ones
 * after it. Any other move (between foundations, or the last card) is its
 * own leaf. Each leaf keeps every rollout value, so that its mean and the
 * placement chosen sharpen as rounds add rollouts, and the race can pair
 * two candidates rollout by rollout. */
typedef struct {
	int n;
	calc_state *leaf;
	uint8_t *rank;  /* the rank turned before the leaf's placement; 0: none */
	double *sum;    /* each leaf's rollout values summed */
	bool *gone;     /* a placement surely worse than its rank's best */
	float *v;       /* leaf i's rollout k at v[i * cap + k] */
	size_t cap;
	double w[14];   /* each rank's chance (w[0] = 1 for a single leaf) */
	double value;   /* after a round: the move's value */
	const calcplay *p; /* the player, for how its rollouts are played */
	calcsolve *sv;  /* the rollouts' solver, from p->solve_from unseen on */
} leaf_set;

/* Adds to L the leaf S, reached after the turned card RANK (0: none). */
static void leaf_add(leaf_set *L, const calc_state *s, int rank)
{
	L->leaf[L->n] = *s;
	L->rank[L->n++] = (uint8_t)rank;
}

/* The leaves of S after MOVE, with room for CAP rollouts each. */
static void leaf_set_init(leaf_set *L, const calc_state *s, int move, size_t cap)
{
	int count[14] = {0}, most = 13 * CALC_MAX_MOVES;
	calc_state c = *s;
	*L = (leaf_set){.cap = cap};
	L->leaf = xmalloc((size_t)most * sizeof *L->leaf);
	L->rank = xmalloc((size_t)most * sizeof *L->rank);
	if (!calc_play_unturned(&c, move)) {
		L->w[0] = 1;
		leaf_add(L, &c, 0);
	} else {
		for (int j = c.next; j < c.ncards; j++)
			count[c.stock[j]]++;
		for (int rank = 1; rank <= 13; rank++) {
			if (!count[rank])
				continue;
			L->w[rank] = count[rank] / (double)(c.ncards - c.next);
			calc_state d = c;
			calc_turn_rank(&d, rank);
			play_foundation_moves(&d);
			int moves[CALC_MAX_MOVES], nm = d.hand ? calc_moves(&d, moves, true) : 0;
			if (!nm)
				leaf_add(L, &d, rank);
			for (int i = 0; i < nm; i++) {
				calc_state e = d;
				calc_play_unturned(&e, moves[i]);
				leaf_add(L, &e, rank);
			}
		}
	}
	L->sum = xcalloc((size_t)L->n, sizeof *L->sum);
	L->gone = xcalloc((size_t)L->n, sizeof *L->gone);
	L->v = xmalloc((size_t)L->n * cap * sizeof *L->v);
}

static void leaf_set_free(leaf_set *L)
{
	free(L->leaf);
	free(L->rank);
	free(L->sum);
	free(L->gone);
	free(L->v);
}

static double race_gap(const float *a, const float *b, size_t n, double *se);

/* The leaf of the highest sum among those of L still in from I to the end
 * of I's rank (set in *END): that rank's placement so far. */
static int rank_best(const leaf_set *L, int i, int *end)
{
	int best = -1, j = i;
	for (; j < L->n && L->rank[j] == L->rank[i]; j++)
		if (!L->gone[j] && (best < 0 || L->sum[j] > L->sum[best]))
			best = j;
	*end = j;
	return best;
}

/* Drops from L, after FROM rollouts, each placement that trails its rank's
 * best by more than CALCPLAY_RACE_Z standard errors: the race below, one
 * level down, so that the close placements get the rounds. */
static void leaf_set_prune(leaf_set *L, size_t from)
{
	for (int i = 0, j; i < L->n; i = j) {
		int best = rank_best(L, i, &j);
		for (int k = i; k < j; k++) {
			if (k == best || L->gone[k])
				continue;
			double se, gap = race_gap(L->v + (size_t)best * L->cap, L->v + (size_t)k * L->cap,
						  from, &se);
			if (gap > CALCPLAY_RACE_Z * se && gap > 0)
				L->gone[k] = true;
		}
	}
}

/* Plays rollouts FROM to FROM+N-1 at every leaf of L still in, after
 * pruning on the FROM before them. */
static void leaf_set_play(leaf_set *L, uint64_t key, size_t from, size_t n)
{
	if (from)
		leaf_set_prune(L, from);
	for (int i = 0; i < L->n; i++)
		if (!L->gone[i])
			L->sum[i] += rollouts(L->p, L->sv, &L->leaf[i], key, from, n,
					      L->v + (size_t)i * L->cap + from);
}

/* Plays rollouts FROM to FROM+N-1 at every leaf of L still in, then sets
 * L's value and X[k] (k < FROM+N): rollout k of each rank's best placement
 * so far, weighted as the ranks are, whose mean is that value. The first round
 * prunes after a quarter and a half of its rollouts too: most placements
 * of the next card are plainly worse than their rank's best long before
 * the round ends. */
static void leaf_set_round(leaf_set *L, uint64_t key, size_t from, size_t n, float *x)
{
	if (!from && n >= 64) {
		leaf_set_play(L, key, 0, n / 4);
		leaf_set_play(L, key, n / 4, n / 4);
		leaf_set_play(L, key, n / 2, n - n / 2);
	} else {
		leaf_set_play(L, key, from, n);
	}
	size_t total = from + n;
	for (size_t k = 0; k < total; k++)
		x[k] = 0;
	L->value = 0;
	for (int i = 0, j; i < L->n; i = j) {
		int best = rank_best(L, i, &j);
		double w = L->w[L->rank[i]];
		const float *v = L->v + (size_t)best * L->cap;
		L->value += w * L->sum[best] / (double)total;
		for (size_t k = 0; k < total; k++)
			x[k] += (float)(w * v[k]);
	}
}

/* AFTER[i]: S after MOVES[i], with a card the move turned put back (and
 * TURNED[i] set, unless TURNED is NULL), for the endgame searches to deal
 * the unseen cards their own way. */
static void positions_after(const calc_state *s, const int *moves, int n, calc_state *after,
			    bool *turned)
{
	for (int i = 0; i < n; i++) {
		after[i] = *s;
		bool t = calc_play_unturned(&after[i], moves[i]);
		if (turned)
			turned[i] = t;
	}
}

/* 1 if a sampled order solved with the stock known is won, else 0: an
 * order the search has not settled within its budget counts as lost,
 * since the unsettled are seldom easy wins, and a move whose wins stay
 * unfound is dropped sooner (the other counts tried are in
 * tests/bench/NOTES.md). */
static int solved_score(calcplay *p, const calc_state *s)
{
	return calcsolve_restarts(&p->solver, s, CALCPLAY_SOLVE_BUDGET, CALCPLAY_SOLVE_RUNS) ==
	       CALCSOLVE_WON;
}

/* One candidate's sampled orders so far. A move that turns a card puts
 * the player before that card's placement knowing the card and nothing
 * after it, so its orders are grouped by the card's rank, each placement
 * is scored over its group, and a group counts only its best placement;
 * a card that goes up (or a move that turns none) leaves no such choice
 * and scores its orders as they come. */
typedef struct {
	int placed[14][CALC_MOVE_CODES]; /* by rank turned, then placement */
	int best[14];                    /* the best of placed[rank] */
	int score;                       /* the orders that leave no choice, plus each best */
} order_tally;

/* Adds the order ORDER draws to T, the tally of AFTER (S after the move,
 * a card it TURNED put back). */
static void tally_order(calcplay *p, const calc_state *after, bool turned, rng order,
			order_tally *t)
{
	calc_state c = *after;
	calc_resample(&c, &order);
	if (!turned) {
		t->score += solved_score(p, &c);
		return;
	}
	calc_turn(&c);
	int rank = c.hand;
	if (calc_accepting(&c, rank)) {
		t->score += solved_score(p, &c);
		return;
	}
	int moves[CALC_MAX_MOVES], n = calc_moves(&c, moves, true), best = t->best[rank];
	for (int j = 0; j < n; j++) {
		calc_state e = c;
		calc_play_unturned(&e, moves[j]);
		int *v = &t->placed[rank][moves[j]];
		*v += solved_score(p, &e);
		if (*v > best)
			best = *v;
	}
	t->score += best - t->best[rank];
	t->best[rank] = best;
}

/* Whether the race of endgame_filter is settled after K orders for move
 * I against the leader LEAD: T the tallies, DIFFER[i][j] the
 * orders on which moves i and j scored differently. Drops I (setting
 * *OUT) once it trails by more than CALCPLAY_RACE_Z standard deviations
 * of the difference (the root of the orders that differ), or by more than
 * the orders left can make up; returns false while the leader might
 * still be ahead of I by CALCPLAY_RACE_SHARE of the orders, a bound with
 * three orders' slack (the rule of three: orders that never yet differed
 * may differ on one in K/3). */
static bool order_settled(int i, int lead, const order_tally *t, int (*differ)[CALC_MAX_MOVES],
			  uint32_t k, uint32_t samples, bool *out)
{
	int gap = t[lead].score - t[i].score;
	double sd = sqrt(differ[lead][i]);
	if ((uint32_t)gap > samples - k || (k >= CALCPLAY_RACE_ORDERS && gap > CALCPLAY_RACE_Z * sd)) {
		*out = true;
		return true;
	}
	return k >= CALCPLAY_RACE_ORDERS &&
	       gap + CALCPLAY_RACE_Z * sd + 3 < CALCPLAY_RACE_SHARE * k;
}

/* Best's endgame: each of the N MOVES is tried on up to p->samples orders
 * of the unseen cards (the same orders for every move), each solved with
 * the stock known, and scored by order_tally; the moves of the top score
 * are kept, in order, and their number returned. The orders are raced as
 * the rollouts are (order_settled): a move surely behind drops out, and
 * the sampling stops once one move is left or the rest are surely about
 * as good, so close choices get many orders and clear ones few.
 * Knowing the order flatters every move, a risky one most, and most of
 * all through the next card's placement, which a solved order makes
 * knowing the cards after it. Scoring the placement per group takes that
 * first knowing away (it wins more deals than scoring each order alone:
 * tests/bench/NOTES.md). It is kept to the endgame, where few orders
 * remain and the rollouts' greedy play is what loses games. */
static int endgame_filter(calcplay *p, const calc_state *s, int *moves, int n, uint64_t key)
{
	eager_solver(p);
	order_tally *t = xcalloc((size_t)n, sizeof *t);
	bool turned[CALC_MAX_MOVES], out[CALC_MAX_MOVES] = {false};
	int differ[CALC_MAX_MOVES][CALC_MAX_MOVES] = {{0}}, gain[CALC_MAX_MOVES], lead = 0, left = n;
	calc_state after[CALC_MAX_MOVES];
	positions_after(s, moves, n, after, turned);
	for (uint32_t k = 1; k <= p->samples && left > 1; k++) {
		rng order;
		rng_stream(&order, key, k - 1);
		for (int i = 0; i < n; i++) {
			if (out[i])
				continue;
			gain[i] = t[i].score;
			tally_order(p, &after[i], turned[i], order, &t[i]);
			gain[i] = t[i].score - gain[i];
			for (int j = 0; j < i; j++)
				if (!out[j] && gain[j] != gain[i])
					differ[i][j]++, differ[j][i]++;
		}
		lead = -1;
		for (int i = 0; i < n; i++)
			if (!out[i] && (lead < 0 || t[i].score > t[lead].score))
				lead = i;
		bool settled = true;
		for (int i = 0; i < n; i++)
			if (!out[i] && i != lead)
				settled &= order_settled(i, lead, t, differ, k, p->samples, &out[i]);
		left = 0;
		for (int i = 0; i < n; i++)
			left += !out[i];
		if (settled)
			break;
	}
	int kept = 0;
	for (int i = 0; i < n; i++)
		if (!out[i] && t[i].score == t[lead].score)
			moves[kept++] = moves[i];
	free(t);
	return kept;
}

/* Best's exact endgame: the chance of winning after each of the N MOVES
 * for a player who knows the unseen cards as a multiset only
 * (calcsolve_expect, over eager lines, with WAITS letting a card wait for
 * a buried copy, or with SV in exact mode over all moves). Keeps the moves
 * of the highest chance, in order, and returns their number: 0 when the
 * search would take more than CALCPLAY_EXACT_BUDGET positions, -1 when
 * every move loses. */
static int exact_filter(calcsolve *sv, bool exact, bool waits, const calc_state *s, int *moves,
			int n)
{
	if (!sv->key) {
		calcsolve_init(sv, 18, exact);
		sv->waits = !exact && waits;
	}
	calc_state after[CALC_MAX_MOVES];
	double v[CALC_MAX_MOVES], top = 0;
	positions_after(s, moves, n, after, NULL);
	if (!calcsolve_expect(sv, after, n, CALCPLAY_EXACT_BUDGET, false, v))
		return 0;
	for (int i = 0; i < n; i++)
		if (v[i] > top)
			top = v[i];
	if (top == 0)
		return -1;
	int kept = 0;
	for (int i = 0; i < n; i++)
		if (v[i] == top)
			moves[kept++] = moves[i];
	return kept;
}

/* The mean of A less B (N values each, paired), and its standard error. */
static double race_gap(const float *a, const float *b, size_t n, double *se)
{
	double s1 = 0, s2 = 0;
	for (size_t k = 0; k < n; k++) {
		double d = a[k] - b[k];
		s1 += d;
		s2 += d * d;
	}
	double mean = s1 / (double)n, var = s2 / (double)n - mean * mean;
	*se = sqrt(var > 0 ? var / (double)n : 0);
	return mean;
}

/* Best's choice among the N MOVES by their rollouts (reshuffles KEY
 * draws, the same for every move), raced: each round adds p->playouts
 * rollouts to every leaf of the moves still in; a move whose value trails
 * the leader's by more than CALCPLAY_RACE_Z standard errors (of the
 * paired difference) drops out, and the race ends when one move is left,
 * when every other is within CALCPLAY_RACE_EPS of the leader with that
 * confidence, or after 1 + p->rounds rounds. So a clear choice costs one
 * round and a close one up to 1 + p->rounds times as many rollouts, where
 * a fixed count spends the same on both. Ties go to the move listed
 * first. */
static int rollout_choice(calcplay *p, const calc_state *s, const int *moves, int n, uint64_t key)
{
	size_t P = p->playouts, cap = P * (size_t)(1 + p->rounds);
	leaf_set L[CALC_MAX_MOVES];
	float *x = xmalloc((size_t)n * cap * sizeof *x);
	bool out[CALC_MAX_MOVES] = {false};
	int left = n, lead = 0;
	for (int i = 0; i < n; i++) {
		leaf_set_init(&L[i], s, moves[i], cap);
		L[i].p = p;
		L[i].sv = p->solve_from ? eager_solver(p) : NULL;
	}
	for (int r = 0; r <= p->rounds && left > 1; r++) {
		for (int i = 0; i < n; i++)
			if (!out[i])
				leaf_set_round(&L[i], key, (size_t)r * P, P, x + (size_t)i * cap);
		lead = -1;
		for (int i = 0; i < n; i++)
			if (!out[i] && (lead < 0 || L[i].value > L[lead].value))
				lead = i;
		bool close = true;
		for (int i = 0; i < n; i++) {
			if (out[i] || i == lead)
				continue;
			double se, gap = race_gap(x + (size_t)lead * cap, x + (size_t)i * cap,
						  (size_t)(r + 1) * P, &se);
			if (gap > CALCPLAY_RACE_Z * se && gap > 0) {
				out[i] = true;
				left--;
			} else if (gap + CALCPLAY_RACE_Z * se >= CALCPLAY_RACE_EPS)
				close = false;
		}
		if (close)
			break;
	}
	for (int i = 0; i < n; i++)
		leaf_set_free(&L[i]);
	free(x);
	return moves[lead];
}

/* Best. At most p->exact_all cards unseen, exact_filter over every move
 * keeps those of the highest chance of perfect play. Otherwise, when a
 * card can go to a foundation only such moves are candidates (moving a
 * card up seldom blocks anything, and the search that could tell would
 * be too big), unless at most p->hold cards are unseen, where the
 * searches below can tell; at most p->exact cards unseen, exact_filter over eager
 * lines keeps the best of them, or all of them when every line loses (the
 * rollouts then choose the move that keeps the most cards off the piles);
 * failing that (too big a search), at most p->endgame cards unseen,
 * endgame_filter keeps the candidates that score most on sampled orders.
 * The rest is decided by rollout_choice. */
static int best_move(calcplay *p, const calc_state *s, rng *r)
{
	int moves[CALC_MAX_MOVES];
	int n = calc_moves(s, moves, true), unseen = s->ncards - s->next;
	if (unseen > p->last_unseen) {
		/* A new game: its positions are not the last game's. */
		calcsolve_forget(&p->exact_solver);
		calcsolve_forget(&p->all_solver);
	}
	p->last_unseen = unseen;
	if (n == 1)
		return moves[0];
	int kept = 0;
	if (p->exact_all && unseen <= p->exact_all)
		kept = exact_filter(&p->all_solver, true, false, s, moves, n);
	if (kept < 0)
		kept = 0; /* all lose: play on as if the search had failed */
	if (!kept && !(p->hold && unseen <= p->hold)) {
		int nf = 0;
		for (int i = 0; i < n; i++)
			if (CALC_TO(moves[i]) < 4)
				moves[nf++] = moves[i];
		if (nf)
			n = nf;
		if (n == 1)
			return moves[0];
	}
	uint64_t key = rng_next(r);
	if (!kept && p->exact && unseen <= p->exact) {
		kept = exact_filter(&p->exact_solver, false, p->waits, s, moves, n);
		if (kept < 0)
			kept = n; /* all lose: the rollouts keep the most cards off the piles */
	}
	if (kept)
		n = kept;
	if (n == 1)
		return moves[0];
	if (!kept && p->endgame && unseen <= p->endgame) {
		n = endgame_filter(p, s, moves, n, key);
		if (n == 1)
			return moves[0];
	}
	return rollout_choice(p, s, moves, n, key);
}

/* Whether A and B are the same position (the padding aside). */
static bool same_state(const calc_state *a, const calc_state *b)
{
	return !memcmp(a, b, offsetof(calc_state, steps)) && a->steps == b->steps &&
	       a->variant == b->variant;
}

/* A nested search's line is the best it found from the whole position on,
 * so it is searched once and followed while the game goes its way. */
static int clairvoyant_move(calcplay *p, const calc_state *s)
{
	if (p->line_at >= p->line.n || !same_state(s, &p->line_next)) {
		calcsolve_nested(s, p->level, &p->line);
		p->line_at = 0;
	}
	int m = p->line.move[p->line_at++];
	p->line_next = *s;
	calc_play(&p->line_next, m);
	return m;
}

int calcplay_move(calcplay *p, const calc_state *s, rng *r)
{
	int moves[CALC_MAX_MOVES];
	switch (p->kind) {
	case CALCPLAY_GREEDY: return p->cascade ? calc_cascade_move(s, false) : calc_greedy_move(s);
	case CALCPLAY_WEIGHTED: return p->cascade ? calc_cascade_move(s, true) : calc_weighted_move(s);
	case CALCPLAY_MCTS: return mcts_move(p, s, r);
	case CALCPLAY_BEST: return best_move(p, s, r);
	case CALCPLAY_CLAIRVOYANT: return clairvoyant_move(p, s);
	case CALCPLAY_SIMPLE: {
		calc_state c = *s;
		int best = -1;
		if (!p->peek) {
			simple_value(p, &c, p->level, r, &best);
			return best;
		}
		if (calc_moves(s, moves, true) == 1)
			return moves[0];
		calcsolve_memo_clear(&p->memo);
		peek_value(p, &c, p->level, r, &best);
		return best;
	}
	default: {
		int n = calc_moves(s, moves, false);
		return moves[rng_below32(r, (uint32_t)n)];
	}
	}
}
