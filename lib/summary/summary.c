#include "summary/summary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "core/strmap.h"
#include "core/table.h"
#include "core/util.h"

typedef enum {
	OP_COUNT, OP_SUM, OP_MEAN, OP_MIN, OP_MAX, OP_SD, OP_VAR, OP_MEDIAN, OP_Q, OP_MODE,
	OP_DISTINCT, OP_FIRST, OP_LAST, OP_RATE, OP_SCORE
} op_kind;

static const char *const op_names[] = {"count", "sum",  "mean",     "min",   "max",
				       "sd",    "var",  "median",   "q",     "mode",
				       "distinct", "first", "last", "rate", "score"};
#define NOPKINDS (sizeof op_names / sizeof op_names[0])

typedef struct {
	op_kind kind;
	char *spec, *col; /* col NULL for count */
	int colidx;
	double p;                 /* q */
	char *value, *win, *draw; /* rate value; score values */
	bool show_na;             /* first numeric op of its column with NAs */
} op_t;

/* One operation's state in one group. */
typedef struct {
	stats_acc acc; /* numeric ops; acc.n counts rows for count */
	int64_t n, k;  /* rate: rows, matches; score: rows, 2 * wins + draws */
	double *vals;  /* median, q */
	size_t nv, cv;
	strmap *set; /* mode, distinct: values seen */
	int64_t *freq;
	size_t fcap;
	char *text; /* first, last */
} state_t;

struct summary {
	summary_opts o;
	char **group;
	int ngroup;
	op_t *ops;
	int nops;
	double z;
	bool configured; /* groups and ops known */
	strmap *groups;
	state_t *st; /* ngroups * nops */
	size_t scap;
	char *keybuf;
	size_t keycap;
	int *gidx; /* group column indexes in the current table */
	char *first_partial; /* header of the first merged partial */
	/* Recently seen group keys: most tables have few groups, and a cheap
	 * tag check finds them without hashing the whole key. */
	struct {
		uint64_t tag;
		uint32_t len, gid;
	} cache[64];
	const char *partial_name;
};

static bool numeric_kind(op_kind k)
{
	return k >= OP_SUM && k <= OP_Q;
}

static bool mergeable(op_kind k)
{
	return !(k == OP_MEDIAN || k == OP_Q || k == OP_MODE || k == OP_DISTINCT);
}

/* Parses SPEC into *op; returns false with *why set on failure. */
static bool parse_op(const char *spec, op_t *op, const char **why)
{
	memset(op, 0, sizeof *op);
	op->spec = xstrdup(spec);
	const char *colon = strchr(spec, ':');
	size_t nl = colon ? (size_t)(colon - spec) : strlen(spec);
	size_t k = 0;
	while (k < NOPKINDS && !(strlen(op_names[k]) == nl && strncmp(op_names[k], spec, nl) == 0))
		k++;
	if (k == NOPKINDS) {
		*why = "unknown operation";
		return false;
	}
	op->kind = (op_kind)k;
	if (op->kind == OP_COUNT) {
		if (colon) {
			*why = "count takes no column";
			return false;
		}
		return true;
	}
	if (!colon || !colon[1]) {
		*why = "a column is missing";
		return false;
	}
	const char *arg = colon + 1;
	if (op->kind == OP_Q) {
		const char *c2 = strchr(arg, ':');
		char *ps = c2 ? xstrndup(arg, (size_t)(c2 - arg)) : NULL;
		bool ok = ps && util_parse_double(ps, 0, 1, &op->p) && c2[1];
		free(ps);
		if (!ok) {
			*why = "expected q:P:COLUMN with P from 0 to 1";
			return false;
		}
		arg = c2 + 1;
	}
	if (op->kind == OP_RATE || op->kind == OP_SCORE) {
		const char *eq = strchr(arg, '=');
		if (!eq || eq == arg) {
			*why = op->kind == OP_RATE ? "expected rate:COLUMN=VALUE" : "expected score:COLUMN=WIN/DRAW";
			return false;
		}
		op->col = xstrndup(arg, (size_t)(eq - arg));
		if (op->kind == OP_RATE) {
			op->value = xstrdup(eq + 1);
		} else {
			const char *slash = strchr(eq + 1, '/');
			if (!slash || slash == eq + 1) {
				*why = "expected score:COLUMN=WIN/DRAW";
				return false;
			}
			op->win = xstrndup(eq + 1, (size_t)(slash - eq - 1));
			op->draw = xstrdup(slash + 1);
		}
		return true;
	}
	op->col = xstrdup(arg);
	return true;
}

bool summary_is_op(const char *text)
{
	op_t op;
	const char *why;
	bool ok = parse_op(text, &op, &why);
	free(op.spec);
	free(op.col);
	free(op.value);
	free(op.win);
	free(op.draw);
	return ok;
}

static void configure(summary *s, const char **group, int ngroup, const char **ops, int nops)
{
	s->ngroup = ngroup;
	s->group = xmalloc((size_t)(ngroup ? ngroup : 1) * sizeof *s->group);
	for (int i = 0; i < ngroup; i++)
		s->group[i] = xstrdup(group[i]);
	s->nops = nops;
	s->ops = xcalloc((size_t)nops, sizeof *s->ops);
	for (int i = 0; i < nops; i++) {
		const char *why;
		if (!parse_op(ops[i], &s->ops[i], &why))
			die_usage("invalid operation '%s': %s", ops[i], why);
		if (s->o.partial && !mergeable(s->ops[i].kind))
			die_usage("%s cannot be merged exactly, so --partial refuses it "
				  "(mergeable: count, sum, mean, min, max, sd, var, rate, score, first, last)",
				  ops[i]);
	}
	s->gidx = xmalloc((size_t)(ngroup ? ngroup : 1) * sizeof *s->gidx);
	s->configured = true;
}

summary *summary_new(const summary_opts *o)
{
	summary *s = xcalloc(1, sizeof *s);
	s->o = *o;
	s->z = stats_z(o->level);
	s->groups = strmap_new();
	if (o->crosstab && o->ngroup != 2)
		die_usage("--crosstab needs two columns, ROW,COL");
	if (o->crosstab && o->nops != 1)
		die_usage("--crosstab lays out exactly one operation");
	if (o->nops > 0)
		configure(s, o->group, o->ngroup, o->ops, o->nops);
	return s;
}

static inline uint64_t key_tag(const char *p, size_t n)
{
	uint64_t a = 0, b = 0;
	memcpy(&a, p, n < 8 ? n : 8);
	if (n > 8)
		memcpy(&b, p + n - 8, 8);
	uint64_t h = (a ^ (b * 0x9E3779B97F4A7C15u) ^ n) * 0xBF58476D1CE4E5B9u;
	return (h ^ (h >> 32)) | 1; /* never 0, the empty slot */
}

static state_t *group_states(summary *s, const char *key, size_t n)
{
	uint64_t tag = key_tag(key, n);
	size_t slot = (size_t)(tag >> 7) & 63;
	if (s->cache[slot].tag == tag && s->cache[slot].len == n &&
	    memcmp(strmap_key(s->groups, s->cache[slot].gid), key, n) == 0)
		return s->st + (size_t)s->cache[slot].gid * s->nops;
	bool added;
	uint32_t g = strmap_intern(s->groups, key, n, &added);
	s->cache[slot].tag = tag;
	s->cache[slot].len = (uint32_t)n;
	s->cache[slot].gid = g;
	if (added) {
		size_t need = ((size_t)g + 1) * (size_t)s->nops;
		if (need > s->scap) {
			size_t old = s->scap;
			util_grow((void **)&s->st, &s->scap, need, sizeof *s->st);
			memset(s->st + old, 0, (s->scap - old) * sizeof *s->st);
		}
		for (int i = 0; i < s->nops; i++)
			stats_init(&s->st[(size_t)g * s->nops + i].acc);
	}
	return s->st + (size_t)g * s->nops;
}

/* The group key of the current row: fields joined by 0x1F. */
static state_t *row_states(summary *s, table *t)
{
	if (s->ngroup == 1)
		return group_states(s, table_field(t, s->gidx[0]), table_field_len(t, s->gidx[0]));
	size_t len = 0;
	for (int i = 0; i < s->ngroup; i++)
		len += table_field_len(t, s->gidx[i]) + 1;
	util_grow((void **)&s->keybuf, &s->keycap, len + 1, 1);
	len = 0;
	for (int i = 0; i < s->ngroup; i++) {
		size_t fl = table_field_len(t, s->gidx[i]);
		if (i)
			s->keybuf[len++] = '\x1F';
		memcpy(s->keybuf + len, table_field(t, s->gidx[i]), fl);
		len += fl;
	}
	return group_states(s, s->keybuf, len);
}

static void add_text(state_t *st, op_kind kind, const char *v, size_t n)
{
	if (kind == OP_FIRST) {
		if (!st->text)
			st->text = xstrndup(v, n);
		return;
	}
	if (kind == OP_LAST) {
		free(st->text);
		st->text = xstrndup(v, n);
		return;
	}
	if (!st->set)
		st->set = strmap_new();
	uint32_t id = strmap_intern(st->set, v, n, NULL);
	if (id >= st->fcap) {
		size_t old = st->fcap;
		util_grow((void **)&st->freq, &st->fcap, id + 1, sizeof *st->freq);
		memset(st->freq + old, 0, (st->fcap - old) * sizeof *st->freq);
	}
	st->freq[id]++;
}

void summary_add_table(summary *s, const char *path)
{
	table *t = table_open(path, NULL);
	for (int i = 0; i < s->ngroup; i++)
		s->gidx[i] = table_need_col(t, s->group[i]);
	for (int i = 0; i < s->nops; i++)
		if (s->ops[i].col)
			s->ops[i].colidx = table_need_col(t, s->ops[i].col);
	static const char none[] = "";
	while (table_read_row(t)) {
		state_t *st = s->ngroup ? row_states(s, t) : group_states(s, none, 0);
		for (int i = 0; i < s->nops; i++) {
			const op_t *op = &s->ops[i];
			state_t *x = &st[i];
			if (op->kind == OP_COUNT) {
				x->acc.n++;
				continue;
			}
			const char *v = table_field(t, (size_t)op->colidx);
			size_t n = table_field_len(t, (size_t)op->colidx);
			if (numeric_kind(op->kind)) {
				stats_num num;
				stats_kind k = stats_parse(v, n, &num);
				if (k == STATS_MISSING) {
					x->acc.na++;
				} else if (k == STATS_BAD) {
					die_at(table_name(t), table_line(t), "column '%s': '%s' is not a number",
					       op->col, v);
				} else {
					stats_add(&x->acc, &num);
					if (op->kind == OP_MEDIAN || op->kind == OP_Q) {
						util_grow((void **)&x->vals, &x->cv, x->nv + 1, sizeof *x->vals);
						x->vals[x->nv++] = num.v;
					}
				}
				continue;
			}
			if (n == 0 || (n == 2 && v[0] == 'N' && v[1] == 'A'))
				continue; /* missing */
			if (op->kind == OP_RATE) {
				x->n++;
				x->k += strcmp(v, op->value) == 0;
			} else if (op->kind == OP_SCORE) {
				x->n++;
				x->k += strcmp(v, op->win) == 0 ? 2 : strcmp(v, op->draw) == 0;
			} else {
				add_text(x, op->kind, v, n);
			}
		}
	}
	table_close(t);
}

/* ---- partial aggregates ---- */

/* State columns of an operation in a partial table. */
static const char *const *partial_fields(op_kind k, int *n)
{
	static const char *const count[] = {"n"};
	static const char *const num[] = {"n", "na", "sum", "sumsq", "min", "max", "exact"};
	static const char *const rate[] = {"n", "k"};
	static const char *const text[] = {"value"};
	if (k == OP_COUNT)
		return *n = 1, count;
	if (numeric_kind(k))
		return *n = 7, num;
	if (k == OP_RATE || k == OP_SCORE)
		return *n = 2, rate;
	return *n = 1, text;
}

static void write_partial_header(const summary *s, output *out)
{
	for (int i = 0; i < s->ngroup; i++)
		output_field(out, s->group[i]);
	for (int i = 0; i < s->nops; i++) {
		int nf;
		const char *const *f = partial_fields(s->ops[i].kind, &nf);
		for (int j = 0; j < nf; j++) {
			char name[512];
			snprintf(name, sizeof name, "%s#%s", s->ops[i].spec, f[j]);
			output_field(out, name);
		}
	}
	output_end_row(out);
}

static void write_partial_state(const op_t *op, const state_t *x, output *out)
{
	if (op->kind == OP_COUNT) {
		output_int(out, x->acc.n);
	} else if (numeric_kind(op->kind)) {
		const stats_acc *a = &x->acc;
		output_int(out, a->n);
		output_int(out, a->na);
		if (a->exact) {
			char b[64];
			stats_format_fixed(a->isum, STATS_DECIMALS, b, sizeof b);
			output_field(out, b);
			stats_format_fixed(a->isumsq, 2 * STATS_DECIMALS, b, sizeof b);
			output_field(out, b);
		} else {
			output_double(out, a->dsum);
			output_double(out, a->dsumsq);
		}
		if (a->n) {
			output_double(out, a->min);
			output_double(out, a->max);
		} else {
			output_na(out);
			output_na(out);
		}
		output_int(out, a->exact);
	} else if (op->kind == OP_RATE || op->kind == OP_SCORE) {
		output_int(out, x->n);
		output_int(out, x->k);
	} else if (x->text) {
		output_field(out, x->text);
	} else {
		output_na(out);
	}
}

static int64_t need_count(table *t, size_t col)
{
	int64_t v;
	if (!util_parse_i64(table_field(t, col), 0, INT64_MAX, &v))
		die_at(table_name(t), table_line(t), "column '%s': '%s' is not a count",
		       table_colname(t, col), table_field(t, col));
	return v;
}

static double need_double(table *t, size_t col)
{
	stats_num x;
	if (stats_parse(table_field(t, col), table_field_len(t, col), &x) != STATS_NUM)
		die_at(table_name(t), table_line(t), "column '%s': '%s' is not a number",
		       table_colname(t, col), table_field(t, col));
	return x.v;
}

/* Reads one operation's state from the partial row at column COL. */
static void read_partial_state(table *t, size_t col, const op_t *op, state_t *x)
{
	if (op->kind == OP_COUNT) {
		stats_acc b;
		stats_init(&b);
		b.n = need_count(t, col);
		x->acc.n += b.n;
	} else if (numeric_kind(op->kind)) {
		stats_acc b;
		stats_init(&b);
		b.n = need_count(t, col);
		b.na = need_count(t, col + 1);
		const char *ex = table_field(t, col + 6);
		if (strcmp(ex, "1") != 0 && strcmp(ex, "0") != 0)
			die_at(table_name(t), table_line(t), "column '%s': expected 0 or 1",
			       table_colname(t, col + 6));
		b.exact = ex[0] == '1';
		if (b.exact) {
			if (!stats_parse_fixed(table_field(t, col + 2), STATS_DECIMALS, &b.isum) ||
			    !stats_parse_fixed(table_field(t, col + 3), 2 * STATS_DECIMALS, &b.isumsq))
				die_at(table_name(t), table_line(t), "columns '%s', '%s': not exact sums",
				       table_colname(t, col + 2), table_colname(t, col + 3));
			b.dsum = (double)((long double)b.isum / STATS_SCALE);
			b.dsumsq = (double)((long double)b.isumsq / 1e12L);
		} else {
			b.dsum = need_double(t, col + 2);
			b.dsumsq = need_double(t, col + 3);
		}
		if (b.n) {
			b.min = need_double(t, col + 4);
			b.max = need_double(t, col + 5);
		}
		stats_merge(&x->acc, &b);
	} else if (op->kind == OP_RATE || op->kind == OP_SCORE) {
		x->n += need_count(t, col);
		x->k += need_count(t, col + 1);
	} else if (table_field_len(t, col) > 0) {
		if (op->kind == OP_LAST || !x->text) {
			free(x->text);
			x->text = xstrdup(table_field(t, col));
		}
	}
}

/* The header of T as one string, column names joined by 0x1F. */
static char *header_of(const table *t)
{
	size_t len = 0, nc = table_ncols(t);
	for (size_t i = 0; i < nc; i++)
		len += strlen(table_colname(t, i)) + 1;
	char *h = xmalloc(len + 1), *p = h;
	for (size_t i = 0; i < nc; i++) {
		size_t l = strlen(table_colname(t, i));
		memcpy(p, table_colname(t, i), l);
		p += l;
		*p++ = '\x1F';
	}
	*p = '\0';
	return h;
}

/* Takes the groups and operations from the header of the first partial:
 * group columns, then OPERATION#FIELD state columns. */
static void configure_from_partial(summary *s, table *t, const char *path)
{
	if (s->configured)
		die_usage("--merge takes its operations from the partial tables, not the command line");
	size_t nc = table_ncols(t);
	int ng = 0;
	while ((size_t)ng < nc && !strchr(table_colname(t, (size_t)ng), '#'))
		ng++;
	if ((size_t)ng == nc)
		die_at(path, 1, "not a partial table: no OPERATION#FIELD columns");
	for (size_t i = (size_t)ng; i < nc; i++)
		if (!strchr(table_colname(t, i), '#'))
			die_at(path, 1, "not a partial table: group column '%s' after the operations",
			       table_colname(t, i));
	const char **group = xmalloc(nc * sizeof *group), **ops = xmalloc(nc * sizeof *ops);
	int no = 0;
	for (int i = 0; i < ng; i++)
		group[i] = table_colname(t, (size_t)i);
	for (size_t i = (size_t)ng; i < nc; i++) {
		const char *name = table_colname(t, i);
		char *spec = xstrndup(name, (size_t)(strrchr(name, '#') - name));
		if (no == 0 || strcmp(ops[no - 1], spec) != 0)
			ops[no++] = spec;
		else
			free(spec);
	}
	configure(s, group, ng, ops, no);
	for (int i = 0; i < no; i++)
		free((char *)ops[i]);
	free(group);
	free(ops);
	/* Every operation must have exactly its state columns. */
	size_t col = (size_t)ng;
	for (int i = 0; i < s->nops; i++) {
		int nf;
		const char *const *f = partial_fields(s->ops[i].kind, &nf);
		for (int j = 0; j < nf; j++, col++) {
			char want[512];
			snprintf(want, sizeof want, "%s#%s", s->ops[i].spec, f[j]);
			if (col >= nc || strcmp(table_colname(t, col), want) != 0)
				die_at(path, 1, "not a partial table: expected column '%s'", want);
		}
	}
	if (col != nc)
		die_at(path, 1, "not a partial table: unexpected column '%s'", table_colname(t, col));
	s->first_partial = header_of(t);
	s->partial_name = xstrdup(path);
}

void summary_merge_table(summary *s, const char *path)
{
	table *t = table_open(path, NULL);
	if (!s->first_partial) {
		configure_from_partial(s, t, path);
	} else {
		char *header = header_of(t);
		bool same = strcmp(header, s->first_partial) == 0;
		free(header);
		if (!same)
			die_at(path, 1, "this partial was made with other groups or operations than %s",
			       s->partial_name);
	}
	for (int i = 0; i < s->ngroup; i++)
		s->gidx[i] = i;
	static const char none[] = "";
	while (table_read_row(t)) {
		state_t *st = s->ngroup ? row_states(s, t) : group_states(s, none, 0);
		size_t col = (size_t)s->ngroup;
		for (int i = 0; i < s->nops; i++) {
			int nf;
			partial_fields(s->ops[i].kind, &nf);
			read_partial_state(t, col, &s->ops[i], &st[i]);
			col += (size_t)nf;
		}
	}
	table_close(t);
}

/* ---- final output ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The first column of op I's output: when it shows NAs, its column gets a
 * C_na count after the first numeric op using it. */
static void mark_na_columns(summary *s)
{
	size_t ng = strmap_count(s->groups);
	for (int i = 0; i < s->nops; i++) {
		op_t *op = &s->ops[i];
		op->show_na = false;
		if (!numeric_kind(op->kind))
			continue;
		bool first = true;
		for (int j = 0; j < i; j++)
			if (numeric_kind(s->ops[j].kind) && strcmp(s->ops[j].col, op->col) == 0)
				first = false;
		if (!first)
			continue;
		for (size_t g = 0; g < ng; g++)
			if (s->st[g * s->nops + i].acc.na > 0)
				op->show_na = true;
	}
}

static void write_header_for(const op_t *op, output *out)
{
	char b[512];
	switch (op->kind) {
	case OP_COUNT: output_field(out, "count"); break;
	case OP_Q:
		snprintf(b, sizeof b, "q%g_%s", op->p, op->col);
		output_field(out, b);
		break;
	case OP_RATE:
		snprintf(b, sizeof b, "rate_%s_%s", op->col, op->value);
		output_field(out, b);
		snprintf(b, sizeof b, "rate_%s_%s_lo", op->col, op->value);
		output_field(out, b);
		snprintf(b, sizeof b, "rate_%s_%s_hi", op->col, op->value);
		output_field(out, b);
		break;
	case OP_SCORE:
		snprintf(b, sizeof b, "score_%s", op->col);
		output_field(out, b);
		snprintf(b, sizeof b, "score_%s_lo", op->col);
		output_field(out, b);
		snprintf(b, sizeof b, "score_%s_hi", op->col);
		output_field(out, b);
		snprintf(b, sizeof b, "elo_%s", op->col);
		output_field(out, b);
		break;
	default:
		snprintf(b, sizeof b, "%s_%s", op_names[op->kind], op->col);
		output_field(out, b);
	}
	if (op->show_na) {
		snprintf(b, sizeof b, "%s_na", op->col);
		output_field(out, b);
	}
}

/* Writes op's value columns; with ONLY_MAIN just the first (crosstab). */
static void write_value(const summary *s, const op_t *op, state_t *x, output *out, bool only_main)
{
	const stats_acc *a = &x->acc;
	double lo, hi;
	switch (op->kind) {
	case OP_COUNT: output_int(out, a->n); break;
	case OP_SUM:
		if (a->exact) {
			char b[64];
			stats_format_fixed(a->isum, STATS_DECIMALS, b, sizeof b);
			output_field(out, b);
		} else {
			output_double(out, a->dsum);
		}
		break;
	case OP_MEAN: output_double(out, stats_mean(a)); break;
	case OP_MIN: output_double(out, a->n ? a->min : NAN); break;
	case OP_MAX: output_double(out, a->n ? a->max : NAN); break;
	case OP_SD: output_double(out, sqrt(stats_var(a))); break;
	case OP_VAR: output_double(out, stats_var(a)); break;
	case OP_MEDIAN:
	case OP_Q:
		qsort(x->vals, x->nv, sizeof *x->vals, cmp_double);
		output_double(out, stats_quantile(x->vals, x->nv, op->kind == OP_MEDIAN ? 0.5 : op->p));
		break;
	case OP_MODE: {
		int64_t best = 0;
		uint32_t bi = 0;
		size_t n = x->set ? strmap_count(x->set) : 0;
		for (uint32_t i = 0; i < n; i++)
			if (x->freq[i] > best)
				best = x->freq[i], bi = i;
		if (n)
			output_field(out, strmap_key(x->set, bi));
		else
			output_na(out);
		break;
	}
	case OP_DISTINCT: output_int(out, x->set ? (int64_t)strmap_count(x->set) : 0); break;
	case OP_FIRST:
	case OP_LAST:
		if (x->text)
			output_field(out, x->text);
		else
			output_na(out);
		break;
	case OP_RATE:
		output_double(out, x->n ? (double)x->k / (double)x->n : NAN);
		if (only_main)
			break;
		stats_wilson((double)x->k, (double)x->n, s->z, &lo, &hi);
		output_double(out, lo);
		output_double(out, hi);
		break;
	case OP_SCORE: {
		double sc = x->n ? (double)x->k / 2 / (double)x->n : NAN;
		output_double(out, sc);
		if (only_main)
			break;
		stats_wilson((double)x->k / 2, (double)x->n, s->z, &lo, &hi);
		output_double(out, lo);
		output_double(out, hi);
		output_double(out, x->n ? stats_elo(sc) : NAN);
		break;
	}
	}
	if (op->show_na && !only_main)
		output_int(out, a->na);
}

/* Key field I of group G (the key is the fields joined by 0x1F). */
static void key_field(const summary *s, uint32_t g, int i, const char **p, size_t *n)
{
	const char *k = strmap_key(s->groups, g);
	size_t len = strmap_key_len(s->groups, g);
	const char *end = k + len;
	for (int j = 0; j < i; j++)
		k = (const char *)memchr(k, '\x1F', (size_t)(end - k)) + 1;
	const char *sep = memchr(k, '\x1F', (size_t)(end - k));
	*p = k;
	*n = sep ? (size_t)(sep - k) : (size_t)(end - k);
}

static const summary *sort_s;
static int sort_field; /* -1: all fields */

static int cmp_text_num(const char *a, size_t an, const char *b, size_t bn)
{
	stats_num x, y;
	if (stats_parse(a, an, &x) == STATS_NUM && stats_parse(b, bn, &y) == STATS_NUM)
		return x.v < y.v ? -1 : x.v > y.v;
	size_t m = an < bn ? an : bn;
	int c = memcmp(a, b, m);
	return c ? c : (an > bn) - (an < bn);
}

static int cmp_groups(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int from = sort_field < 0 ? 0 : sort_field, to = sort_field < 0 ? sort_s->ngroup : sort_field + 1;
	for (int i = from; i < to; i++) {
		const char *x, *y;
		size_t xn, yn;
		key_field(sort_s, a, i, &x, &xn);
		key_field(sort_s, b, i, &y, &yn);
		int c = cmp_text_num(x, xn, y, yn);
		if (c)
			return c;
	}
	return (a > b) - (a < b); /* first seen among equals */
}

static uint32_t *group_order(const summary *s, int field)
{
	size_t n = strmap_count(s->groups);
	uint32_t *order = xmalloc((n ? n : 1) * sizeof *order);
	for (uint32_t g = 0; g < n; g++)
		order[g] = g;
	if (s->o.sort) {
		sort_s = s;
		sort_field = field;
		qsort(order, n, sizeof *order, cmp_groups);
	}
	return order;
}

static void write_crosstab(summary *s, output *out)
{
	/* Distinct row and column values, in first-seen (or sorted) order. */
	strmap *rows = strmap_new(), *cols = strmap_new();
	size_t ng = strmap_count(s->groups);
	uint32_t *order_r = group_order(s, 0), *order_c = group_order(s, 1);
	const char *p;
	size_t n;
	for (size_t i = 0; i < ng; i++) {
		key_field(s, order_r[i], 0, &p, &n);
		strmap_intern(rows, p, n, NULL);
		key_field(s, order_c[i], 1, &p, &n);
		strmap_intern(cols, p, n, NULL);
	}
	size_t nr = strmap_count(rows), nc = strmap_count(cols);
	size_t ncell = nr * nc;
	int64_t *cell = xmalloc((ncell ? ncell : 1) * sizeof *cell);
	for (size_t i = 0; i < nr * nc; i++)
		cell[i] = -1;
	for (uint32_t g = 0; g < ng; g++) {
		key_field(s, g, 0, &p, &n);
		int64_t r = strmap_find(rows, p, n);
		key_field(s, g, 1, &p, &n);
		int64_t c = strmap_find(cols, p, n);
		cell[(size_t)r * nc + (size_t)c] = g;
	}
	output_field(out, s->group[0]);
	for (uint32_t c = 0; c < nc; c++)
		output_field_n(out, strmap_key(cols, c), strmap_key_len(cols, c));
	output_end_row(out);
	for (uint32_t r = 0; r < nr; r++) {
		output_field_n(out, strmap_key(rows, r), strmap_key_len(rows, r));
		for (uint32_t c = 0; c < nc; c++) {
			int64_t g = cell[(size_t)r * nc + c];
			if (g < 0)
				output_na(out);
			else
				write_value(s, &s->ops[0], &s->st[(size_t)g * s->nops], out, true);
		}
		output_end_row(out);
	}
	free(cell);
	free(order_r);
	free(order_c);
	strmap_free(rows);
	strmap_free(cols);
}

void summary_write(summary *s, output *out)
{
	if (!s->configured)
		die("no partial tables to merge");
	static const char none[] = "";
	if (s->ngroup == 0 && strmap_count(s->groups) == 0)
		group_states(s, none, 0); /* one row even for an empty input */
	if (s->o.crosstab) {
		write_crosstab(s, out);
		return;
	}
	uint32_t *order = group_order(s, -1);
	size_t ng = strmap_count(s->groups);
	if (s->o.partial) {
		write_partial_header(s, out);
	} else {
		mark_na_columns(s);
		for (int i = 0; i < s->ngroup; i++)
			output_field(out, s->group[i]);
		for (int i = 0; i < s->nops; i++)
			write_header_for(&s->ops[i], out);
		output_end_row(out);
	}
	for (size_t k = 0; k < ng; k++) {
		uint32_t g = order[k];
		for (int i = 0; i < s->ngroup; i++) {
			const char *p;
			size_t n;
			key_field(s, g, i, &p, &n);
			output_field_n(out, p, n);
		}
		for (int i = 0; i < s->nops; i++) {
			state_t *x = &s->st[(size_t)g * s->nops + i];
			if (s->o.partial)
				write_partial_state(&s->ops[i], x, out);
			else
				write_value(s, &s->ops[i], x, out, false);
		}
		output_end_row(out);
	}
	free(order);
}

void summary_free(summary *s)
{
	if (!s)
		return;
	size_t ng = strmap_count(s->groups);
	for (size_t i = 0; i < ng * (size_t)s->nops; i++) {
		free(s->st[i].vals);
		strmap_free(s->st[i].set);
		free(s->st[i].freq);
		free(s->st[i].text);
	}
	for (int i = 0; i < s->nops; i++) {
		free(s->ops[i].spec);
		free(s->ops[i].col);
		free(s->ops[i].value);
		free(s->ops[i].win);
		free(s->ops[i].draw);
	}
	for (int i = 0; i < s->ngroup; i++)
		free(s->group[i]);
	free(s->group);
	free(s->ops);
	free(s->st);
	free(s->keybuf);
	free(s->gidx);
	free(s->first_partial);
	free((char *)s->partial_name);
	strmap_free(s->groups);
	free(s);
}
