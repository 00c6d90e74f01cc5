#include "shiritori/chain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* List node of key K's head. */
static inline uint32_t list_head(const dict *d, uint32_t k)
{
	return d->nclasses + k;
}

void chain_init(chain_game *g, const dict *d, const chain_rules *r, const uint64_t *zobrist)
{
	memset(g, 0, sizeof *g);
	g->d = d;
	g->r = r;
	g->zobrist = zobrist;
	g->used = xcalloc(d->nwords, 1);
	g->next = xmalloc(d->nclasses * sizeof *g->next);
	g->lead = xmalloc(d->nclasses * sizeof *g->lead);
	g->cleft = xmalloc(d->nclasses * sizeof *g->cleft);
	g->gleft = xmalloc(d->ngroups * sizeof *g->gleft);
	g->avail = xmalloc((d->nkeys + 1) * sizeof *g->avail);
	g->reply = xmalloc((d->nkeys + 1) * sizeof *g->reply);
	g->reply_known = xcalloc(d->nkeys + 1, 1);
	size_t nodes = (size_t)d->nclasses + d->nkeys + 1;
	g->lnext = xmalloc(nodes * sizeof *g->lnext);
	g->lprev = xmalloc(nodes * sizeof *g->lprev);
	/* The start word and every move of the game: the search never goes
	 * past the last move. */
	g->hcap = 2 * r->rounds + 1;
	g->hist = xmalloc((size_t)g->hcap * sizeof *g->hist);
	g->scratch = xmalloc((size_t)g->hcap * sizeof *g->scratch);
	memcpy(g->next, d->cstart, d->nclasses * sizeof *g->next);
	for (uint32_t c = 0; c < d->nclasses; c++) {
		g->cleft[c] = d->cstart[c + 1] - d->cstart[c];
		g->lead[c] = d->len[d->cwords[d->cstart[c]]];
	}
	for (uint32_t x = 0; x < d->ngroups; x++)
		g->gleft[x] = d->gstart[x + 1] - d->gstart[x];
	for (uint32_t k = 0; k <= d->nkeys; k++) {
		uint32_t prev = list_head(d, k);
		g->avail[k] = d->hstart[k + 1] - d->hstart[k];
		for (uint32_t i = d->hstart[k]; i < d->hstart[k + 1]; i++) {
			uint32_t c = d->hclasses[i];
			g->lnext[prev] = c;
			g->lprev[c] = prev;
			prev = c;
		}
		g->lnext[prev] = list_head(d, k);
		g->lprev[list_head(d, k)] = prev;
	}
	g->turn = -1;
}

/* What playing the leader of class C is worth at once. */
static inline int64_t class_value(const chain_game *g, uint32_t c)
{
	const uint8_t *lose = g->r->lose_tail;
	return (int64_t)g->lead[c] - (lose && lose[g->d->ctail[c]] ? CHAIN_LOSS : 0);
}

/* Marks W used: the class cursor skips to the longest word still unused,
 * a class left empty leaves its head's list, and the head's best reply is
 * forgotten if it was this class's and the class has come down. */
static inline void use_word(chain_game *g, uint32_t w)
{
	const dict *d = g->d;
	uint32_t c = d->cls[w], k = d->chead[c];
	if (g->nhist == g->hcap)
		die("chain: internal error: more words used than the game has moves");
	g->hist[g->nhist++] = (chain_used){w, g->next[c], g->tail, g->reply[k], g->reply_known[k]};
	bool was_best = g->reply_known[k] && g->reply[k] == class_value(g, c);
	g->used[w] = 1;
	g->hash ^= g->zobrist[w];
	g->gleft[d->grp[w]]--;
	if (--g->cleft[c] == 0) {
		g->lnext[g->lprev[c]] = g->lnext[c];
		g->lprev[g->lnext[c]] = g->lprev[c];
		g->avail[k]--;
		g->next[c] = d->cstart[c + 1];
		g->lead[c] = 0;
		if (was_best)
			g->reply_known[k] = 0;
	} else if (d->pos[w] == g->next[c]) {
		uint32_t i = g->next[c] + 1; /* an unused word follows */
		while (g->used[d->cwords[i]])
			i++;
		g->next[c] = i;
		if (was_best && d->len[d->cwords[i]] != g->lead[c])
			g->reply_known[k] = 0;
		g->lead[c] = d->len[d->cwords[i]];
	}
	g->tail = d->tail[w];
	g->turn++;
}

/* Takes back the last word used (the lists are restored in the reverse
 * order of the removals, so every relinked class finds its neighbours). */
static inline void unuse_word(chain_game *g)
{
	const dict *d = g->d;
	chain_used u = g->hist[--g->nhist];
	uint32_t w = u.word, c = d->cls[w];
	g->used[w] = 0;
	g->hash ^= g->zobrist[w];
	g->gleft[d->grp[w]]++;
	if (g->cleft[c]++ == 0) {
		g->lnext[g->lprev[c]] = c;
		g->lprev[g->lnext[c]] = c;
		g->avail[d->chead[c]]++;
	}
	if (g->next[c] != u.next) {
		g->next[c] = u.next;
		g->lead[c] = d->len[d->cwords[u.next]];
	}
	g->reply[d->chead[c]] = u.reply;
	g->reply_known[d->chead[c]] = u.reply_known;
	g->tail = u.tail;
	g->turn--;
}

/* The best reply under key K, which has a class with an unused word. */
static inline int64_t best_reply(chain_game *g, uint32_t k)
{
	if (!g->reply_known[k]) {
		uint32_t head = list_head(g->d, k);
		int64_t best = -CHAIN_INF;
		for (uint32_t c = g->lnext[head]; c != head; c = g->lnext[c]) {
			int64_t v = class_value(g, c);
			if (v > best)
				best = v;
		}
		g->reply[k] = best;
		g->reply_known[k] = 1;
	}
	return g->reply[k];
}

/* Back to no word used, in the time the last game took. */
static void reset(chain_game *g)
{
	while (g->nhist > 0)
		unuse_word(g);
	g->hash = 0;
	g->end = CHAIN_RUNNING;
	g->winner = 0;
	g->score[0] = g->r->handicap[0];
	g->score[1] = g->r->handicap[1];
}

void chain_start(chain_game *g, uint32_t start)
{
	reset(g);
	g->turn = -1; /* use_word makes the start word turn 0 */
	use_word(g, start);
	chain_check(g);
}

void chain_start_key(chain_game *g, uint32_t tail)
{
	reset(g);
	g->turn = 0;
	g->tail = tail;
	chain_check(g);
}

void chain_free(chain_game *g)
{
	free(g->used);
	free(g->next);
	free(g->lead);
	free(g->cleft);
	free(g->gleft);
	free(g->avail);
	free(g->reply);
	free(g->reply_known);
	free(g->lnext);
	free(g->lprev);
	free(g->hist);
	free(g->scratch);
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
	if (used != g->nhist || used > g->turn + 1 || used < g->turn)
		die("chain: internal error: %d words used at turn %d", used, g->turn);
	for (uint32_t c = 0; c < d->nclasses; c++) {
		uint32_t i = d->cstart[c], left = 0;
		while (i < d->cstart[c + 1] && g->used[d->cwords[i]])
			i++;
		if (g->next[c] != i)
			die("chain: internal error: class %u cursor %u, first unused %u", c, g->next[c], i);
		if (g->lead[c] != (i < d->cstart[c + 1] ? d->len[d->cwords[i]] : 0))
			die("chain: internal error: class %u leads with len %u", c, g->lead[c]);
		for (uint32_t x = d->cgroup[c]; x < d->cgroup[c + 1]; x++) {
			uint32_t n = 0;
			for (uint32_t j = d->gstart[x]; j < d->gstart[x + 1]; j++)
				n += !g->used[d->cwords[j]];
			if (n != g->gleft[x])
				die("chain: internal error: group %u has %u unused, counted %u", x, n, g->gleft[x]);
			left += n;
		}
		if (left != g->cleft[c])
			die("chain: internal error: class %u has %u unused, counted %u", c, left, g->cleft[c]);
	}
	for (uint32_t k = 0; k <= d->nkeys; k++) {
		uint32_t n = 0, node = list_head(d, k);
		for (uint32_t j = d->hstart[k]; j < d->hstart[k + 1]; j++) {
			uint32_t c = d->hclasses[j];
			if (g->cleft[c] == 0)
				continue;
			if (g->lnext[node] != c || g->lprev[c] != node)
				die("chain: internal error: key %u's list out of step at class %u", k, c);
			node = c;
			n++;
		}
		if (g->lnext[node] != list_head(d, k) || n != g->avail[k])
			die("chain: internal error: key %u has %u answers, counted %u", k, n, g->avail[k]);
		if (g->reply_known[k]) {
			int64_t best = -CHAIN_INF;
			for (uint32_t j = d->hstart[k]; j < d->hstart[k + 1]; j++)
				if (g->cleft[d->hclasses[j]] > 0 && class_value(g, d->hclasses[j]) > best)
					best = class_value(g, d->hclasses[j]);
			if (best != g->reply[k])
				die("chain: internal error: key %u's best reply %lld, worked out %lld", k,
				    (long long)g->reply[k], (long long)best);
		}
	}
#else
	(void)g;
#endif
}

/* ---- search ---- */

enum { TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };

typedef struct {
	uint64_t key;
	int64_t value;
	uint32_t move; /* class + 1; 0 none */
	uint16_t depth;
	uint8_t bound;
} tt_entry;

/* A move as a node orders it: rank (lower first), then its class. */
typedef struct {
	uint64_t rank;
	uint32_t cls;
} ordered;

/* A candidate group at the root: class CLS's words of group GRP, with
 * their value; the leader's group first, then the shorter groups
 * searched, at [more, more + nmore) in the same list. */
typedef struct {
	uint32_t cls, grp;
	int64_t value;
	uint32_t more, nmore;
} rootgroup;

typedef struct {
	rootgroup *g;
	size_t n, cap, leaders; /* the leaders' groups are g[0 .. leaders) */
	int depth;
} rootlist;

struct chain_search {
	const dict *d;
	const chain_rules *r;
	uint64_t *ztail; /* per key: mixed into the table key */
	tt_entry *tt;
	size_t tt_mask;
	uint64_t nodes;
	/* Per ply of the current search: CHAIN_ORDER ordered moves and the
	 * same classes by id. */
	ordered *order;
	uint32_t *picked;
	int plies;
	rootlist cur, next; /* the root's values: the last completed depth, the one under way */
	/* Time control. */
	bool timed, aborted;
	double deadline; /* util_seconds */
};

#define TT_BITS 22

chain_search *chain_search_new(const dict *d, const chain_rules *r)
{
	chain_search *s = xcalloc(1, sizeof *s);
	s->d = d;
	s->r = r;
	s->ztail = xmalloc((d->nkeys + 1) * sizeof *s->ztail);
	uint64_t sm = 0x7461696C; /* "tail" */
	for (uint32_t k = 0; k <= d->nkeys; k++)
		s->ztail[k] = rng_splitmix64(&sm);
	return s;
}

void chain_search_free(chain_search *s)
{
	if (!s)
		return;
	free(s->ztail);
	free(s->tt);
	free(s->order);
	free(s->picked);
	free(s->cur.g);
	free(s->next.g);
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
		s->order = xrealloc(s->order, (size_t)plies * CHAIN_ORDER * sizeof *s->order);
		s->picked = xrealloc(s->picked, (size_t)plies * CHAIN_ORDER * sizeof *s->picked);
		s->plies = plies;
	}
	if (!s->tt && depth >= 2) { /* depth-1 nodes never reach the table */
		s->tt = xcalloc((size_t)1 << TT_BITS, sizeof *s->tt);
		s->tt_mask = ((size_t)1 << TT_BITS) - 1;
	}
}

static bool past_deadline(const chain_search *s)
{
	return util_seconds(false) >= s->deadline;
}

static inline bool loses(const chain_search *s, uint32_t w)
{
	return s->r->lose_tail && s->r->lose_tail[s->d->tail[w]];
}

/* Whether the words of class C end in a losing tail. */
static inline bool class_loses(const chain_search *s, uint32_t c)
{
	return s->r->lose_tail && s->r->lose_tail[s->d->ctail[c]];
}

/* The longest unused word of class C (which has one). */
static inline uint32_t leader(const chain_game *g, uint32_t c)
{
	return g->d->cwords[g->next[c]];
}

/* The opponent's answers after the leader of class C: classes with an
 * unused word whose head is C's tail, less C itself if the leader is its
 * last unused word. */
static inline uint32_t mobility(const chain_game *g, uint32_t c)
{
	const dict *d = g->d;
	uint32_t k = d->ctail[c];
	return g->avail[k] - (d->chead[c] == k && g->cleft[c] == 1);
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
	e->value = value;
	e->move = move;
	e->depth = (uint16_t)depth;
	e->bound = (uint8_t)bound;
}

/* Keeps in OM (N of at most CHAIN_ORDER, sorted by rank, earlier classes
 * first among equal ranks) the lowest-ranked moves seen. */
static inline void order_add(ordered *om, size_t *n, uint64_t rank, uint32_t c)
{
	size_t j = *n;
	if (j == CHAIN_ORDER) {
		if (rank >= om[j - 1].rank)
			return;
		j--;
	} else {
		(*n)++;
	}
	while (j > 0 && om[j - 1].rank > rank) {
		om[j] = om[j - 1];
		j--;
	}
	om[j] = (ordered){rank, c};
}

/* The moves of the node at PLY, best first: the table's move, then the
 * moves that leave the opponent fewest answers (stranding them on a
 * dead-end key is how games are won), longer words first among equals,
 * lose-tail moves last; ties in class order. Up to CHAIN_ORDER of them go
 * to the ply's buffer, their classes by id to PICKED; returns how many,
 * and in *TOTAL how many moves the node has. */
static size_t order_moves(chain_search *s, const chain_game *g, int ply, uint32_t tt_move,
			  size_t *total)
{
	const dict *d = s->d;
	ordered *om = s->order + (size_t)ply * CHAIN_ORDER;
	uint32_t *picked = s->picked + (size_t)ply * CHAIN_ORDER;
	uint32_t head = list_head(d, g->tail);
	size_t n = 0, all = 0;
	for (uint32_t c = g->lnext[head]; c != head; c = g->lnext[c], all++) {
		uint64_t r = class_loses(s, c) ? UINT32_MAX - 1 : mobility(g, c);
		if (tt_move == c + 1)
			r = 0, tt_move = 0;
		else
			r++;
		order_add(om, &n, r << 32 | (UINT32_MAX - g->lead[c]), c);
	}
	*total = all;
	if (all > n) { /* the rest is walked in class order, skipping these */
		for (size_t i = 0; i < n; i++) {
			uint32_t c = om[i].cls;
			size_t j = i;
			while (j > 0 && picked[j - 1] > c) {
				picked[j] = picked[j - 1];
				j--;
			}
			picked[j] = c;
		}
	}
	return n;
}

static int64_t negamax(chain_search *s, chain_game *g, int depth, int ply, int64_t alpha,
		       int64_t beta);

/* Value for the mover of playing the leader of class C, the rest searched
 * to DEPTH - 1 plies within (ALPHA, BETA) as seen by the mover. */
static inline int64_t child_value(chain_search *s, chain_game *g, uint32_t c, int depth, int ply,
				  int64_t alpha, int64_t beta)
{
	int64_t len = g->lead[c];
	if (class_loses(s, c))
		return len - CHAIN_LOSS;
	use_word(g, leader(g, c));
	int64_t v = len - negamax(s, g, depth - 1, ply + 1, len - beta, len - alpha);
	unuse_word(g);
	return v;
}

/* Negamax with alpha-beta over class moves; DEPTH already capped at the
 * moves left in the game. PLY indexes the move buffers. */
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
	uint32_t head = list_head(d, g->tail);
	if (g->lnext[head] == head)
		return -CHAIN_LOSS;
	if (depth == 1) /* leaf: the best immediate move, no table needed */
		return best_reply(g, g->tail);

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
	size_t total, n = order_moves(s, g, ply, tt_move, &total);
	const ordered *om = s->order + (size_t)ply * CHAIN_ORDER;
	const uint32_t *picked = s->picked + (size_t)ply * CHAIN_ORDER;
	int64_t alpha0 = alpha, best = -CHAIN_INF;
	uint32_t best_move = 0, c = g->lnext[head];
	size_t skip = 0;
	for (size_t i = 0; i < total; i++) {
		uint32_t cls;
		if (i < n) {
			cls = om[i].cls;
		} else { /* past the ordered moves: the others in class order */
			while (skip < n && picked[skip] == c)
				c = g->lnext[c], skip++;
			cls = c;
			c = g->lnext[c];
		}
		int64_t v;
		if (i == 0) {
			v = child_value(s, g, cls, depth, ply, alpha, beta);
		} else {
			/* Principal variation search: prove the move no better
			 * than alpha with a null window, search again if not. */
			v = child_value(s, g, cls, depth, ply, alpha, alpha + 1);
			if (v > alpha && v < beta && !s->aborted)
				v = child_value(s, g, cls, depth, ply, v, beta);
		}
		if (s->aborted)
			return 0;
		if (v > best) {
			best = v;
			best_move = cls + 1;
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
	return negamax(s, g, depth, 0, -CHAIN_INF, CHAIN_INF);
}

/* Value of playing W now with the rest searched to DEPTH plies in all
 * (DEPTH >= 1), exact when at least FLOOR. */
static int64_t root_value(chain_search *s, chain_game *g, uint32_t w, int depth, int64_t floor)
{
	int64_t len = s->d->len[w];
	if (loses(s, w))
		return len - CHAIN_LOSS;
	if (depth == 1 || moves_left(g) == 1) /* the horizon: the word's points */
		return len;
	use_word(g, w);
	/* The child's window ends just past len - floor so that a value equal
	 * to the floor (a tie with the best so far) is still exact. */
	int64_t v = len - negamax(s, g, cap_depth(g, depth - 1), 1, -CHAIN_INF, len - floor + 1);
	unuse_word(g);
	return v;
}

/* The K-th (from 0) unused word of cwords[A .. B): past A + K by one for
 * each used word at or before it, found among the words played. */
static uint32_t kth_unused(const chain_game *g, uint32_t a, uint32_t b, uint32_t k)
{
	const dict *d = g->d;
	uint32_t i = a;
	if (k == 0) {
		while (g->used[d->cwords[i]])
			i++;
		return d->cwords[i];
	}
	uint32_t *u = g->scratch;
	size_t m = 0;
	for (int h = 0; h < g->nhist; h++) {
		uint32_t p = d->pos[g->hist[h].word];
		if (p >= a && p < b) {
			size_t j = m++;
			while (j > 0 && u[j - 1] > p) {
				u[j] = u[j - 1];
				j--;
			}
			u[j] = p;
		}
	}
	i = a + k;
	for (size_t j = 0; j < m && u[j] <= i; j++)
		i++;
	return d->cwords[i];
}

static rootgroup *root_add(rootlist *l, uint32_t c, uint32_t x, int64_t v)
{
	util_grow((void **)&l->g, &l->cap, l->n + 1, sizeof *l->g);
	rootgroup *r = &l->g[l->n++];
	*r = (rootgroup){.cls = c, .grp = x, .value = v};
	return r;
}

/* Values of the mover's candidates by a search to DEPTH, into L; false if
 * the time ran out. Class leaders are searched first; then, in every
 * class when ALL, else in the classes whose leader ties the best, each
 * shorter length (a shorter word never beats its leader but may equal
 * it; words of one length share a value). Without ALL only values that
 * can tie the best are exact (the rest are bounds below it), so the set of
 * best words, and with it the choice, is the same with or without it. */
static bool evaluate(chain_search *s, chain_game *g, rootlist *l, int depth, bool all)
{
	const dict *d = s->d;
	uint32_t head = list_head(d, g->tail);
	int64_t best = -CHAIN_INF;
	l->n = 0;
	for (uint32_t c = g->lnext[head]; c != head; c = g->lnext[c]) {
		uint32_t w = leader(g, c);
		int64_t v = root_value(s, g, w, depth, all ? -CHAIN_INF : best);
		if (s->aborted)
			return false;
		root_add(l, c, d->grp[w], v);
		if (v > best)
			best = v;
	}
	size_t leaders = l->leaders = l->n;
	for (size_t i = 0; i < leaders; i++) {
		l->g[i].more = (uint32_t)l->n;
		/* At depth 1 a shorter word of a class is worth less. */
		if (!all && (l->g[i].value != best || depth == 1))
			continue;
		uint32_t c = l->g[i].cls;
		for (uint32_t x = l->g[i].grp + 1; x < d->cgroup[c + 1]; x++) {
			if (g->gleft[x] == 0)
				continue;
			uint32_t w = kth_unused(g, d->gstart[x], d->gstart[x + 1], 0);
			int64_t v = root_value(s, g, w, depth, all ? -CHAIN_INF : best);
			if (s->aborted)
				return false;
			root_add(l, c, x, v);
		}
		l->g[i].nmore = (uint32_t)l->n - l->g[i].more;
	}
	l->depth = depth;
	return true;
}

/* The K-th word of value BEST in L, in class order. */
static uint32_t pick_best(const chain_game *g, const rootlist *l, int64_t best, uint64_t k)
{
	const dict *d = g->d;
	for (size_t i = 0; i < l->leaders; i++) {
		for (uint32_t j = 0; j <= l->g[i].nmore; j++) {
			const rootgroup *r = j == 0 ? &l->g[i] : &l->g[l->g[i].more + j - 1];
			if (r->value != best)
				continue;
			if (k < g->gleft[r->grp])
				return kth_unused(g, d->gstart[r->grp], d->gstart[r->grp + 1], (uint32_t)k);
			k -= g->gleft[r->grp];
		}
	}
	die("chain: internal error: no word of the best value");
}

static void trace_add(chain_trace *t, uint32_t w, int64_t value, bool known)
{
	util_grow((void **)&t->c, &t->cap, t->n + 1, sizeof *t->c);
	t->c[t->n++] = (chain_cand){.word = w, .value = value, .value_known = known};
}

/* Every legal word into T in class order, with its group's value in L
 * (every group of every class: L was evaluated with ALL), or no value. */
static void trace_fill(const chain_game *g, const rootlist *l, chain_trace *t, uint32_t chosen)
{
	const dict *d = g->d;
	uint32_t head = list_head(d, g->tail);
	size_t i = 0;
	for (uint32_t c = g->lnext[head]; c != head; c = g->lnext[c]) {
		const rootgroup *r = l ? &l->g[i] : NULL;
		uint32_t j = 0;
		for (uint32_t x = d->cgroup[c]; x < d->cgroup[c + 1]; x++) {
			if (g->gleft[x] == 0)
				continue;
			if (r && x != r->grp)
				r = &l->g[l->g[i].more + j++];
			for (uint32_t p = d->gstart[x]; p < d->gstart[x + 1]; p++) {
				uint32_t w = d->cwords[p];
				if (g->used[w])
					continue;
				trace_add(t, w, r ? r->value : 0, r != NULL);
				t->c[t->n - 1].chosen = w == chosen;
			}
		}
		i++;
	}
	t->depth_done = l ? l->depth : 0;
}

/* Unused words under the current tail. */
static uint64_t words_left(const chain_game *g)
{
	const dict *d = g->d;
	uint32_t head = list_head(d, g->tail);
	uint64_t n = 0;
	for (uint32_t c = g->lnext[head]; c != head; c = g->lnext[c])
		n += g->cleft[c];
	return n;
}

/* The K-th unused word under the current tail, in class order. */
static uint32_t kth_word(const chain_game *g, uint64_t k)
{
	const dict *d = g->d;
	uint32_t head = list_head(d, g->tail);
	for (uint32_t c = g->lnext[head]; c != head; c = g->lnext[c]) {
		if (k < g->cleft[c])
			return kth_unused(g, d->cstart[c], d->cstart[c + 1], (uint32_t)k);
		k -= g->cleft[c];
	}
	die("chain: internal error: fewer words left than counted");
}

/* Iterative deepening: the last depth that completed within the time. */
static void deepen(chain_search *s, chain_game *g, double secs, bool all)
{
	s->deadline = util_seconds(false) + secs;
	evaluate(s, g, &s->cur, 1, all);
	for (int depth = 2; depth <= moves_left(g); depth++) {
		s->timed = true;
		if (!evaluate(s, g, &s->next, depth, all))
			break;
		rootlist t = s->cur;
		s->cur = s->next;
		s->next = t;
	}
	s->timed = s->aborted = false;
}

bool chain_choose(chain_search *s, chain_game *g, const chain_strategy *st, uint64_t seed,
		  chain_trace *trace, uint32_t *word)
{
	if (trace) {
		trace->n = 0;
		trace->depth_done = 0;
	}
	if (!chain_can_move(g))
		return false;
	rng r;
	rng_stream(&r, seed, (uint64_t)(g->turn + 1));
	if (st->kind == CHAIN_RANDOM) {
		*word = kth_word(g, rng_below(&r, words_left(g)));
		if (trace)
			trace_fill(g, NULL, trace, *word);
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
	if (timed)
		deepen(s, g, st->time, all);
	else
		evaluate(s, g, &s->cur, target, all);
	const rootlist *l = &s->cur;
	int64_t best = -CHAIN_INF;
	uint64_t nbest = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (l->g[i].value > best)
			best = l->g[i].value, nbest = 0;
		if (l->g[i].value == best)
			nbest += g->gleft[l->g[i].grp];
	}
	if (nbest == 0)
		die("chain: internal error: no candidate has a value");
	*word = pick_best(g, l, best, rng_below(&r, nbest));
	if (trace)
		trace_fill(g, l, trace, *word);
	return true;
}
