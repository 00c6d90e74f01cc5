#include "calc/calcplay.h"

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
		snprintf(buf, size, "best:%u%s/%dx%u/%d/%d/%d", p->playouts, rounds, p->endgame,
			 p->samples, p->hold, p->exact, p->exact_all);
		break;
	}
	case CALCPLAY_SIMPLE:
		snprintf(buf, size, "simple:%dx%d%s%s%s%s", p->level, p->width,
			 p->eager ? ":eager" : "", p->up_first ? ":upfirst" : "",
			 p->binary_ends ? ":binends" : "", p->peek ? ":peek" : "");
		break;
	case CALCPLAY_CLAIRVOYANT: snprintf(buf, size, "clairvoyant:%d", p->level); break;
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

/* A random game from S whose moves up come first: while a card can go to
 * a foundation, one such move (a random one); otherwise a random legal
 * move. Uniformly random playouts almost never win, so a binary reward
 * gives a search no signal until late in the game; these win often enough
 * to tell moves apart from the start. */
static void eager_playout(calc_state *s, rng *r)
{
	calc_turn(s);
	while (!calc_over(s)) {
		int moves[CALC_MAX_MOVES], up[CALC_MAX_MOVES], nup = 0;
		int n = calc_moves(s, moves, false);
		for (int i = 0; i < n; i++)
			if (CALC_TO(moves[i]) < 4)
				up[nup++] = moves[i];
		calc_play(s, nup ? up[rng_below32(r, (uint32_t)nup)]
				 : moves[rng_below32(r, (uint32_t)n)]);
	}
}

/* S played out to the end by P's playout policy. */
static void play_out(const calcplay *p, calc_state *s, rng *r)
{
	if (p->eager)
		eager_playout(s, r);
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

/* The seed's fixed-depth tree: LEVEL plies expanded (a turned card is a
 * ply), chance nodes averaged over the unseen cards, decision nodes
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
		return calc_next_card_mean(c, 0, simple_turned, &(simple_node){p, level - 1, r});
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

/* The mean rollout value of S over N rollouts (stream (KEY, k) reshuffles
 * the unseen cards of rollout k, so every state is judged on the same
 * deals), played by calcbatch a chunk at a time. */
static double rollouts(const calc_state *s, uint64_t key, uint64_t n)
{
	enum { CHUNK = 64 };
	calc_state c[CHUNK];
	calcbatch_outcome o[CHUNK];
	double v = 0;
	for (uint64_t k = 0; k < n; k += CHUNK) {
		size_t m = n - k < CHUNK ? (size_t)(n - k) : CHUNK;
		for (size_t j = 0; j < m; j++) {
			rng rr;
			rng_stream(&rr, key, k + j);
			c[j] = *s;
			calc_resample(&c[j], &rr);
		}
		calcbatch_greedy(c, m, o);
		for (size_t j = 0; j < m; j++)
			v += rollout_value(o[j]);
	}
	return v / (double)n;
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

/* The rollouts of chance_value: the same KEY and N at every leaf. */
typedef struct {
	uint64_t key, n;
} rollout_set;

/* The best placement of D's freshly turned card, each judged by rollouts. */
static double best_placement(void *ctx, calc_state *d, double alpha)
{
	const rollout_set *rs = ctx;
	(void)alpha; /* never cut: the callers want every value */
	play_foundation_moves(d);
	int moves[CALC_MAX_MOVES];
	int nm = d->hand ? calc_moves(d, moves, true) : 0;
	if (!nm)
		return rollouts(d, rs->key, rs->n);
	double best = -1;
	for (int i = 0; i < nm; i++) {
		calc_state e = *d;
		calc_play_unturned(&e, moves[i]);
		double v = rollouts(&e, rs->key, rs->n);
		if (v > best)
			best = v;
	}
	return best;
}

/* The value of S, whose hand is empty: an expectation over the next card's
 * rank (weighted by its copies among the unseen cards) of the best
 * placement of that card once it is turned, each placement judged by N
 * rollouts. This is one more ply of lookahead than rollouts alone, and an
 * honest one: the placement is chosen knowing the card but not the ones
 * after it. */
static double chance_value(const calc_state *s, uint64_t key, uint64_t n)
{
	if (s->next >= s->ncards)
		return rollouts(s, key, n);
	return calc_next_card_mean(s, 0, best_placement, &(rollout_set){key, n});
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
	return calcsolve_run(&p->solver, s, CALCPLAY_SOLVE_BUDGET, NULL) == CALCSOLVE_WON;
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

/* Best's endgame: each of the N MOVES is tried on p->samples orders of the
 * unseen cards (the same orders for every move), each solved with the
 * stock known, and scored by order_tally; the moves of the top score are
 * kept, in order, and their number returned. A move that can no longer
 * reach the leader is dropped early (an order adds at most 1 to a
 * score), which leaves the outcome as it would be with all samples.
 * Knowing the order flatters every move, a risky one most, and most of
 * all through the next card's placement, which a solved order makes
 * knowing the cards after it. Scoring the placement per group takes that
 * first knowing away (it wins more deals than scoring each order alone:
 * tests/bench/NOTES.md). It is kept to the endgame, where few orders
 * remain and the rollouts' greedy play is what loses games. */
static int endgame_filter(calcplay *p, const calc_state *s, int *moves, int n, uint64_t key)
{
	if (!p->solver.key)
		calcsolve_init(&p->solver, 14, false);
	order_tally *t = xcalloc((size_t)n, sizeof *t);
	bool turned[CALC_MAX_MOVES], out[CALC_MAX_MOVES] = {false};
	calc_state after[CALC_MAX_MOVES];
	positions_after(s, moves, n, after, turned);
	int top = 0, left = n;
	for (uint32_t k = 0; k < p->samples && left > 1; k++) {
		rng order;
		rng_stream(&order, key, k);
		for (int i = 0; i < n; i++) {
			if (out[i])
				continue;
			tally_order(p, &after[i], turned[i], order, &t[i]);
			if (t[i].score > top)
				top = t[i].score;
		}
		int64_t most = (int64_t)(p->samples - 1 - k);
		for (int i = 0; i < n; i++) {
			if (!out[i] && t[i].score + most < top) {
				out[i] = true;
				left--;
			}
		}
	}
	int kept = 0;
	for (int i = 0; i < n; i++)
		if (!out[i] && t[i].score == top)
			moves[kept++] = moves[i];
	free(t);
	return kept;
}

/* Best's exact endgame: the chance of winning after each of the N MOVES
 * for a player who knows the unseen cards as a multiset only
 * (calcsolve_expect, over eager lines or with SV in exact mode over all
 * moves). Keeps the moves of the highest chance, in order, and returns
 * their number: 0 when the search would take more than
 * CALCPLAY_EXACT_BUDGET positions, -1 when every move loses. */
static int exact_filter(calcsolve *sv, bool exact, const calc_state *s, int *moves, int n)
{
	if (!sv->key)
		calcsolve_init(sv, 18, exact);
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

/* The rollout value of S after MOVE, one of N candidates, on the
 * reshuffles KEY draws: a hand placement by chance_value, another choice
 * (between foundations) by N times as many rollouts. */
static double move_value(const calcplay *p, const calc_state *s, int move, int n, uint64_t key)
{
	calc_state c = *s;
	if (calc_play_unturned(&c, move))
		return chance_value(&c, key, p->playouts);
	return rollouts(&c, key, (uint64_t)p->playouts * (uint64_t)n);
}

/* Best's choice among the N MOVES by their rollout values on the
 * reshuffles of KEY; then, for p->rounds more rounds, each move whose mean
 * value is within CALCPLAY_ROUND_MARGIN of the top is valued again on
 * fresh reshuffles and averaged, and the rest drop out. Every move shares
 * its reshuffles, which steadies their comparison but leaves it to one set
 * of deals; a fresh set for the close ones pays where the rollouts are
 * noisy (three piles: tests/bench/NOTES.md). Ties go to the move listed
 * first. */
static int rollout_choice(const calcplay *p, const calc_state *s, const int *moves, int n,
			  uint64_t key)
{
	double sum[CALC_MAX_MOVES], top = -1;
	int cnt[CALC_MAX_MOVES];
	for (int i = 0; i < n; i++) {
		sum[i] = move_value(p, s, moves[i], n, key);
		cnt[i] = 1;
		if (sum[i] > top)
			top = sum[i];
	}
	for (int r = 1; r <= p->rounds; r++) {
		uint64_t k = key ^ (uint64_t)r * 0x9e3779b97f4a7c15u;
		double cut = top - CALCPLAY_ROUND_MARGIN;
		for (int i = 0; i < n; i++) {
			if (sum[i] / cnt[i] < cut)
				continue;
			sum[i] += move_value(p, s, moves[i], n, k);
			cnt[i]++;
		}
		top = -1;
		for (int i = 0; i < n; i++)
			if (sum[i] / cnt[i] >= cut && sum[i] / cnt[i] > top)
				top = sum[i] / cnt[i];
	}
	/* The best mean is at least the last top, so the moves dropped (below
	 * it less the margin) need no filter here. */
	double best_v = -1;
	int best = moves[0];
	for (int i = 0; i < n; i++) {
		double v = sum[i] / cnt[i];
		if (v > best_v) {
			best_v = v;
			best = moves[i];
		}
	}
	return best;
}

/* Best. At most p->exact_all cards unseen, exact_filter over every move
 * keeps those of the highest chance of perfect play. Otherwise, when a
 * card can go to a foundation only such moves are candidates (moving a
 * card up seldom blocks anything, and the search that could tell would
 * be too big), unless at most p->hold cards are unseen, where the
 * searches below can tell; at most p->exact cards unseen, exact_filter over eager
 * lines keeps the best of them; failing that (too big a search, or every
 * move lost), at most p->endgame cards unseen, endgame_filter keeps the
 * candidates that score most on sampled orders. The rest is decided by
 * rollout_choice. */
static int best_move(calcplay *p, const calc_state *s, rng *r)
{
	int moves[CALC_MAX_MOVES];
	int n = calc_moves(s, moves, true), unseen = s->ncards - s->next;
	if (n == 1)
		return moves[0];
	int kept = 0;
	if (p->exact_all && unseen <= p->exact_all)
		kept = exact_filter(&p->all_solver, true, s, moves, n);
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
		kept = exact_filter(&p->exact_solver, false, s, moves, n);
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
	case CALCPLAY_GREEDY: return calc_greedy_move(s);
	case CALCPLAY_WEIGHTED: return calc_weighted_move(s);
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
