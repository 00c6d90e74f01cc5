#include "shiritori/chain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"

/* ---- strategies ---- */

bool chain_strategy_parse(const char *text, chain_strategy *s)
{
	chain_strategy r = {.kind = CHAIN_LOOKAHEAD, .depth = 2};
	if (strcmp(text, "greedy") == 0) {
		r.kind = CHAIN_GREEDY, r.depth = 1;
	} else if (strcmp(text, "random") == 0) {
		r.kind = CHAIN_RANDOM, r.depth = 0;
	} else if (strncmp(text, "lookahead", 9) == 0) {
		const char *p = text + 9;
		if (*p == ':') {
			int64_t d;
			if (strcmp(p + 1, "end") == 0)
				r.depth = CHAIN_DEPTH_END;
			else if (util_parse_i64(p + 1, 1, 2 * CHAIN_MAX_ROUNDS, &d))
				r.depth = (int)d;
			else
				return false;
		} else if (*p) {
			return false;
		}
	} else {
		return false;
	}
	*s = r;
	return true;
}

void chain_strategy_name(const chain_strategy *s, char *buf, size_t n)
{
	if (s->kind == CHAIN_GREEDY)
		snprintf(buf, n, "greedy");
	else if (s->kind == CHAIN_RANDOM)
		snprintf(buf, n, "random");
	else if (s->time > 0)
		snprintf(buf, n, "lookahead:%gs", s->time);
	else if (s->depth == CHAIN_DEPTH_END)
		snprintf(buf, n, "lookahead:end");
	else
		snprintf(buf, n, "lookahead:%d", s->depth);
}

/* ---- game state ---- */

uint64_t *chain_zobrist(const dict *d)
{
	uint64_t *z = xmalloc(d->nwords * sizeof *z);
	uint64_t sm = 0x796F6D69; /* "yomi": fixed, so hashes never depend on --seed */
	for (uint32_t w = 0; w < d->nwords; w++)
		z[w] = rng_splitmix64(&sm);
	return z;
}

void chain_init(chain_game *g, const dict *d, const chain_rules *r, const uint64_t *zobrist)
{
	memset(g, 0, sizeof *g);
	g->d = d;
	g->r = r;
	g->zobrist = zobrist;
	g->used = xcalloc(d->nwords, 1);
	g->next = xmalloc(d->nclasses * sizeof *g->next);
	g->avail = xmalloc(d->nkeys * sizeof *g->avail);
}

static inline void use_word(chain_game *g, uint32_t w);

void chain_start(chain_game *g, uint32_t start)
{
	const dict *d = g->d;
	memset(g->used, 0, d->nwords);
	memcpy(g->next, d->cstart, d->nclasses * sizeof *g->next);
	g->hash = 0;
	g->turn = -1; /* use_word makes the start word turn 0 */
	g->end = CHAIN_RUNNING;
	g->winner = 0;
	for (uint32_t k = 0; k < d->nkeys; k++)
		g->avail[k] = d->hstart[k + 1] - d->hstart[k];
	use_word(g, start);
	g->score[0] = g->r->handicap[0];
	g->score[1] = g->r->handicap[1];
	chain_check(g);
}

void chain_free(chain_game *g)
{
	free(g->used);
	free(g->next);
	free(g->avail);
}

int chain_mover(const chain_game *g)
{
	return (g->turn + 1) % 2 == 1 ? 1 : 2;
}

const char *chain_illegal(const chain_game *g, uint32_t w)
{
	if (g->used[w])
		return "already used";
	if (g->d->head[w] != g->tail)
		return "does not start with the previous word's tail";
	return NULL;
}

bool chain_can_move(const chain_game *g)
{
	return g->avail[g->tail] > 0;
}

/* Marks W used: the class pointer skips to the longest word still unused,
 * and a class left empty no longer counts among its head's answers. */
static inline void use_word(chain_game *g, uint32_t w)
{
	const dict *d = g->d;
	g->used[w] = 1;
	g->hash ^= g->zobrist[w];
	uint32_t c = d->cls[w];
	uint32_t i = g->next[c], end = d->cstart[c + 1];
	while (i < end && g->used[d->cwords[i]])
		i++;
	if (i == end && g->next[c] != end)
		g->avail[d->chead[c]]--;
	g->next[c] = i;
	g->tail = d->tail[w];
	g->turn++;
}

void chain_play(chain_game *g, uint32_t w)
{
	int p = chain_mover(g);
	use_word(g, w);
	g->score[p - 1] += g->d->len[w];
	if (g->r->lose_tail && g->r->lose_tail[g->d->tail[w]]) {
		g->end = CHAIN_LOSE_TAIL;
		g->winner = 3 - p;
	} else if (g->turn >= 2 * g->r->rounds) {
		g->end = CHAIN_SCORE;
		g->winner = g->score[0] > g->score[1] ? 1 : g->score[0] < g->score[1] ? 2 : 0;
	}
	chain_check(g);
}

void chain_stuck(chain_game *g)
{
	g->end = CHAIN_STUCK;
	g->winner = 3 - chain_mover(g);
}

void chain_check(const chain_game *g)
{
#ifdef YOMI_DEBUG
	const dict *d = g->d;
	uint64_t h = 0;
	int used = 0;
	for (uint32_t w = 0; w < d->nwords; w++)
		if (g->used[w]) {
			h ^= g->zobrist[w];
			used++;
		}
	if (h != g->hash)
		die("chain: internal error: hash out of step with used words");
	if (used != g->turn + 1)
		die("chain: internal error: %d words used at turn %d", used, g->turn);
	for (uint32_t c = 0; c < d->nclasses; c++) {
		uint32_t i = d->cstart[c];
		while (i < d->cstart[c + 1] && g->used[d->cwords[i]])
			i++;
		if (g->next[c] != i)
			die("chain: internal error: class %u pointer %u, first unused %u", c, g->next[c], i);
	}
	for (uint32_t k = 0; k < d->nkeys; k++) {
		uint32_t n = 0;
		for (uint32_t j = d->hstart[k]; j < d->hstart[k + 1]; j++)
			n += g->next[d->hclasses[j]] < d->cstart[d->hclasses[j] + 1];
		if (n != g->avail[k])
			die("chain: internal error: key %u has %u answers, counted %u", k, n, g->avail[k]);
	}
#else
	(void)g;
#endif
}

/* ---- search ---- */

enum { TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };

typedef struct {
	uint64_t key;
	int32_t value;
	uint32_t move; /* class + 1; 0 none */
	uint16_t depth;
	uint8_t bound;
} tt_entry;

struct chain_search {
	const dict *d;
	const chain_rules *r;
	uint64_t *ztail; /* per key: mixed into the table key */
	tt_entry *tt;
	size_t tt_mask;
	uint64_t nodes;
	/* Move lists, one per ply of the current search. */
	uint32_t *moves;
	size_t maxhead;
	int plies;
	/* Time control. */
	bool timed, aborted;
	struct timespec deadline;
};

#define TT_BITS 22

chain_search *chain_search_new(const dict *d, const chain_rules *r)
{
	chain_search *s = xcalloc(1, sizeof *s);
	s->d = d;
	s->r = r;
	s->ztail = xmalloc(d->nkeys * sizeof *s->ztail);
	uint64_t sm = 0x7461696C; /* "tail" */
	for (uint32_t k = 0; k < d->nkeys; k++)
		s->ztail[k] = rng_splitmix64(&sm);
	for (uint32_t k = 0; k < d->nkeys; k++) {
		size_t n = d->hstart[k + 1] - d->hstart[k];
		if (n > s->maxhead)
			s->maxhead = n;
	}
	return s;
}

void chain_search_free(chain_search *s)
{
	if (!s)
		return;
	free(s->ztail);
	free(s->tt);
	free(s->moves);
	free(s);
}

uint64_t chain_search_nodes(const chain_search *s)
{
	return s->nodes;
}

/* Prepares for negamax calls of at most DEPTH plies starting at ply 1. */
static void prepare(chain_search *s, int depth)
{
	int plies = depth + 2;
	if (plies > s->plies) {
		s->moves = xrealloc(s->moves, (size_t)plies * (s->maxhead + 1) * sizeof *s->moves);
		s->plies = plies;
	}
	if (!s->tt && depth >= 2) { /* depth-1 nodes never reach the table */
		s->tt = xcalloc((size_t)1 << TT_BITS, sizeof *s->tt);
		s->tt_mask = ((size_t)1 << TT_BITS) - 1;
	}
}

static bool past_deadline(chain_search *s)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > s->deadline.tv_sec ||
	       (now.tv_sec == s->deadline.tv_sec && now.tv_nsec >= s->deadline.tv_nsec);
}

/* Undo information for one searched move. */
typedef struct {
	uint32_t next, tail;
} undo_t;

static inline undo_t do_move(chain_game *g, uint32_t w)
{
	undo_t u = {g->next[g->d->cls[w]], g->tail};
	use_word(g, w);
	return u;
}

static inline void undo_move(chain_game *g, uint32_t w, undo_t u)
{
	const dict *d = g->d;
	uint32_t c = d->cls[w];
	g->used[w] = 0;
	g->hash ^= g->zobrist[w];
	if (g->next[c] == d->cstart[c + 1] && u.next != g->next[c])
		g->avail[d->chead[c]]++;
	g->next[c] = u.next;
	g->tail = u.tail;
	g->turn--;
}

static inline bool loses(const chain_search *s, uint32_t w)
{
	return s->r->lose_tail && s->r->lose_tail[s->d->tail[w]];
}

/* The opponent's answers after W: classes with an unused word whose head
 * is W's tail, less W's own class if W is its last unused word. */
static inline uint32_t mobility(const chain_search *s, const chain_game *g, uint32_t w)
{
	const dict *d = s->d;
	uint32_t k = d->tail[w], c = d->cls[w], n = g->avail[k];
	if (d->chead[c] == k) {
		uint32_t i = g->next[c] + 1; /* W leads its class */
		while (i < d->cstart[c + 1] && g->used[d->cwords[i]])
			i++;
		n -= i == d->cstart[c + 1];
	}
	return n;
}

static tt_entry *tt_probe(chain_search *s, uint64_t key)
{
	tt_entry *b = &s->tt[(key & s->tt_mask) & ~(size_t)1];
	return b[0].key == key ? &b[0] : b[1].key == key ? &b[1] : NULL;
}

/* Two entries per bucket: the first keeps the deepest result, the second
 * the most recent, so deep results survive a flood of shallow ones. */
static void tt_store(chain_search *s, uint64_t key, int depth, int64_t value, uint32_t move,
		     int bound)
{
	tt_entry *b = &s->tt[(key & s->tt_mask) & ~(size_t)1];
	tt_entry *e = b[0].key == key || depth >= b[0].depth ? &b[0] : &b[1];
	e->key = key;
	e->value = (int32_t)value;
	e->move = move;
	e->depth = (uint16_t)depth;
	e->bound = (uint8_t)bound;
}

/* Negamax with alpha-beta over class moves; DEPTH already capped at the
 * moves left in the game. PLY indexes the move list buffer. */
static int64_t negamax(chain_search *s, chain_game *g, int depth, int ply, int64_t alpha,
		       int64_t beta)
{
	const dict *d = s->d;
	s->nodes++;
	if (s->timed && (s->nodes & 1023) == 0 && past_deadline(s))
		s->aborted = true;
	if (s->aborted)
		return 0;
	if (depth == 0)
		return 0;

	uint32_t *mv = s->moves + (size_t)ply * (s->maxhead + 1);
	size_t n = 0;
	for (uint32_t i = d->hstart[g->tail]; i < d->hstart[g->tail + 1]; i++) {
		uint32_t c = d->hclasses[i];
		if (g->next[c] < d->cstart[c + 1])
			mv[n++] = d->cwords[g->next[c]];
	}
	if (n == 0)
		return -CHAIN_LOSS;
	if (depth == 1) { /* leaf: the best immediate move, no table needed */
		int64_t best = -2 * CHAIN_LOSS;
		for (size_t i = 0; i < n; i++) {
			int64_t v = (int64_t)d->len[mv[i]] - (loses(s, mv[i]) ? CHAIN_LOSS : 0);
			if (v > best)
				best = v;
		}
		return best;
	}

	uint64_t key = g->hash ^ s->ztail[g->tail];
	tt_entry *e = tt_probe(s, key);
	uint32_t tt_move = 0;
	if (e) {
		tt_move = e->move;
		if (e->depth == depth) {
			if (e->bound == TT_EXACT)
				return e->value;
			if (e->bound == TT_LOWER && e->value > alpha)
				alpha = e->value;
			else if (e->bound == TT_UPPER && e->value < beta)
				beta = e->value;
			if (alpha >= beta)
				return e->value;
		}
	}
	/* Order: the table's move, then the moves that leave the opponent
	 * fewest answers (stranding them on a dead-end key is how games are
	 * won), longer words first among equals; lose-tail moves last. */
	uint32_t rank[n];
	for (size_t i = 0; i < n; i++) {
		uint32_t w = mv[i];
		uint32_t r = loses(s, w) ? 0xFFFFu : mobility(s, g, w);
		if (tt_move && d->cls[w] + 1 == tt_move)
			r = 0, tt_move = 0;
		else
			r++;
		rank[i] = (r << 16) | (0xFFFFu - (d->len[w] > 0xFFFFu ? 0xFFFFu : d->len[w]));
	}
	for (size_t i = 1; i < n; i++) {
		uint32_t w = mv[i], r = rank[i];
		size_t j = i;
		while (j > 0 && rank[j - 1] > r) {
			mv[j] = mv[j - 1];
			rank[j] = rank[j - 1];
			j--;
		}
		mv[j] = w;
		rank[j] = r;
	}

	int64_t alpha0 = alpha, best = -4 * CHAIN_LOSS;
	uint32_t best_move = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t w = mv[i];
		int64_t len = d->len[w], v;
		if (loses(s, w)) {
			v = len - CHAIN_LOSS;
		} else {
			undo_t u = do_move(g, w);
			if (i == 0) {
				v = len - negamax(s, g, depth - 1, ply + 1, len - beta, len - alpha);
			} else {
				/* Principal variation search: prove the move no better
				 * than alpha with a null window, search again if not. */
				v = len - negamax(s, g, depth - 1, ply + 1, len - alpha - 1, len - alpha);
				if (v > alpha && v < beta && !s->aborted)
					v = len - negamax(s, g, depth - 1, ply + 1, len - beta, len - v);
			}
			undo_move(g, w, u);
		}
		if (s->aborted)
			return 0;
		if (v > best) {
			best = v;
			best_move = d->cls[w] + 1;
		}
		if (v > alpha)
			alpha = v;
		if (alpha >= beta)
			break;
	}
	tt_store(s, key, depth, best, best_move,
		 best <= alpha0 ? TT_UPPER : best >= beta ? TT_LOWER : TT_EXACT);
	return best;
}

static int moves_left(const chain_game *g)
{
	return 2 * g->r->rounds - g->turn;
}

static int cap_depth(const chain_game *g, int depth)
{
	int left = moves_left(g);
	return depth == CHAIN_DEPTH_END || depth > left ? left : depth;
}

int64_t chain_value(chain_search *s, chain_game *g, int depth)
{
	depth = cap_depth(g, depth);
	prepare(s, depth);
	s->timed = s->aborted = false;
	return negamax(s, g, depth, 0, -4 * CHAIN_LOSS, 4 * CHAIN_LOSS);
}

/* Value of playing W now with the rest searched to DEPTH plies in all
 * (DEPTH >= 1), exact when at least FLOOR. */
static int64_t root_value(chain_search *s, chain_game *g, uint32_t w, int depth, int64_t floor)
{
	int64_t len = s->d->len[w];
	if (loses(s, w))
		return len - CHAIN_LOSS;
	undo_t u = do_move(g, w);
	/* The child's window ends just past len - floor so that a value equal
	 * to the floor (a tie with the best so far) is still exact. */
	int64_t v = len - negamax(s, g, cap_depth(g, depth - 1), 1, -4 * CHAIN_LOSS, len - floor + 1);
	undo_move(g, w, u);
	return v;
}

static void trace_add(chain_trace *t, uint32_t w)
{
	util_grow((void **)&t->c, &t->cap, t->n + 1, sizeof *t->c);
	t->c[t->n++] = (chain_cand){.word = w};
}

/* Values of the candidates in T by a search to DEPTH; false if the time
 * ran out. When ALL is false, only values that can tie the best are exact
 * (the rest are bounds below it): class leaders are searched first, then
 * the shorter words of the classes whose leader ties the best (a shorter
 * word never beats its leader but may equal it), so the set of best words,
 * and with it the choice, is the same with or without a trace. */
static bool evaluate(chain_search *s, chain_game *g, chain_trace *t, int depth, bool all)
{
	const dict *d = s->d;
	int64_t best = -4 * CHAIN_LOSS;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < t->n; i++) {
			uint32_t w = t->c[i].word, c = d->cls[w];
			uint32_t lead = d->cwords[g->next[c]];
			if ((pass == 0) != (w == lead))
				continue;
			int64_t v = -4 * CHAIN_LOSS, lead_value = v;
			if (pass == 1)
				for (size_t j = 0; j < t->n; j++)
					if (t->c[j].word == lead)
						lead_value = t->c[j].value;
			if (pass == 1 && d->len[w] == d->len[lead]) {
				v = lead_value; /* same class and length: the same value */
			} else if (pass == 0 || all || lead_value == best) {
				v = root_value(s, g, w, depth, all ? -4 * CHAIN_LOSS : best);
				if (s->aborted)
					return false;
			}
			t->c[i].value = v;
			t->c[i].value_known = true;
			if (pass == 0 && v > best)
				best = v;
		}
	}
	t->depth_done = depth;
	return true;
}

bool chain_choose(chain_search *s, chain_game *g, const chain_strategy *st, uint64_t seed,
		  chain_trace *trace, uint32_t *word)
{
	const dict *d = s->d;
	chain_trace local = {0};
	chain_trace *t = trace ? trace : &local;
	t->n = 0;
	t->depth_done = 0;
	/* Every legal word, in dictionary order within each class. */
	for (uint32_t i = d->hstart[g->tail]; i < d->hstart[g->tail + 1]; i++) {
		uint32_t c = d->hclasses[i];
		for (uint32_t j = g->next[c]; j < d->cstart[c + 1]; j++) {
			uint32_t w = d->cwords[j];
			if (!g->used[w])
				trace_add(t, w);
		}
	}
	if (t->n == 0) {
		free(local.c);
		return false;
	}
	rng r;
	rng_stream(&r, seed, (uint64_t)(g->turn + 1));
	if (st->kind == CHAIN_RANDOM) {
		size_t k = (size_t)rng_below(&r, t->n);
		t->c[k].chosen = true;
		*word = t->c[k].word;
		free(local.c);
		return true;
	}
	int target = st->kind == CHAIN_GREEDY ? 1 : cap_depth(g, st->depth);
	if (target < 1)
		target = 1;
	bool all = trace != NULL;
	bool timed = st->kind == CHAIN_LOOKAHEAD && st->time > 0;
	prepare(s, (timed ? moves_left(g) : target) - 1);
	s->aborted = false;
	s->timed = false;
	if (timed) {
		/* Iterative deepening: keep the last depth that completed. */
		clock_gettime(CLOCK_MONOTONIC, &s->deadline);
		double secs = st->time;
		s->deadline.tv_sec += (time_t)secs;
		s->deadline.tv_nsec += (long)((secs - (double)(time_t)secs) * 1e9);
		if (s->deadline.tv_nsec >= 1000000000L)
			s->deadline.tv_sec++, s->deadline.tv_nsec -= 1000000000L;
		int64_t *saved = xmalloc(t->n * sizeof *saved);
		evaluate(s, g, t, 1, all);
		for (int depth = 2; depth <= moves_left(g); depth++) {
			for (size_t i = 0; i < t->n; i++)
				saved[i] = t->c[i].value;
			s->timed = true;
			if (!evaluate(s, g, t, depth, all)) {
				for (size_t i = 0; i < t->n; i++)
					t->c[i].value = saved[i];
				t->depth_done = depth - 1;
				break;
			}
		}
		free(saved);
		s->timed = s->aborted = false;
	} else {
		evaluate(s, g, t, target, all);
	}
	int64_t best = -4 * CHAIN_LOSS;
	size_t nbest = 0;
	for (size_t i = 0; i < t->n; i++) {
		if (t->c[i].value > best)
			best = t->c[i].value, nbest = 0;
		if (t->c[i].value == best)
			nbest++;
	}
	size_t k = (size_t)rng_below(&r, nbest);
	for (size_t i = 0; i < t->n; i++) {
		if (t->c[i].value == best && k-- == 0) {
			t->c[i].chosen = true;
			*word = t->c[i].word;
			break;
		}
	}
	if (!all) /* dominated words carry no real value */
		for (size_t i = 0; i < t->n; i++)
			t->c[i].value_known = t->c[i].value > -4 * CHAIN_LOSS;
	free(local.c);
	return true;
}
