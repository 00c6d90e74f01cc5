#include "summary/summary.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/stats.h"
#include "core/strmap.h"
#include "core/table.h"
#include "core/util.h"

typedef struct op_def op_def;
typedef struct operation operation;
typedef struct opstate opstate;
typedef struct cell cell;

/* One operation as given, e.g. q:0.9:plies. */
struct operation {
	const op_def *def;
	char *spec, *col;         /* col NULL for count */
	int colidx;               /* col's index in the current table */
	double p;                 /* median, q */
	char *value, *win, *draw; /* rate value; score values */
	int nfields;              /* partial state columns */
	bool show_na;             /* first numeric op of its column with NAs */
};

/* One operation's state in one group. */
struct opstate {
	stats_acc acc; /* numeric ops; acc.n counts rows for count */
	int64_t n, k;  /* rate: rows, matches; score: rows, 2 * wins + draws */
	double *vals;  /* median, q */
	size_t nv, cv;
	strmap *set; /* mode, distinct: values seen */
	int64_t *freq;
	size_t fcap;
	char *text; /* first, last */
};

/* A cell as an operation's add sees it: its text, and for a numeric
 * operation its number. */
struct cell {
	const char *v; /* NUL-terminated */
	size_t n;
	stats_num num;
};

enum {
	NUMERIC = 1,  /* the engine parses the column's numbers into the
		       * state's acc: empty and NA cells are counted in C_na,
		       * other text is an error */
	MERGEABLE = 2 /* exact partial state: --partial writes it, --merge
		       * reads it (the last three members of its row) */
};

/* A row of the operation table: everything the engine knows of an
 * operation. */
struct op_def {
	const char *name;
	int flags;
	/* Reads what follows "NAME:" (NULL without a colon) into OP;
	 * returns why it is not valid, or NULL. */
	const char *(*parse)(operation *op, const char *arg);
	/* Takes one row's cell (NULL for an operation without a column; a
	 * missing cell never comes). NULL for a numeric operation that
	 * needs nothing but acc. */
	void (*add)(const operation *op, opstate *x, const cell *c);
	void (*header)(const operation *op, output *out);
	/* The value columns; with MAIN_ONLY the first alone (crosstab). */
	void (*value)(const summary *s, const operation *op, opstate *x, output *out,
		      bool main_only);
	const char *const *fields; /* partial state columns, NULL-terminated */
	void (*write_state)(const operation *op, const opstate *x, output *out);
	/* Adds the state read at column COL of a partial row to X. */
	void (*read_state)(table *t, size_t col, const operation *op, opstate *x);
};

struct summary {
	summary_opts o;
	char **group;
	int ngroup;
	operation *ops;
	int nops;
	double z;
	bool configured; /* groups and ops known */
	strmap *groups;
	opstate *st; /* ngroups * nops */
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

/* ---- the operations ---- */

static const char *parse_none(operation *op, const char *arg)
{
	static char why[64];
	if (!arg)
		return NULL;
	snprintf(why, sizeof why, "%s takes no column", op->def->name);
	return why;
}

static const char *parse_col(operation *op, const char *arg)
{
	if (!arg || !*arg)
		return "a column is missing";
	op->col = xstrdup(arg);
	return NULL;
}

static const char *parse_median(operation *op, const char *arg)
{
	op->p = 0.5;
	return parse_col(op, arg);
}

static const char *parse_q(operation *op, const char *arg)
{
	if (!arg || !*arg)
		return "a column is missing";
	const char *c2 = strchr(arg, ':');
	char *ps = c2 ? xstrndup(arg, (size_t)(c2 - arg)) : NULL;
	bool ok = ps && util_parse_double(ps, 0, 1, &op->p) && c2[1];
	free(ps);
	if (!ok)
		return "expected q:P:COLUMN with P from 0 to 1";
	op->col = xstrdup(c2 + 1);
	return NULL;
}

/* COLUMN=VALUE: the column into op->col; returns VALUE, or NULL. */
static const char *parse_equals(operation *op, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return NULL;
	op->col = xstrndup(arg, (size_t)(eq - arg));
	return eq + 1;
}

static const char *parse_rate(operation *op, const char *arg)
{
	if (!arg || !*arg)
		return "a column is missing";
	const char *v = parse_equals(op, arg);
	if (!v)
		return "expected rate:COLUMN=VALUE";
	op->value = xstrdup(v);
	return NULL;
}

static const char *parse_score(operation *op, const char *arg)
{
	if (!arg || !*arg)
		return "a column is missing";
	const char *v = parse_equals(op, arg);
	const char *slash = v ? strchr(v, '/') : NULL;
	if (!slash || slash == v)
		return "expected score:COLUMN=WIN/DRAW";
	op->win = xstrndup(v, (size_t)(slash - v));
	op->draw = xstrdup(slash + 1);
	return NULL;
}

static void add_count(const operation *op, opstate *x, const cell *c)
{
	(void)op, (void)c;
	x->acc.n++;
}

static void add_quantile(const operation *op, opstate *x, const cell *c)
{
	(void)op;
	util_grow((void **)&x->vals, &x->cv, x->nv + 1, sizeof *x->vals);
	x->vals[x->nv++] = c->num.v;
}

static void add_set(const operation *op, opstate *x, const cell *c)
{
	(void)op;
	if (!x->set)
		x->set = strmap_new();
	uint32_t id = strmap_intern(x->set, c->v, c->n, NULL);
	if (id >= x->fcap) {
		size_t old = x->fcap;
		util_grow((void **)&x->freq, &x->fcap, id + 1, sizeof *x->freq);
		memset(x->freq + old, 0, (x->fcap - old) * sizeof *x->freq);
	}
	x->freq[id]++;
}

static void add_first(const operation *op, opstate *x, const cell *c)
{
	(void)op;
	if (!x->text)
		x->text = xstrndup(c->v, c->n);
}

static void add_last(const operation *op, opstate *x, const cell *c)
{
	(void)op;
	free(x->text);
	x->text = xstrndup(c->v, c->n);
}

static void add_rate(const operation *op, opstate *x, const cell *c)
{
	x->n++;
	x->k += strcmp(c->v, op->value) == 0;
}

static void add_score(const operation *op, opstate *x, const cell *c)
{
	x->n++;
	x->k += strcmp(c->v, op->win) == 0 ? 2 : strcmp(c->v, op->draw) == 0;
}

/* One header column, formatted. */
__attribute__((format(printf, 2, 3))) static void header_field(output *out, const char *fmt, ...)
{
	char name[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(name, sizeof name, fmt, ap);
	va_end(ap);
	output_field(out, name);
}

static void header_name(const operation *op, output *out)
{
	output_field(out, op->def->name);
}

static void header_col(const operation *op, output *out)
{
	header_field(out, "%s_%s", op->def->name, op->col);
}

static void header_q(const operation *op, output *out)
{
	header_field(out, "q%g_%s", op->p, op->col);
}

static void header_rate(const operation *op, output *out)
{
	header_field(out, "rate_%s_%s", op->col, op->value);
	header_field(out, "rate_%s_%s_lo", op->col, op->value);
	header_field(out, "rate_%s_%s_hi", op->col, op->value);
}

static void header_score(const operation *op, output *out)
{
	header_field(out, "score_%s", op->col);
	header_field(out, "score_%s_lo", op->col);
	header_field(out, "score_%s_hi", op->col);
	header_field(out, "elo_%s", op->col);
}

static void value_count(const summary *s, const operation *op, opstate *x, output *out,
			bool main_only)
{
	(void)s, (void)op, (void)main_only;
	output_int(out, x->acc.n);
}

static void value_sum(const summary *s, const operation *op, opstate *x, output *out,
		      bool main_only)
{
	(void)s, (void)op, (void)main_only;
	if (x->acc.exact) {
		char b[64];
		stats_format_fixed(x->acc.isum, STATS_DECIMALS, b, sizeof b);
		output_field(out, b);
	} else {
		output_double(out, x->acc.dsum);
	}
}

static void value_mean(const summary *s, const operation *op, opstate *x, output *out,
		       bool main_only)
{
	(void)s, (void)op, (void)main_only;
	output_double(out, stats_mean(&x->acc));
}

static void value_min(const summary *s, const operation *op, opstate *x, output *out,
		      bool main_only)
{
	(void)s, (void)op, (void)main_only;
	output_double(out, x->acc.n ? x->acc.min : NAN);
}

static void value_max(const summary *s, const operation *op, opstate *x, output *out,
		      bool main_only)
{
	(void)s, (void)op, (void)main_only;
	output_double(out, x->acc.n ? x->acc.max : NAN);
}

static void value_sd(const summary *s, const operation *op, opstate *x, output *out,
		     bool main_only)
{
	(void)s, (void)op, (void)main_only;
	output_double(out, sqrt(stats_var(&x->acc)));
}

static void value_var(const summary *s, const operation *op, opstate *x, output *out,
		      bool main_only)
{
	(void)s, (void)op, (void)main_only;
	output_double(out, stats_var(&x->acc));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void value_quantile(const summary *s, const operation *op, opstate *x, output *out,
			   bool main_only)
{
	(void)s, (void)main_only;
	qsort(x->vals, x->nv, sizeof *x->vals, cmp_double);
	output_double(out, stats_quantile(x->vals, x->nv, op->p));
}

static void value_mode(const summary *s, const operation *op, opstate *x, output *out,
		       bool main_only)
{
	(void)s, (void)op, (void)main_only;
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
}

static void value_distinct(const summary *s, const operation *op, opstate *x, output *out,
			   bool main_only)
{
	(void)s, (void)op, (void)main_only;
	output_int(out, x->set ? (int64_t)strmap_count(x->set) : 0);
}

static void value_text(const summary *s, const operation *op, opstate *x, output *out,
		       bool main_only)
{
	(void)s, (void)op, (void)main_only;
	if (x->text)
		output_field(out, x->text);
	else
		output_na(out);
}

static void value_rate(const summary *s, const operation *op, opstate *x, output *out,
		       bool main_only)
{
	(void)op;
	output_double(out, x->n ? (double)x->k / (double)x->n : NAN);
	if (main_only)
		return;
	double lo, hi;
	stats_wilson((double)x->k, (double)x->n, s->z, &lo, &hi);
	output_double(out, lo);
	output_double(out, hi);
}

static void value_score(const summary *s, const operation *op, opstate *x, output *out,
			bool main_only)
{
	(void)op;
	double sc = x->n ? (double)x->k / 2 / (double)x->n : NAN;
	output_double(out, sc);
	if (main_only)
		return;
	double lo, hi;
	stats_wilson((double)x->k / 2, (double)x->n, s->z, &lo, &hi);
	output_double(out, lo);
	output_double(out, hi);
	output_double(out, x->n ? stats_elo(sc) : NAN);
}

/* Partial state. */

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

static const char *const count_fields[] = {"n", NULL};

static void write_count(const operation *op, const opstate *x, output *out)
{
	(void)op;
	output_int(out, x->acc.n);
}

static void read_count(table *t, size_t col, const operation *op, opstate *x)
{
	(void)op;
	x->acc.n += need_count(t, col);
}

static const char *const num_fields[] = {"n", "na", "sum", "sumsq", "min", "max", "exact", NULL};

static void write_num(const operation *op, const opstate *x, output *out)
{
	(void)op;
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
}

static void read_num(table *t, size_t col, const operation *op, opstate *x)
{
	(void)op;
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
}

static const char *const tally_fields[] = {"n", "k", NULL};

static void write_tally(const operation *op, const opstate *x, output *out)
{
	(void)op;
	output_int(out, x->n);
	output_int(out, x->k);
}

static void read_tally(table *t, size_t col, const operation *op, opstate *x)
{
	(void)op;
	x->n += need_count(t, col);
	x->k += need_count(t, col + 1);
}

static const char *const text_fields[] = {"value", NULL};

static void write_text(const operation *op, const opstate *x, output *out)
{
	(void)op;
	if (x->text)
		output_field(out, x->text);
	else
		output_na(out);
}

static void read_first(table *t, size_t col, const operation *op, opstate *x)
{
	(void)op;
	if (table_field_len(t, col) > 0 && !x->text)
		x->text = xstrdup(table_field(t, col));
}

static void read_last(table *t, size_t col, const operation *op, opstate *x)
{
	(void)op;
	if (table_field_len(t, col) > 0) {
		free(x->text);
		x->text = xstrdup(table_field(t, col));
	}
}

/* ---- the operation table ---- */

/* One row per operation. Their order is the order of the list of
 * mergeable operations in --partial's error message. */
static const op_def op_defs[] = {
	/* name, flags, parse, add, header, value,
	 * partial state: fields, writer, reader (NULL unless MERGEABLE) */
	{"count", MERGEABLE, parse_none, add_count, header_name, value_count,
	 count_fields, write_count, read_count},
	{"sum", NUMERIC | MERGEABLE, parse_col, NULL, header_col, value_sum,
	 num_fields, write_num, read_num},
	{"mean", NUMERIC | MERGEABLE, parse_col, NULL, header_col, value_mean,
	 num_fields, write_num, read_num},
	{"min", NUMERIC | MERGEABLE, parse_col, NULL, header_col, value_min,
	 num_fields, write_num, read_num},
	{"max", NUMERIC | MERGEABLE, parse_col, NULL, header_col, value_max,
	 num_fields, write_num, read_num},
	{"sd", NUMERIC | MERGEABLE, parse_col, NULL, header_col, value_sd,
	 num_fields, write_num, read_num},
	{"var", NUMERIC | MERGEABLE, parse_col, NULL, header_col, value_var,
	 num_fields, write_num, read_num},
	{"median", NUMERIC, parse_median, add_quantile, header_col, value_quantile,
	 NULL, NULL, NULL},
	{"q", NUMERIC, parse_q, add_quantile, header_q, value_quantile,
	 NULL, NULL, NULL},
	{"mode", 0, parse_col, add_set, header_col, value_mode,
	 NULL, NULL, NULL},
	{"distinct", 0, parse_col, add_set, header_col, value_distinct,
	 NULL, NULL, NULL},
	{"rate", MERGEABLE, parse_rate, add_rate, header_rate, value_rate,
	 tally_fields, write_tally, read_tally},
	{"score", MERGEABLE, parse_score, add_score, header_score, value_score,
	 tally_fields, write_tally, read_tally},
	{"first", MERGEABLE, parse_col, add_first, header_col, value_text,
	 text_fields, write_text, read_first},
	{"last", MERGEABLE, parse_col, add_last, header_col, value_text,
	 text_fields, write_text, read_last},
};
#define NDEFS (sizeof op_defs / sizeof op_defs[0])

/* ---- the engine ---- */

static const op_def *find_def(const char *name, size_t n)
{
	for (size_t k = 0; k < NDEFS; k++)
		if (strlen(op_defs[k].name) == n && strncmp(op_defs[k].name, name, n) == 0)
			return &op_defs[k];
	return NULL;
}

/* "count, sum, ...": the operations --partial takes. */
static const char *mergeable_list(void)
{
	static char list[512];
	size_t len = 0;
	for (size_t k = 0; k < NDEFS && len < sizeof list; k++)
		if (op_defs[k].flags & MERGEABLE)
			len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", len ? ", " : "",
						op_defs[k].name);
	return list;
}

#ifdef YOMI_DEBUG
/* Dies if a row of the table lacks what its flags promise. */
static void check_defs(void)
{
	for (size_t k = 0; k < NDEFS; k++) {
		const op_def *d = &op_defs[k];
		bool state = d->fields && d->write_state && d->read_state;
		if (!d->parse || !(d->add || (d->flags & NUMERIC)) || !d->header || !d->value ||
		    ((d->flags & MERGEABLE) != 0) != state)
			die("internal error: operation '%s' is incomplete", d->name);
	}
}
#endif

static void op_free(operation *op)
{
	free(op->spec);
	free(op->col);
	free(op->value);
	free(op->win);
	free(op->draw);
}

/* Parses SPEC into *op; returns why it is not valid, or NULL. */
static const char *parse_op(const char *spec, operation *op)
{
	memset(op, 0, sizeof *op);
	op->spec = xstrdup(spec);
	const char *colon = strchr(spec, ':');
	op->def = find_def(spec, colon ? (size_t)(colon - spec) : strlen(spec));
	if (!op->def)
		return "unknown operation";
	for (const char *const *f = op->def->fields; f && *f; f++)
		op->nfields++;
	return op->def->parse(op, colon ? colon + 1 : NULL);
}

bool summary_is_op(const char *text)
{
	operation op;
	bool ok = !parse_op(text, &op);
	op_free(&op);
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
		const char *why = parse_op(ops[i], &s->ops[i]);
		if (why)
			die_usage("invalid operation '%s': %s", ops[i], why);
		if (s->o.partial && !(s->ops[i].def->flags & MERGEABLE))
			die_usage("%s cannot be merged exactly, so --partial refuses it (mergeable: %s)",
				  ops[i], mergeable_list());
	}
	s->gidx = xmalloc((size_t)(ngroup ? ngroup : 1) * sizeof *s->gidx);
	s->configured = true;
}

summary *summary_new(const summary_opts *o)
{
#ifdef YOMI_DEBUG
	check_defs();
#endif
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

static opstate *group_states(summary *s, const char *key, size_t n)
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
static opstate *row_states(summary *s, table *t)
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

static bool missing(const char *v, size_t n)
{
	return n == 0 || (n == 2 && v[0] == 'N' && v[1] == 'A');
}

void summary_add_table(summary *s, const char *path)
{
	table *t = table_open(path, NULL);
	for (int i = 0; i < s->ngroup; i++)
		s->gidx[i] = table_need_col(t, s->group[i]);
	for (int i = 0; i < s->nops; i++)
		s->ops[i].colidx = s->ops[i].col ? table_need_col(t, s->ops[i].col) : -1;
	static const char none[] = "";
	while (table_read_row(t)) {
		opstate *st = s->ngroup ? row_states(s, t) : group_states(s, none, 0);
		for (int i = 0; i < s->nops; i++) {
			const operation *op = &s->ops[i];
			const op_def *d = op->def;
			if (op->colidx < 0) {
				d->add(op, &st[i], NULL);
				continue;
			}
			cell c;
			c.v = table_field(t, (size_t)op->colidx);
			c.n = table_field_len(t, (size_t)op->colidx);
			if (d->flags & NUMERIC) {
				stats_kind k = stats_parse(c.v, c.n, &c.num);
				if (k == STATS_MISSING) {
					st[i].acc.na++;
					continue;
				}
				if (k == STATS_BAD)
					die_at(table_name(t), table_line(t), "column '%s': '%s' is not a number",
					       op->col, c.v);
				stats_add(&st[i].acc, &c.num);
				if (!d->add)
					continue;
			} else if (missing(c.v, c.n)) {
				continue;
			}
			d->add(op, &st[i], &c);
		}
	}
	table_close(t);
}

/* ---- partial aggregates ---- */

static void write_partial_header(const summary *s, output *out)
{
	for (int i = 0; i < s->ngroup; i++)
		output_field(out, s->group[i]);
	for (int i = 0; i < s->nops; i++)
		for (const char *const *f = s->ops[i].def->fields; *f; f++)
			header_field(out, "%s#%s", s->ops[i].spec, *f);
	output_end_row(out);
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
		for (const char *const *f = s->ops[i].def->fields; *f; f++, col++) {
			char want[512];
			snprintf(want, sizeof want, "%s#%s", s->ops[i].spec, *f);
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
		opstate *st = s->ngroup ? row_states(s, t) : group_states(s, none, 0);
		size_t col = (size_t)s->ngroup;
		for (int i = 0; i < s->nops; i++) {
			s->ops[i].def->read_state(t, col, &s->ops[i], &st[i]);
			col += (size_t)s->ops[i].nfields;
		}
	}
	table_close(t);
}

/* ---- final output ---- */

/* The first column of op I's output: when it shows NAs, its column gets a
 * C_na count after the first numeric op using it. */
static void mark_na_columns(summary *s)
{
	size_t ng = strmap_count(s->groups);
	for (int i = 0; i < s->nops; i++) {
		operation *op = &s->ops[i];
		op->show_na = false;
		if (!(op->def->flags & NUMERIC))
			continue;
		bool first = true;
		for (int j = 0; j < i; j++)
			if ((s->ops[j].def->flags & NUMERIC) && strcmp(s->ops[j].col, op->col) == 0)
				first = false;
		if (!first)
			continue;
		for (size_t g = 0; g < ng; g++)
			if (s->st[g * s->nops + i].acc.na > 0)
				op->show_na = true;
	}
}

static void write_header(const operation *op, output *out)
{
	op->def->header(op, out);
	if (op->show_na)
		header_field(out, "%s_na", op->col);
}

/* Writes op's value columns; with MAIN_ONLY just the first (crosstab). */
static void write_value(const summary *s, const operation *op, opstate *x, output *out,
			bool main_only)
{
	op->def->value(s, op, x, out, main_only);
	if (op->show_na && !main_only)
		output_int(out, x->acc.na);
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

static int cmp_text_num(const char *a, size_t an, const char *b, size_t bn)
{
	stats_num x, y;
	if (stats_parse(a, an, &x) == STATS_NUM && stats_parse(b, bn, &y) == STATS_NUM)
		return x.v < y.v ? -1 : x.v > y.v;
	size_t m = an < bn ? an : bn;
	int c = memcmp(a, b, m);
	return c ? c : (an > bn) - (an < bn);
}

/* What cmp_groups compares: key field FIELD of the groups of S, or all
 * fields when FIELD is -1. */
typedef struct {
	const summary *s;
	int field;
} group_sort;

static int cmp_groups(const void *pa, const void *pb, void *arg)
{
	const group_sort *gs = arg;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int from = gs->field < 0 ? 0 : gs->field, to = gs->field < 0 ? gs->s->ngroup : gs->field + 1;
	for (int i = from; i < to; i++) {
		const char *x, *y;
		size_t xn, yn;
		key_field(gs->s, a, i, &x, &xn);
		key_field(gs->s, b, i, &y, &yn);
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
		group_sort gs = {s, field};
		qsort_r(order, n, sizeof *order, cmp_groups, &gs);
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
			write_header(&s->ops[i], out);
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
			opstate *x = &s->st[(size_t)g * s->nops + i];
			if (s->o.partial)
				s->ops[i].def->write_state(&s->ops[i], x, out);
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
	for (int i = 0; i < s->nops; i++)
		op_free(&s->ops[i]);
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
