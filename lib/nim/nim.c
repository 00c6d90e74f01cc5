#include "nim/nim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"
#include "core/util.h"

bool nim_parse_game(const char *spec, nim_game *g, const char **why)
{
	int m = g->m;
	uint32_t max[NIM_MAX_HEAPS];
	memcpy(max, g->max, sizeof max);
	bool misere = g->misere;
	memset(g, 0, sizeof *g);
	g->m = m;
	memcpy(g->max, max, sizeof max);
	g->misere = misere;
	if (strcmp(spec, "nim") == 0) {
		g->kind = NIM_NIM;
		return true;
	}
	if (strcmp(spec, "wythoff") == 0) {
		g->kind = NIM_WYTHOFF;
		return true;
	}
	if (strncmp(spec, "subtract:", 9) == 0) {
		g->kind = NIM_SUBTRACT;
		const char *p = spec + 9;
		while (*p) {
			char *end;
			if (*p < '0' || *p > '9') {
				*why = "expected subtract:K,K,... with positive integers";
				return false;
			}
			unsigned long k = strtoul(p, &end, 10);
			if (k == 0 || k > 1000000 || (*end && *end != ',') || (*end == ',' && !end[1])) {
				*why = "expected subtract:K,K,... with integers from 1 to 1000000";
				return false;
			}
			if (g->nsub == 64) {
				*why = "at most 64 numbers in a subtraction set";
				return false;
			}
			int i = g->nsub++;
			while (i > 0 && g->sub[i - 1] > k) { /* keep the set ascending */
				g->sub[i] = g->sub[i - 1];
				i--;
			}
			if (i > 0 && g->sub[i - 1] == k) {
				*why = "a number repeats in the subtraction set";
				return false;
			}
			g->sub[i] = (uint32_t)k;
			p = *end ? end + 1 : end;
		}
		if (g->nsub == 0) {
			*why = "expected subtract:K,K,... with positive integers";
			return false;
		}
		return true;
	}
	if (strncmp(spec, "octal:", 6) == 0) {
		g->kind = NIM_OCTAL;
		const char *p = spec + 6;
		if (*p == '0')
			p++;
		if (*p != '.' || !p[1]) {
			*why = "expected octal:0.DDD with octal digits 0-7 after the point";
			return false;
		}
		for (p++; *p; p++) {
			if (*p < '0' || *p > '7' || g->ndigits == 32) {
				*why = "expected octal:0.DDD with at most 32 octal digits 0-7";
				return false;
			}
			g->digit[++g->ndigits] = (uint8_t)(*p - '0');
		}
		while (g->ndigits > 0 && g->digit[g->ndigits] == 0)
			g->ndigits--;
		if (g->ndigits == 0) {
			*why = "an octal game needs a nonzero digit";
			return false;
		}
		return true;
	}
	*why = "expected nim, wythoff, subtract:S or octal:CODE";
	return false;
}

uint64_t nim_positions(const nim_game *g)
{
	uint64_t n = 1;
	for (int i = 0; i < g->m; i++) {
		if (__builtin_mul_overflow(n, (uint64_t)g->max[i] + 1, &n) || n > ((uint64_t)1 << 62))
			return 0;
	}
	return n;
}

void nim_decode(const nim_game *g, uint64_t idx, uint32_t *h)
{
	for (int i = 0; i < g->m; i++) {
		h[i] = (uint32_t)(idx % ((uint64_t)g->max[i] + 1));
		idx /= (uint64_t)g->max[i] + 1;
	}
}

uint64_t nim_encode(const nim_game *g, const uint32_t *h)
{
	uint64_t idx = 0;
	for (int i = g->m - 1; i >= 0; i--)
		idx = idx * ((uint64_t)g->max[i] + 1) + h[i];
	return idx;
}

void nim_check(const nim_game *g, uint64_t idx)
{
#ifdef YOMI_DEBUG
	uint32_t h[NIM_MAX_HEAPS];
	nim_decode(g, idx, h);
	for (int i = 0; i < g->m; i++)
		if (h[i] > g->max[i])
			die("nim: internal error: heap %d is %u, above %u", i + 1, h[i], g->max[i]);
	if (nim_encode(g, h) != idx)
		die("nim: internal error: position %llu does not round-trip", (unsigned long long)idx);
#else
	(void)g, (void)idx;
#endif
}

/* ---- the generic solver ---- */

/* The children of a position are reached along directions: one heap
 * (any amount, or the subtraction set's amounts) or, for Wythoff, both. */
typedef struct {
	uint64_t stride[NIM_MAX_HEAPS + 1];
	int axis[NIM_MAX_HEAPS + 1]; /* heap index, or -1 for the diagonal */
	int n;
} dirs_t;

static void directions(const nim_game *g, dirs_t *d)
{
	uint64_t s = 1;
	*d = (dirs_t){.n = 0}; /* for -O3, which misses that Wythoff has two */
	for (int i = 0; i < g->m; i++) {
		d->stride[d->n] = s;
		d->axis[d->n++] = i;
		s *= (uint64_t)g->max[i] + 1;
	}
	if (g->kind == NIM_WYTHOFF) {
		d->stride[d->n] = d->stride[0] + d->stride[1];
		d->axis[d->n++] = -1;
	}
}

/* How many steps position H can go along direction k. */
static uint32_t room(const uint32_t *h, const dirs_t *d, int k)
{
	int a = d->axis[k];
	return a >= 0 ? h[a] : (h[0] < h[1] ? h[0] : h[1]);
}

/* Calls f(child) for every child of IDX (heaps H); stops when f returns
 * true and returns that child, else NIM_NONE. */
typedef bool (*child_fn)(const nim_table *t, uint64_t child, void *arg);

static uint64_t each_child(const nim_table *t, uint64_t idx, const uint32_t *h, child_fn f,
			   void *arg)
{
	const nim_game *g = t->g;
	dirs_t d;
	directions(g, &d);
	for (int k = 0; k < d.n; k++) {
		uint32_t r = room(h, &d, k);
		if (g->kind == NIM_SUBTRACT) {
			for (int j = 0; j < g->nsub && g->sub[j] <= r; j++)
				if (f(t, idx - g->sub[j] * d.stride[k], arg))
					return idx - g->sub[j] * d.stride[k];
		} else {
			for (uint32_t j = 1; j <= r; j++)
				if (f(t, idx - j * d.stride[k], arg))
					return idx - j * d.stride[k];
		}
	}
	return NIM_NONE;
}

uint64_t nim_solve_bytes(const nim_game *g, bool grundy)
{
	uint64_t n = nim_positions(g);
	uint64_t per = 1 + 4 + (g->misere || !grundy ? 0 : 4);
	dirs_t d;
	directions(g, &d);
	uint64_t ring = 0;
	if (g->kind != NIM_SUBTRACT)
		for (int k = 0; k < d.n; k++)
			ring += d.stride[k] * 8;
	return n * per + ring;
}

typedef struct {
	uint32_t *seen; /* stamp per Grundy value */
	uint32_t cap, stamp;
} mex_t;

static bool mark_grundy(const nim_table *t, uint64_t child, void *arg)
{
	mex_t *x = arg;
	uint32_t v = t->grundy[child];
	if (v < x->cap)
		x->seen[v] = x->stamp;
	return false;
}

static uint32_t mex_of(const nim_table *t, uint64_t idx, const uint32_t *h, mex_t *x)
{
	x->stamp++;
	each_child(t, idx, h, mark_grundy, x);
	uint32_t v = 0;
	while (v < x->cap && x->seen[v] == x->stamp)
		v++;
	return v;
}

typedef struct {
	bool any, anyp;
	uint32_t minp, max;
} agg_t;

static bool gather(const nim_table *t, uint64_t child, void *arg)
{
	agg_t *a = arg;
	uint32_t r = t->rem[child];
	a->any = true;
	if (r > a->max)
		a->max = r;
	if (t->outcome[child] == 0) {
		a->anyp = true;
		if (r < a->minp)
			a->minp = r;
	}
	return false;
}

/* Outcome and remoteness from the children's aggregate: N with the
 * fastest win if some child is P; P, delaying as long as possible, if
 * none; a position with no move is P in normal play and N in misere
 * play (the opponent made the last move). */
static void settle(nim_table *t, uint64_t p, const agg_t *a)
{
	if (!a->any) {
		t->outcome[p] = t->g->misere ? 1 : 0;
		t->rem[p] = 0;
	} else if (a->anyp) {
		t->outcome[p] = 1;
		t->rem[p] = a->minp + 1;
	} else {
		t->outcome[p] = 0;
		t->rem[p] = a->max + 1;
	}
}

nim_table *nim_solve(const nim_game *g, bool grundy)
{
	nim_table *t = xcalloc(1, sizeof *t);
	t->g = g;
	t->n = nim_positions(g);
	t->outcome = xmalloc(t->n);
	t->rem = xmalloc(t->n * sizeof *t->rem);
	if (!g->misere && grundy)
		t->grundy = xmalloc(t->n * sizeof *t->grundy);
	dirs_t d;
	directions(g, &d);
	bool prefix = g->kind != NIM_SUBTRACT;
	/* Ring buffers: for direction k, slot p mod stride holds the aggregate
	 * of p - stride, p - 2 stride, ... (the children of p along k). */
	uint32_t *minp[NIM_MAX_HEAPS + 1] = {0}, *maxr[NIM_MAX_HEAPS + 1] = {0};
	uint64_t slot[NIM_MAX_HEAPS + 1] = {0};
	if (prefix)
		for (int k = 0; k < d.n; k++) {
			minp[k] = xmalloc(d.stride[k] * sizeof **minp);
			maxr[k] = xmalloc(d.stride[k] * sizeof **maxr);
		}
	mex_t mex = {0};
	if (t->grundy && g->kind != NIM_NIM) {
		uint64_t cap = 2;
		for (int i = 0; i < g->m; i++)
			cap += g->max[i];
		if (g->kind == NIM_WYTHOFF)
			cap += g->max[0] < g->max[1] ? g->max[0] : g->max[1];
		mex.cap = cap > 1u << 24 ? 1u << 24 : (uint32_t)cap;
		mex.seen = xcalloc(mex.cap, sizeof *mex.seen);
	}
	uint32_t h[NIM_MAX_HEAPS] = {0};
	for (uint64_t p = 0; p < t->n; p++) {
		agg_t a = {.minp = UINT32_MAX};
		if (prefix) {
			for (int k = 0; k < d.n; k++) {
				if (room(h, &d, k) == 0)
					continue;
				uint32_t mp = minp[k][slot[k]], mr = maxr[k][slot[k]];
				a.any = true;
				if (mp != UINT32_MAX) {
					a.anyp = true;
					if (mp < a.minp)
						a.minp = mp;
				}
				if (mr > a.max)
					a.max = mr;
			}
		} else {
			each_child(t, p, h, gather, &a);
		}
		settle(t, p, &a);
		if (t->grundy) {
			if (g->kind == NIM_NIM) {
				uint32_t x = 0;
				for (int i = 0; i < g->m; i++)
					x ^= h[i];
				t->grundy[p] = x; /* Bouton; tests check it against the mex */
			} else {
				t->grundy[p] = mex_of(t, p, h, &mex);
			}
		}
		if (prefix) {
			uint32_t own_p = t->outcome[p] == 0 ? t->rem[p] : UINT32_MAX;
			for (int k = 0; k < d.n; k++) {
				uint64_t s = slot[k];
				if (room(h, &d, k) == 0) {
					minp[k][s] = own_p;
					maxr[k][s] = t->rem[p];
				} else {
					if (own_p < minp[k][s])
						minp[k][s] = own_p;
					if (t->rem[p] > maxr[k][s])
						maxr[k][s] = t->rem[p];
				}
				if (++slot[k] == d.stride[k])
					slot[k] = 0;
			}
		}
		nim_check(g, p);
		for (int i = 0; i < g->m && ++h[i] > g->max[i]; i++) /* the next position */
			h[i] = 0;
	}
	for (int k = 0; k < d.n; k++) {
		free(minp[k]);
		free(maxr[k]);
	}
	free(mex.seen);
	return t;
}

typedef struct {
	uint32_t want;
} find_t;

static bool is_winning_child(const nim_table *t, uint64_t child, void *arg)
{
	return t->outcome[child] == 0 && t->rem[child] == ((find_t *)arg)->want;
}

uint64_t nim_winning_move(const nim_table *t, uint64_t idx)
{
	if (t->outcome[idx] == 0)
		return NIM_NONE;
	uint32_t h[NIM_MAX_HEAPS];
	nim_decode(t->g, idx, h);
	find_t f = {t->rem[idx] - 1};
	return each_child(t, idx, h, is_winning_child, &f);
}

uint32_t nim_grundy_slow(const nim_table *t, uint64_t idx)
{
	uint32_t h[NIM_MAX_HEAPS];
	nim_decode(t->g, idx, h);
	mex_t x = {.cap = 1u << 16};
	x.seen = xcalloc(x.cap, sizeof *x.seen);
	uint32_t v = mex_of(t, idx, h, &x);
	free(x.seen);
	return v;
}

void nim_table_free(nim_table *t)
{
	if (!t)
		return;
	free(t->outcome);
	free(t->rem);
	free(t->grundy);
	free(t);
}

/* ---- closed forms ---- */

bool nim_bouton_p(const uint32_t *h, int m, bool misere)
{
	uint32_t x = 0;
	bool big = false;
	for (int i = 0; i < m; i++) {
		x ^= h[i];
		big |= h[i] > 1;
	}
	return misere && !big ? x == 1 : x == 0;
}

bool nim_bouton_move(uint32_t *h, int m, bool misere)
{
	if (nim_bouton_p(h, m, misere))
		return false;
	uint32_t x = 0;
	int big = 0, ones = 0;
	for (int i = 0; i < m; i++) {
		x ^= h[i];
		big += h[i] > 1;
		ones += h[i] == 1;
	}
	if (misere && big == 1) {
		/* The move that leaves no heap above 1 must leave an odd number of
		 * ones: shrink the big heap to 0 or 1 accordingly. */
		for (int i = 0; i < m; i++)
			if (h[i] > 1)
				h[i] = ones % 2 == 0 ? 1 : 0;
		return true;
	}
	if (misere && big == 0) { /* all heaps 0 or 1, even count of ones */
		for (int i = 0; i < m; i++)
			if (h[i] == 1) {
				h[i] = 0;
				return true;
			}
	}
	for (int i = 0; i < m; i++) {
		if ((h[i] ^ x) < h[i]) {
			h[i] ^= x;
			return true;
		}
	}
	return false;
}

static uint64_t isqrt128(unsigned __int128 v)
{
	uint64_t r = (uint64_t)__builtin_sqrtl((long double)v);
	while ((unsigned __int128)r * r > v)
		r--;
	while ((unsigned __int128)(r + 1) * (r + 1) <= v)
		r++;
	return r;
}

void nim_wythoff_pair(uint64_t k, uint64_t *a, uint64_t *b)
{
	/* floor(k phi) = floor((k + sqrt(5 k^2)) / 2) = (k + isqrt(5 k^2)) / 2,
	 * exact in integers since sqrt(5) k is irrational for k > 0. */
	*a = (k + isqrt128((unsigned __int128)5 * k * k)) / 2;
	*b = *a + k;
}

/* ---- octal games ---- */

bool nim_octal_options(const nim_game *g, uint32_t h, nim_option_fn f, void *arg)
{
	for (int k = 1; k <= g->ndigits && (uint32_t)k <= h; k++) {
		uint8_t d = g->digit[k];
		uint32_t rest = h - (uint32_t)k;
		if ((d & 1) && rest == 0 && f(0, 0, arg))
			return true;
		if ((d & 2) && rest > 0 && f(rest, 0, arg))
			return true;
		if (d & 4)
			for (uint32_t x = 1; 2 * x <= rest; x++)
				if (f(x, rest - x, arg))
					return true;
	}
	return false;
}

void nim_octal_move_text(uint32_t a, uint32_t b, char *buf, size_t n)
{
	if (b)
		snprintf(buf, n, "%u+%u", a, b);
	else
		snprintf(buf, n, "%u", a);
}

typedef struct {
	const uint32_t *v;
	uint32_t *seen, cap, stamp;
} octmex_t;

static bool mark_option(uint32_t a, uint32_t b, void *arg)
{
	octmex_t *m = arg;
	uint32_t x = m->v[a] ^ m->v[b]; /* v[0] = 0: a missing heap adds nothing */
	if (x < m->cap)
		m->seen[x] = m->stamp;
	return false;
}

uint32_t *nim_octal_grundy(const nim_game *g, uint32_t n)
{
	uint32_t *v = xcalloc((size_t)n + 1, sizeof *v);
	octmex_t m = {.v = v, .cap = 2 * n + 64};
	m.seen = xcalloc(m.cap, sizeof *m.seen);
	for (uint32_t h = 1; h <= n; h++) {
		m.stamp = h;
		nim_octal_options(g, h, mark_option, &m);
		uint32_t x = 0;
		while (x < m.cap && m.seen[x] == h)
			x++;
		v[h] = x;
	}
	free(m.seen);
	return v;
}

bool nim_octal_period(const nim_game *g, const uint32_t *v, uint32_t n, uint32_t *period,
		       uint32_t *preperiod)
{
	uint32_t t = (uint32_t)g->ndigits;
	for (uint32_t p = 1; p <= n / 2; p++) {
		/* The smallest n0 with v[i + p] == v[i] for every n0 <= i <= n - p. */
		uint32_t n0 = 0;
		for (uint32_t i = n - p + 1; i-- > 0;)
			if (v[i + p] != v[i]) {
				n0 = i + 1;
				break;
			}
		/* The theorem needs the equality over n0 <= i < 2 n0 + p + t. */
		if ((uint64_t)2 * n0 + p + t <= (uint64_t)n - p + 1) {
			*period = p;
			*preperiod = n0;
			return true;
		}
	}
	return false;
}

/* ---- octal games on sets of heaps ---- */

typedef struct {
	const nim_game *g;
	strmap *memo; /* sorted heap sizes (bytes, largest first) -> state */
	uint8_t *outcome;
	uint32_t *rem;
	size_t cap;
	uint64_t max_states;
	bool overflow;
} octset_t;

/* Inserts V into the descending array H[0..n) (room for one more). */
static int insert_desc(uint8_t *h, int n, uint8_t v)
{
	int i = n;
	while (i > 0 && h[i - 1] < v) {
		h[i] = h[i - 1];
		i--;
	}
	h[i] = v;
	return n + 1;
}

static uint32_t octset_solve(octset_t *s, const uint8_t *h, int n);

/* The state after replacing heap I of H[0..n) by the heaps P and Q (0: none). */
static uint32_t octset_child(octset_t *s, const uint8_t *h, int n, int i, uint32_t p, uint32_t q)
{
	uint8_t c[256];
	int m = 0;
	for (int j = 0; j < n; j++)
		if (j != i)
			c[m++] = h[j];
	if (p)
		m = insert_desc(c, m, (uint8_t)p);
	if (q)
		m = insert_desc(c, m, (uint8_t)q);
	return octset_solve(s, c, m);
}

typedef struct {
	bool any, anyp;
	uint32_t minp, max;
} octagg_t;

static void octagg_add(octset_t *s, octagg_t *a, uint32_t child)
{
	uint32_t r = s->rem[child];
	a->any = true;
	if (r > a->max)
		a->max = r;
	if (s->outcome[child] == 0) {
		a->anyp = true;
		if (r < a->minp)
			a->minp = r;
	}
}

typedef struct {
	octset_t *s;
	const uint8_t *h;
	int n, i;
	octagg_t *agg;
	uint32_t want; /* winning move search: the remoteness wanted */
	char *move;
} octmove_t;

static bool add_option(uint32_t a, uint32_t b, void *arg)
{
	octmove_t *m = arg;
	octagg_add(m->s, m->agg, octset_child(m->s, m->h, m->n, m->i, a, b));
	return m->s->overflow;
}

/* Every move from H (each distinct heap size once). */
static void octset_moves(octset_t *s, const uint8_t *h, int n, octagg_t *a)
{
	octmove_t m = {.s = s, .h = h, .n = n, .agg = a};
	for (m.i = 0; m.i < n && !s->overflow; m.i++) {
		if (m.i > 0 && h[m.i] == h[m.i - 1])
			continue; /* the same heap size gives the same children */
		nim_octal_options(s->g, h[m.i], add_option, &m);
	}
}

static uint32_t octset_solve(octset_t *s, const uint8_t *h, int n)
{
	int64_t id = strmap_find(s->memo, (const char *)h, (size_t)n);
	if (id >= 0)
		return (uint32_t)id;
	octagg_t a = {.minp = UINT32_MAX};
	octset_moves(s, h, n, &a);
	if (s->overflow)
		return 0;
	uint32_t nid = strmap_intern(s->memo, (const char *)h, (size_t)n, NULL);
	if (nid >= s->max_states) {
		s->overflow = true;
		return 0;
	}
	if (nid >= s->cap) {
		size_t old = s->cap;
		util_grow((void **)&s->rem, &s->cap, (size_t)nid + 1, sizeof *s->rem);
		s->outcome = xrealloc(s->outcome, s->cap);
		(void)old;
	}
	/* As for the table solver: no move is P in normal play, N in misere. */
	if (!a.any) {
		s->outcome[nid] = s->g->misere ? 1 : 0;
		s->rem[nid] = 0;
	} else if (a.anyp) {
		s->outcome[nid] = 1;
		s->rem[nid] = a.minp + 1;
	} else {
		s->outcome[nid] = 0;
		s->rem[nid] = a.max + 1;
	}
	return nid;
}

static bool fastest_win(uint32_t a, uint32_t b, void *arg)
{
	octmove_t *m = arg;
	uint32_t c = octset_child(m->s, m->h, m->n, 0, a, b);
	if (m->s->outcome[c] != 0 || m->s->rem[c] != m->want)
		return false;
	nim_octal_move_text(a, b, m->move, 16);
	return true;
}

bool nim_octal_sets(const nim_game *g, uint32_t n, uint64_t max_states, uint8_t *outcome,
		     uint32_t *rem, char (*move)[16])
{
	if (n > 255)
		return false;
	octset_t s = {.g = g, .memo = strmap_new(), .max_states = max_states};
	bool ok = true;
	for (uint32_t size = 0; size <= n && ok; size++) {
		uint8_t h[1] = {(uint8_t)size};
		uint32_t id = octset_solve(&s, h, size ? 1 : 0);
		if (s.overflow) {
			ok = false;
			break;
		}
		outcome[size] = s.outcome[id];
		rem[size] = s.rem[id];
		move[size][0] = '\0';
		if (s.outcome[id] == 0)
			continue;
		/* The first child, in move order, that wins fastest. */
		octmove_t m = {.s = &s, .h = h, .n = 1, .want = s.rem[id] - 1, .move = move[size]};
		nim_octal_options(g, size, fastest_win, &m);
	}
	strmap_free(s.memo);
	free(s.outcome);
	free(s.rem);
	return ok;
}

/* ---- counting and moves without a table ---- */

uint64_t nim_count_p(const nim_game *g)
{
	/* Normal play: the positions of nim-sum 0, by the highest bit at
	 * which some heap first drops below its bound. Above that bit every
	 * heap equals its bound (so the bounds' higher bits must have nim-sum
	 * 0); at it, the heaps S that drop (bound bit 1, chosen 0) leave the
	 * others' bits there, which must have even weight; below it the heaps
	 * of S are free, one of them fixed by the others so that the sum is 0.
	 * Summed over S with a generating product: the sets with |A \ S| even
	 * are (prod(x + y) + prod(x - y)) / 2. Every product counts positions
	 * within the bounds, so stays below 2^62 (nim_positions). */
	int m = g->m;
	uint64_t all = 0;
	for (int i = 0; i < m; i++)
		all ^= g->max[i];
	unsigned __int128 count = all == 0;
	for (int b = 31; b >= 0; b--) {
		uint64_t hi = 0, lowmask = ((uint64_t)1 << b) - 1, x = (uint64_t)1 << b;
		for (int i = 0; i < m; i++)
			hi ^= (uint64_t)g->max[i] >> (b + 1);
		if (hi)
			continue;
		__int128 plus = 1, minus = 1, none = 1, fixed = 1;
		int na = 0;
		for (int i = 0; i < m; i++) {
			__int128 y = (__int128)(g->max[i] & lowmask) + 1;
			if (g->max[i] >> b & 1) {
				na++;
				plus *= x + y;
				minus *= (__int128)x - y;
				none *= y;
			} else {
				fixed *= y;
			}
		}
		if (na == 0)
			continue;
		__int128 even = (plus + minus) / 2 - (na % 2 == 0 ? none : 0);
		count += (unsigned __int128)(even / (__int128)x * fixed);
	}
	/* Misere play differs only where every heap is 0 or 1: there P is an
	 * odd number of ones instead of an even one, which is as many
	 * positions unless no heap can hold a 1 (then the one position, all
	 * zero, is N instead of P). */
	if (g->misere) {
		bool any = false;
		for (int i = 0; i < m; i++)
			any |= g->max[i] >= 1;
		if (!any)
			count--;
	}
	return (uint64_t)count;
}

/* How many k >= 1 have the pair's lower (B false) or upper member at most X. */
static uint64_t wythoff_rank(uint64_t x, bool upper)
{
	uint64_t lo = 0, hi = x + 1; /* the answer is in [lo, hi) */
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2, a, b;
		nim_wythoff_pair(mid, &a, &b);
		if ((upper ? b : a) <= x)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

uint64_t nim_wythoff_partner(uint64_t y, bool misere)
{
	if (misere && y <= 2)
		return y == 0 ? 1 : y == 1 ? 0 : 2;
	if (y == 0)
		return 0;
	uint64_t k = wythoff_rank(y, false), a, b;
	nim_wythoff_pair(k, &a, &b);
	if (a == y)
		return b;
	nim_wythoff_pair(wythoff_rank(y, true), &a, &b);
	return a; /* every y >= 1 is a lower or an upper member */
}

uint64_t nim_wythoff_count_p(const nim_game *g)
{
	uint64_t m0 = g->max[0], m1 = g->max[1];
	uint64_t n = 1 + /* (0, 0), then (a_k, b_k) and (b_k, a_k) as (x, y) */
		     (wythoff_rank(m0, false) < wythoff_rank(m1, true) ? wythoff_rank(m0, false)
									: wythoff_rank(m1, true)) +
		     (wythoff_rank(m0, true) < wythoff_rank(m1, false) ? wythoff_rank(m0, true)
								       : wythoff_rank(m1, false));
	if (g->misere) { /* six small positions change sides */
		static const uint8_t out[3][2] = {{0, 0}, {1, 2}, {2, 1}}, in[3][2] = {{0, 1}, {1, 0}, {2, 2}};
		for (int i = 0; i < 3; i++) {
			n -= out[i][0] <= m0 && out[i][1] <= m1;
			n += in[i][0] <= m0 && in[i][1] <= m1;
		}
	}
	return n;
}

bool nim_wythoff_move(uint32_t *h, bool misere)
{
	uint64_t x = h[0], y = h[1];
	uint64_t px = nim_wythoff_partner(y, misere), py = nim_wythoff_partner(x, misere);
	if (px < x) {
		h[0] = (uint32_t)px;
		return true;
	}
	if (py < y) {
		h[1] = (uint32_t)py;
		return true;
	}
	/* The diagonal: the one P position whose heaps differ by d. */
	uint64_t d = x > y ? x - y : y - x, lo, hi;
	if (misere && d <= 1)
		lo = d == 0 ? 2 : 0;
	else
		nim_wythoff_pair(d, &lo, &hi);
	uint64_t low = x < y ? x : y;
	if (lo >= low)
		return false;
	h[0] = (uint32_t)(x - (low - lo));
	h[1] = (uint32_t)(y - (low - lo));
	return true;
}

/* ---- octal Grundy sequences, shortened by their period ---- */

uint32_t nim_octal_value(const nim_octal_seq *s, uint64_t h)
{
	if (h < s->len)
		return s->v[h];
	return s->v[s->pre + (h - s->pre) % s->period];
}

/* Option visits to compute the values of heaps 0..N directly (splits
 * dominate: about N^2 / 4 for each digit that allows them). */
static double octal_work(const nim_game *g, uint64_t n)
{
	double w = (double)n;
	for (int k = 1; k <= g->ndigits; k++)
		if (g->digit[k] & 4)
			w += (double)n * (double)n / 4;
	return w;
}

/* Values of heaps s->len..n by mex over the options (s->v has room). */
static void octal_extend(const nim_game *g, nim_octal_seq *s, uint32_t n, octmex_t *m)
{
	for (uint32_t h = s->len; h <= n; h++) {
		m->stamp = h + 1; /* the seen array starts all 0 */
		nim_octal_options(g, h, mark_option, m);
		uint32_t x = 0;
		while (x < m->cap && m->seen[x] == m->stamp)
			x++;
		s->v[h] = x;
		if (x + 1 >= m->cap / 2) { /* values stay below the seen array's half */
			uint32_t old = m->cap;
			m->cap *= 2;
			m->seen = xrealloc(m->seen, (size_t)m->cap * sizeof *m->seen);
			memset(m->seen + old, 0, (size_t)(m->cap - old) * sizeof *m->seen);
		}
	}
	s->len = n + 1;
}

const char *nim_octal_values(const nim_game *g, uint32_t n, uint64_t max_bytes, double max_work,
			     nim_octal_seq *s)
{
	static char why[160];
	*s = (nim_octal_seq){0};
	octmex_t m = {.cap = 64};
	m.seen = xcalloc(m.cap, sizeof *m.seen);
	uint32_t done = 0; /* values 0..done are known when s->len > 0 */
	for (uint32_t upto = n < 255 ? n : 255;; upto = upto > n / 2 ? n : 2 * upto) {
		if ((uint64_t)upto * 4 + 4 > max_bytes) {
			snprintf(why, sizeof why, "the Grundy values up to heap %u need more than --max-memory", upto);
			break;
		}
		if (octal_work(g, upto) > max_work && upto > done) {
			snprintf(why, sizeof why,
				 "no period found up to heap %u, and the values up to heap %u would take "
				 "about %.0f minutes; use a smaller --max",
				 done, n, octal_work(g, n) / NIM_OCTAL_RATE / 60);
			break;
		}
		if ((octal_work(g, upto) - octal_work(g, done)) / NIM_OCTAL_RATE >= 5)
			warn("no period found up to heap %u: computing heaps up to %u, about %.0f s", done,
			     upto, (octal_work(g, upto) - octal_work(g, done)) / NIM_OCTAL_RATE);
		s->v = xrealloc(s->v, ((size_t)upto + 1) * sizeof *s->v);
		m.v = s->v;
		octal_extend(g, s, upto, &m);
		done = upto;
		if (upto < n && nim_octal_period(g, s->v, upto, &s->period, &s->pre))
			break; /* the rest follows from the period */
		if (upto == n) {
			s->period = 0;
			break;
		}
	}
	free(m.seen);
	if (s->len == done + 1 && (done == n || s->period))
		return NULL;
	free(s->v);
	*s = (nim_octal_seq){0};
	return why;
}

void nim_octal_seq_free(nim_octal_seq *s)
{
	free(s->v);
	free(s->win);
	*s = (nim_octal_seq){0};
}

bool nim_octal_seq_period(const nim_game *g, const nim_octal_seq *s, uint32_t n, uint32_t *period,
			  uint32_t *preperiod)
{
	/* Up to a few million heaps the sequence is written out and searched
	 * as nim_octal_period does; beyond, its period found early is the
	 * answer, reduced to the smallest that the theorem proves by then. */
	if (n <= (1u << 22) || !s->period) {
		if (!s->period && n >= s->len)
			return false;
		uint32_t *v = xmalloc(((size_t)n + 1) * sizeof *v);
		for (uint32_t h = 0; h <= n; h++)
			v[h] = nim_octal_value(s, h);
		bool ok = nim_octal_period(g, v, n, period, preperiod);
		free(v);
		return ok;
	}
	uint32_t p = s->period;
	for (uint32_t d = 1; d < s->period; d++) {
		if (s->period % d)
			continue;
		bool cyc = true;
		for (uint32_t i = 0; i < s->period && cyc; i++)
			cyc = nim_octal_value(s, s->pre + i) == nim_octal_value(s, s->pre + (i + d) % s->period);
		if (cyc) {
			p = d;
			break;
		}
	}
	uint32_t n0 = s->pre;
	while (n0 > 0 && nim_octal_value(s, n0 - 1) == nim_octal_value(s, n0 - 1 + p))
		n0--;
	*period = p;
	*preperiod = n0;
	return true;
}

/* The first split x of REST (x in [lo, hi], ascending) whose parts' values
 * XOR to TARGET, or 0. */
static uint32_t first_split(const nim_octal_seq *s, uint32_t rest, uint32_t lo, uint32_t hi,
			    uint32_t target)
{
	for (uint32_t x = lo; x <= hi; x++)
		if ((nim_octal_value(s, x) ^ nim_octal_value(s, rest - x)) == target)
			return x;
	return 0;
}

bool nim_octal_first_option(const nim_game *g, const nim_octal_seq *s, uint32_t h, uint32_t target,
			    uint32_t *a, uint32_t *b)
{
	for (int k = 1; k <= g->ndigits && (uint32_t)k <= h; k++) {
		uint8_t d = g->digit[k];
		uint32_t rest = h - (uint32_t)k;
		if ((d & 1) && rest == 0 && target == 0) {
			*a = *b = 0;
			return true;
		}
		if ((d & 2) && rest > 0 && nim_octal_value(s, rest) == target) {
			*a = rest, *b = 0;
			return true;
		}
		if (!(d & 4) || rest < 2)
			continue;
		uint32_t half = rest / 2, x = 0;
		if (!s->period) {
			x = first_split(s, rest, 1, half, target);
		} else {
			/* Where both parts lie past the pre-period, the XOR
			 * repeats with x mod the period: one period decides. */
			uint32_t n0 = s->pre > 0 ? s->pre : 1, p = s->period;
			uint32_t mid_hi = rest >= n0 ? rest - n0 : 0;
			if (mid_hi > half)
				mid_hi = half;
			x = first_split(s, rest, 1, n0 - 1 < half ? n0 - 1 : half, target);
			if (!x && n0 <= mid_hi)
				x = first_split(s, rest, n0, mid_hi - n0 >= p ? n0 + p - 1 : mid_hi, target);
			if (!x && mid_hi < half)
				x = first_split(s, rest, mid_hi + 1 > n0 ? mid_hi + 1 : n0, half, target);
		}
		if (x) {
			*a = x, *b = rest - x;
			return true;
		}
	}
	return false;
}

bool nim_octal_winning_move(const nim_game *g, nim_octal_seq *s, uint32_t h, uint32_t *a,
			    uint32_t *b)
{
	/* Past 2 (pre + period) plus the digits, every option's value is the
	 * periodic part's, and the splits searched (those with a part below
	 * the pre-period and one period after it) sit at fixed offsets. */
	if (!s->period)
		return nim_octal_first_option(g, s, h, 0, a, b);
	if (!s->win) {
		s->win_from = 2 * ((uint64_t)s->pre + s->period) + (uint64_t)g->ndigits + 2;
		s->win = xmalloc(s->period * sizeof *s->win);
		for (uint32_t i = 0; i < s->period; i++)
			s->win[i] = -2;
	}
	if (h < s->win_from)
		return nim_octal_first_option(g, s, h, 0, a, b);
	int64_t *w = &s->win[h % s->period];
	if (*w == -2) {
		if (!nim_octal_first_option(g, s, h, 0, a, b)) {
			*w = -1;
		} else {
			uint32_t taken = h - (*b ? *a + *b : *a);
			*w = (int64_t)taken << 32 | (*b ? *a : 0);
		}
	}
	if (*w == -1)
		return false;
	uint32_t rest = h - (uint32_t)(*w >> 32), x = (uint32_t)(*w & 0xffffffff);
	*a = x ? x : rest;
	*b = x ? rest - x : 0;
	return true;
}
