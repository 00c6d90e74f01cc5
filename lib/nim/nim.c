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
	d->n = 0;
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
