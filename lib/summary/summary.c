#include "summary/summary.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/progress.h"
#include "core/stats.h"
#include "core/strmap.h"
#include "core/table.h"
#include "core/util.h"

typedef struct op_def op_def;
typedef struct operation operation;
typedef struct cell cell;
typedef struct namelist namelist;

/* A value of a median or quantile with its group: all of an operation's
 * values in one array, sorted by group and value when first written, so
 * that a group costs nothing of its own. */
typedef struct {
	uint32_t g;
	double v;
} qvalue;

/* One operation as given, e.g. q:0.9:plies. */
struct operation {
	const op_def *def;
	char *spec, *col;         /* col NULL for count */
	int colidx;               /* col's index in the current table */
	double p;                 /* median, q */
	char *value, *win, *draw; /* rate value; score values */
	int nfields;              /* partial state columns */
	bool show_na;             /* first numeric op of its column with NAs */
	/* The groups' states, def->size bytes each, in group order: a group
	 * costs an operation only what its state needs (count: 8 bytes). */
	char *states;
	size_t cap; /* in states */
	qvalue *qv; /* median, q */
	size_t nq, cq;
	bool sorted;
	/* mode, distinct: (group, value) pairs, each with its count */
	strmap *pairs;
	int64_t *freq;
	size_t fcap;
};

/* The states, one struct per kind of operation. */
typedef struct {
	int64_t n;
} count_state;
typedef struct {
	int64_t na;
} quantile_state;
typedef struct {
	int64_t distinct, best_n; /* values, and the count of the mode */
	uint32_t best;            /* the mode's pair id */
} set_state;
typedef struct {
	int64_t n, k; /* rate: rows, matches; score: rows, 2 * wins + draws */
} tally_state;
typedef struct {
	char *text;
} text_state;

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
	MERGEABLE = 2, /* exact partial state: --partial writes it, --merge
			* reads it (the last three members of its row) */
	ZERO_EMPTY = 4 /* a crosstab cell without rows shows the value of no
			* rows (count: 0), not NA */
};

/* A row of the operation table: everything the engine knows of an
 * operation. */
struct op_def {
	const char *name;
	int flags;
	size_t size;            /* of a group's state, which starts all zero */
	void (*init)(void *x);  /* then this, if any */
	/* Reads what follows "NAME:" (NULL without a colon) into OP;
	 * returns why it is not valid, or NULL. */
	const char *(*parse)(operation *op, const char *arg);
	/* Takes one row's cell of group G (NULL for an operation without a
	 * column; a missing cell never comes, a numeric one comes parsed). */
	void (*add)(operation *op, void *x, uint32_t g, const cell *c);
	/* NUMERIC: the state's count of missing cells. */
	int64_t *(*na)(void *x);
	void (*header)(const operation *op, namelist *names);
	/* The value columns of group G; with MAIN_ONLY the first alone
	 * (crosstab). */
	void (*value)(const summary *s, operation *op, void *x, uint32_t g, output *out,
		      bool main_only);
	const char *const *fields; /* partial state columns, NULL-terminated */
	void (*write_state)(const operation *op, const void *x, output *out);
	/* Adds the state read at column COL of a partial row to X. */
	void (*read_state)(table *t, size_t col, const operation *op, void *x);
	void (*release)(void *x); /* frees what the state holds, if anything */
	/* Adds state Y of the same group in another summary, made from the
	 * rows after X's (summarize -j); what lives outside the states (the
	 * values of median, q, mode, distinct) is merged in summary_absorb. */
	void (*merge)(void *x, const void *y);
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
	char *keybuf;
	size_t keycap;
	int *gidx; /* group column indexes in the current table */
	char **first_partial; /* header of the first merged partial */
	size_t first_ncols;
	/* Recently seen group keys: most tables have few groups, and a cheap
	 * tag check finds them without hashing the whole key. */
	struct {
		uint64_t tag;
		uint32_t len, gid;
	} cache[64];
	const char *partial_name;
	progress pr; /* rows read */
	uint64_t rows;
	table *reading; /* the table being added, closed by summary_free */
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

static void add_count(operation *op, void *x, uint32_t g, const cell *c)
{
	(void)op, (void)g, (void)c;
	((count_state *)x)->n++;
}

static void init_num(void *x)
{
	stats_init(x);
}

static void add_num(operation *op, void *x, uint32_t g, const cell *c)
{
	(void)op, (void)g;
	stats_add(x, &c->num);
}

static int64_t *na_num(void *x)
{
	return &((stats_acc *)x)->na;
}

static void add_quantile(operation *op, void *x, uint32_t g, const cell *c)
{
	(void)x;
	util_grow((void **)&op->qv, &op->cq, op->nq + 1, sizeof *op->qv);
	op->qv[op->nq++] = (qvalue){g, c->num.v};
}

static int64_t *na_quantile(void *x)
{
	return &((quantile_state *)x)->na;
}

/* A value of group G as a key of op->pairs: the group id, then the text. */
static uint32_t intern_pair(operation *op, uint32_t g, const char *v, size_t n, bool *added)
{
	char small[64], *key = n + 4 <= sizeof small ? small : xmalloc(n + 4);
	memcpy(key, &g, 4);
	memcpy(key + 4, v, n);
	uint32_t id = strmap_intern(op->pairs, key, n + 4, added);
	if (key != small)
		free(key);
	return id;
}

/* Adds N to the count of pair ID (ADDED: new) of a group with state X. */
static void count_pair(operation *op, set_state *st, uint32_t id, bool added, int64_t n)
{
	if (id >= op->fcap) {
		size_t old = op->fcap;
		util_grow((void **)&op->freq, &op->fcap, id + 1, sizeof *op->freq);
		memset(op->freq + old, 0, (op->fcap - old) * sizeof *op->freq);
	}
	int64_t f = op->freq[id] += n;
	st->distinct += added;
	/* The mode: the most frequent value, the first seen of equals (pair
	 * ids grow in the order values are first seen). Counts only grow, so
	 * checking the pair whose count grew keeps it. */
	if (f > st->best_n || (f == st->best_n && id < st->best))
		st->best_n = f, st->best = id;
}

static void add_set(operation *op, void *x, uint32_t g, const cell *c)
{
	if (!op->pairs)
		op->pairs = strmap_new();
	bool added;
	uint32_t id = intern_pair(op, g, c->v, c->n, &added);
	count_pair(op, x, id, added, 1);
}

static void add_first(operation *op, void *x, uint32_t g, const cell *c)
{
	(void)op, (void)g;
	text_state *st = x;
	if (!st->text)
		st->text = xstrndup(c->v, c->n);
}

static void add_last(operation *op, void *x, uint32_t g, const cell *c)
{
	(void)op, (void)g;
	text_state *st = x;
	free(st->text);
	st->text = xstrndup(c->v, c->n);
}

static void release_text(void *x)
{
	free(((text_state *)x)->text);
}

static void add_rate(operation *op, void *x, uint32_t g, const cell *c)
{
	(void)g;
	tally_state *st = x;
	st->n++;
	st->k += strcmp(c->v, op->value) == 0;
}

static void add_score(operation *op, void *x, uint32_t g, const cell *c)
{
	(void)g;
	tally_state *st = x;
	st->n++;
	st->k += strcmp(c->v, op->win) == 0 ? 2 : strcmp(c->v, op->draw) == 0;
}

/* An output header being made: its names, made unique before writing. */
struct namelist {
	char **v;
	size_t n, cap;
};

/* Adds one header name, formatted (of any length). */
__attribute__((format(printf, 2, 3))) static void header_field(namelist *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *name = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(name, (size_t)n + 1, fmt, ap);
	va_end(ap);
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = name;
}

/* Writes the names as a header row, each name that an earlier column
 * already has given the first free suffix _2, _3, ...: a column's name
 * depends only on the command line and the columns before it, so
 * scripts can rely on it. Frees the names. */
static bool name_seen(const char *s, void *seen)
{
	return strmap_find(seen, s, strlen(s)) >= 0;
}

static void write_names(namelist *l, output *out)
{
	strmap *seen = strmap_new();
	for (size_t i = 0; i < l->n; i++) {
		bool added;
		strmap_intern(seen, l->v[i], strlen(l->v[i]), &added);
		if (!added) {
			char *alt = util_suffixed(l->v[i], name_seen, seen);
			strmap_intern(seen, alt, strlen(alt), &added);
			free(l->v[i]);
			l->v[i] = alt;
		}
		output_field(out, l->v[i]);
		free(l->v[i]);
	}
	output_end_row(out);
	strmap_free(seen);
	free(l->v);
	*l = (namelist){0};
}

static void header_name(const operation *op, namelist *l)
{
	header_field(l, "%s", op->def->name);
}

static void header_col(const operation *op, namelist *l)
{
	header_field(l, "%s_%s", op->def->name, op->col);
}

static void header_q(const operation *op, namelist *l)
{
	header_field(l, "q%g_%s", op->p, op->col);
}

static void header_rate(const operation *op, namelist *l)
{
	header_field(l, "rate_%s_%s", op->col, op->value);
	header_field(l, "rate_%s_%s_lo", op->col, op->value);
	header_field(l, "rate_%s_%s_hi", op->col, op->value);
}

static void header_score(const operation *op, namelist *l)
{
	header_field(l, "score_%s", op->col);
	header_field(l, "score_%s_lo", op->col);
	header_field(l, "score_%s_hi", op->col);
	header_field(l, "elo_%s", op->col);
}

#define VALUE_ARGS const summary *s, operation *op, void *x, uint32_t g, output *out, bool main_only
#define UNUSED_VALUE_ARGS (void)s, (void)op, (void)g, (void)main_only

static void value_count(VALUE_ARGS)
{
	UNUSED_VALUE_ARGS;
	output_int(out, ((count_state *)x)->n);
}

static void value_sum(VALUE_ARGS)
{
	UNUSED_VALUE_ARGS;
	const stats_acc *a = x;
	if (a->exact && s->o.round < 0) {
		char b[64];
		stats_format_fixed(a->isum, STATS_DECIMALS, b, sizeof b);
		output_field(out, b);
	} else {
		output_double(out, (double)stats_sum(a));
	}
}

static void value_mean(VALUE_ARGS)
{
	UNUSED_VALUE_ARGS;
	output_double(out, stats_mean(x));
}

static void value_min(VALUE_ARGS)
{
	UNUSED_VALUE_ARGS;
	const stats_acc *a = x;
	output_double(out, a->n ? a->min : NAN);
}

static void value_max(VALUE_ARGS)
{
	UNUSED_VALUE_ARGS;
	const stats_acc *a = x;
	output_double(out, a->n ? a->max : NAN);
}

static void value_sd(VALUE_ARGS)
{
	UNUSED_VALUE_ARGS;
	output_double(out, sqrt(stats_var(x)));
}

static void value_var(VALUE_ARGS)
{
	UNUSED_VALUE_ARGS;
	output_double(out, stats_var(x));
}

static int cmp_qvalue(const void *a, const void *b)
{
	const qvalue *x = a, *y = b;
	if (x->g != y->g)
		return x->g < y->g ? -1 : 1;
	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	/* A total order (-0 before 0), so that the sorted values do not
	 * depend on the order they came in: -j merges them in another. */
	return (y->v == 0 && signbit(y->v)) - (x->v == 0 && signbit(x->v));
}

static void value_quantile(VALUE_ARGS)
{
	UNUSED_VALUE_ARGS;
	(void)x;
	if (!op->sorted) {
		qsort(op->qv, op->nq, sizeof *op->qv, cmp_qvalue);
		op->sorted = true;
	}
	size_t lo = 0, hi = op->nq; /* the first value of group g */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (op->qv[mid].g < g)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t end = lo;
	while (end < op->nq && op->qv[end].g == g)
		end++;
	double *v = xmalloc((end - lo + 1) * sizeof *v);
	for (size_t i = lo; i < end; i++)
		v[i - lo] = op->qv[i].v;
	output_double(out, stats_quantile(v, end - lo, op->p));
	free(v);
}

static void value_mode(VALUE_ARGS)
{
	UNUSED_VALUE_ARGS;
	const set_state *st = x;
	if (st->best_n)
		output_field_n(out, strmap_key(op->pairs, st->best) + 4,
			       strmap_key_len(op->pairs, st->best) - 4);
	else
		output_na(out);
}

static void value_distinct(VALUE_ARGS)
{
	UNUSED_VALUE_ARGS;
	output_int(out, ((set_state *)x)->distinct);
}

static void value_text(VALUE_ARGS)
{
	UNUSED_VALUE_ARGS;
	const text_state *st = x;
	if (st->text)
		output_field(out, st->text);
	else
		output_na(out);
}

static void value_rate(VALUE_ARGS)
{
	UNUSED_VALUE_ARGS;
	const tally_state *st = x;
	output_double(out, st->n ? (double)st->k / (double)st->n : NAN);
	if (main_only)
		return;
	double lo, hi;
	stats_wilson((double)st->k, (double)st->n, s->z, &lo, &hi);
	output_double(out, lo);
	output_double(out, hi);
}

static void value_score(VALUE_ARGS)
{
	UNUSED_VALUE_ARGS;
	const tally_state *st = x;
	double sc = st->n ? (double)st->k / 2 / (double)st->n : NAN;
	output_double(out, sc);
	if (main_only)
		return;
	double lo, hi;
	stats_wilson((double)st->k / 2, (double)st->n, s->z, &lo, &hi);
	output_double(out, lo);
	output_double(out, hi);
	output_double(out, st->n ? stats_elo(sc) : NAN);
}

/* Partial state. A partial that cannot come from any data is refused, as
 * far as its fields can show it (a mean outside the minimum and maximum,
 * squares too small for the sum, a spread of one value), and merged
 * counts may not pass 2^63. */

static noreturn void __attribute__((format(printf, 3, 4)))
bad_partial(const table *t, size_t col, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	die_at(table_name(t), table_line(t), "column '%s': %s", table_colname(t, col), msg);
}

static int64_t need_count(table *t, size_t col)
{
	int64_t v;
	if (!util_parse_i64(table_field(t, col), 0, INT64_MAX, &v))
		bad_partial(t, col, "'%s' is not a count", table_field(t, col));
	return v;
}

/* *SUM += the count at COL. */
static void add_counted(table *t, size_t col, int64_t *sum)
{
	if (__builtin_add_overflow(*sum, need_count(t, col), sum))
		bad_partial(t, col, "the merged count passes 2^63 - 1");
}

/* A field that must be NA: the other mode's column. */
static void need_na(table *t, size_t col)
{
	stats_num x;
	if (stats_parse(table_field(t, col), table_field_len(t, col), &x) != STATS_MISSING)
		bad_partial(t, col, "expected NA (empty)");
}

/* A sum past the double range, as a long double to the digits that
 * read back the same (the partial's sumlo is then 0). */
static void output_wide(output *out, long double v)
{
	char b[64];
	snprintf(b, sizeof b, "%.*Lg", LDBL_DECIMAL_DIG, v);
	output_field(out, b);
}

/* A partial's sum: a number, past the double range too; Inf and -Inf as
 * partials of yomi before 2026-11-28 wrote a sum that overflowed. */
static long double need_sum(table *t, size_t col)
{
	const char *f = table_field(t, col);
	long double v;
	if (strcmp(f, "Inf") == 0 || strcmp(f, "-Inf") == 0)
		return f[0] == '-' ? -INFINITY : INFINITY;
	if (!stats_parse_wide(f, table_field_len(t, col), &v))
		bad_partial(t, col, "'%s' is not a number", f);
	return v;
}

/* A number; Inf and -Inf too where a floating sum may have overflowed. */
static double need_double(table *t, size_t col, bool inf)
{
	stats_num x;
	const char *f = table_field(t, col);
	if (inf && (strcmp(f, "Inf") == 0 || strcmp(f, "-Inf") == 0))
		return f[0] == '-' ? -INFINITY : INFINITY;
	if (stats_parse(f, table_field_len(t, col), &x) != STATS_NUM)
		bad_partial(t, col, "'%s' is not a number", f);
	return x.v;
}

static const char *const count_fields[] = {"n", NULL};

static void write_count(const operation *op, const void *x, output *out)
{
	(void)op;
	output_int(out, ((const count_state *)x)->n);
}

static void read_count(table *t, size_t col, const operation *op, void *x)
{
	(void)op;
	add_counted(t, col, &((count_state *)x)->n);
}

/* Exact: sum and sumsq as exact decimals, sumlo and m2 NA. Inexact: sum
 * and sumlo (the compensated sum as the rounded sum and what it rounded
 * away, so that a merge knows the mean to the last digit) and m2 (the sum
 * of the squared deviations from the mean) as doubles, sumsq NA. */
static const char *const num_fields[] = {"n",	   "na",  "sum", "sumlo", "sumsq",
					 "m2", "min", "max", "exact", NULL};
enum { NUM_N, NUM_NA, NUM_SUM, NUM_SUMLO, NUM_SUMSQ, NUM_M2, NUM_MIN, NUM_MAX, NUM_EXACT };

static void write_num(const operation *op, const void *x, output *out)
{
	(void)op;
	const stats_acc *a = x;
	output_int(out, a->n);
	output_int(out, a->na);
	if (a->exact) {
		char b[64];
		stats_format_fixed(a->isum, STATS_DECIMALS, b, sizeof b);
		output_field(out, b);
		output_na(out);
		stats_format_fixed(a->isumsq, 2 * STATS_DECIMALS, b, sizeof b);
		output_field(out, b);
		output_na(out);
	} else {
		long double sum = stats_sum(a);
		double hi = (double)sum;
		if (isinf(hi) && isfinite(sum))
			output_wide(out, sum);
		else
			output_double(out, hi);
		output_double(out, isfinite(hi) ? (double)((a->dsum - hi) + a->dcomp) : 0);
		output_na(out);
		output_double(out, stats_m2(a));
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

/* An exact row's sums into B. */
static void read_exact_sums(table *t, size_t col, stats_acc *b)
{
	if (!stats_parse_fixed(table_field(t, col + NUM_SUM), STATS_DECIMALS, &b->isum) ||
	    !stats_parse_fixed(table_field(t, col + NUM_SUMSQ), 2 * STATS_DECIMALS, &b->isumsq))
		die_at(table_name(t), table_line(t), "columns '%s', '%s': not exact sums",
		       table_colname(t, col + NUM_SUM), table_colname(t, col + NUM_SUMSQ));
	if (b->isumsq < 0)
		bad_partial(t, col + NUM_SUMSQ, "a sum of squares below 0");
	if (!b->n && (b->isum || b->isumsq))
		bad_partial(t, col + NUM_SUM, "a sum over no values");
	if (!stats_exact_possible(b))
		bad_partial(t, col + NUM_SUMSQ, "a sum of squares below the square of the sum over n");
	need_na(t, col + NUM_SUMLO);
	need_na(t, col + NUM_M2);
}

/* An inexact row's sum and spread into B. The sum is NA once sums of Inf
 * and -Inf met, and Inf only where the values could overflow it. */
static void read_inexact_sums(table *t, size_t col, stats_acc *b)
{
	need_na(t, col + NUM_SUMSQ);
	stats_num x;
	const char *f = table_field(t, col + NUM_SUM);
	bool na = stats_parse(f, table_field_len(t, col + NUM_SUM), &x) == STATS_MISSING && *f;
	long double sum = na ? NAN : need_sum(t, col + NUM_SUM);
	double lo = need_double(t, col + NUM_SUMLO, false), m2 = need_double(t, col + NUM_M2, true);
	if (!(m2 >= 0))
		bad_partial(t, col + NUM_M2, "a sum of squares below 0");
	if (!b->n && (na || sum || lo || m2))
		bad_partial(t, col + NUM_SUM, "a sum over no values");
	if (b->n == 1 && m2)
		bad_partial(t, col + NUM_M2, "a spread of one value");
	if (isfinite(sum) ? fabsl(lo) > fabsl(sum) * DBL_EPSILON : lo != 0)
		bad_partial(t, col + NUM_SUMLO, "more than the sum rounds away");
	stats_set_spread(b, sum, lo, m2);
}

/* Whether the row's mean lies within its minimum and maximum, as far as
 * a sum of doubles can be off (n roundings); an infinite sum only where
 * n values that size could reach it. A spread where every value is the
 * same is refused too. */
static void check_mean(table *t, size_t col, const stats_acc *b)
{
	long double sum = stats_sum(b), big = fmax(fabs(b->min), fabs(b->max)), n = (long double)b->n;
	if (b->min == b->max && stats_m2(b) != 0)
		bad_partial(t, col + (b->exact ? NUM_SUMSQ : NUM_M2), "a spread of equal values");
	if (isnan(sum))
		return;
	if (isinf(sum) ? n * big < DBL_MAX / 2
		       : sum / n < b->min - (n + 1) * DBL_EPSILON * big ||
				 sum / n > b->max + (n + 1) * DBL_EPSILON * big)
		bad_partial(t, col + NUM_SUM, "a sum whose mean lies outside the minimum and the maximum");
}

static void read_num(table *t, size_t col, const operation *op, void *x)
{
	(void)op;
	stats_acc *a = x, b;
	stats_init(&b);
	b.n = need_count(t, col);
	b.na = need_count(t, col + NUM_NA);
	const char *ex = table_field(t, col + NUM_EXACT);
	if (strcmp(ex, "1") != 0 && strcmp(ex, "0") != 0)
		bad_partial(t, col + NUM_EXACT, "expected 0 or 1");
	b.exact = ex[0] == '1';
	if (b.n) {
		b.min = need_double(t, col + NUM_MIN, false);
		b.max = need_double(t, col + NUM_MAX, false);
		if (b.min > b.max)
			bad_partial(t, col + NUM_MIN, "the minimum is above the maximum");
	}
	if (b.exact)
		read_exact_sums(t, col, &b);
	else
		read_inexact_sums(t, col, &b);
	if (b.n)
		check_mean(t, col, &b);
	int64_t n = a->n, na = a->na;
	if (__builtin_add_overflow(n, b.n, &n))
		bad_partial(t, col, "the merged count passes 2^63 - 1");
	if (__builtin_add_overflow(na, b.na, &na))
		bad_partial(t, col + NUM_NA, "the merged count passes 2^63 - 1");
	stats_merge(a, &b);
}

static const char *const tally_fields[] = {"n", "k", NULL};

static void write_tally(const operation *op, const void *x, output *out)
{
	(void)op;
	const tally_state *st = x;
	output_int(out, st->n);
	output_int(out, st->k);
}

/* Rows and matches (rate: at most one a row; score: two for a win). */
static void read_tally(table *t, size_t col, const operation *op, void *x)
{
	tally_state *st = x;
	int64_t n = need_count(t, col), k = need_count(t, col + 1);
	int per = op->def->add == add_score ? 2 : 1;
	if (k / per > n || (k / per == n && k % per))
		bad_partial(t, col + 1, "%lld counted in %lld rows", (long long)k, (long long)n);
	add_counted(t, col, &st->n);
	add_counted(t, col + 1, &st->k);
}

static const char *const text_fields[] = {"value", NULL};

static void write_text(const operation *op, const void *x, output *out)
{
	(void)op;
	const text_state *st = x;
	if (st->text)
		output_field(out, st->text);
	else
		output_na(out);
}

static void read_first(table *t, size_t col, const operation *op, void *x)
{
	(void)op;
	text_state *st = x;
	if (table_field_len(t, col) > 0 && !st->text)
		st->text = xstrdup(table_field(t, col));
}

static void read_last(table *t, size_t col, const operation *op, void *x)
{
	(void)op;
	text_state *st = x;
	if (table_field_len(t, col) > 0) {
		free(st->text);
		st->text = xstrdup(table_field(t, col));
	}
}

/* ---- merging states (summarize -j) ---- */

static void merge_count(void *x, const void *y)
{
	((count_state *)x)->n += ((const count_state *)y)->n;
}

static void merge_num(void *x, const void *y)
{
	stats_merge(x, y);
}

static void merge_quantile(void *x, const void *y)
{
	((quantile_state *)x)->na += ((const quantile_state *)y)->na;
}

static void merge_none(void *x, const void *y)
{
	(void)x, (void)y; /* mode, distinct: their pairs hold everything */
}

static void merge_tally(void *x, const void *y)
{
	tally_state *a = x;
	const tally_state *b = y;
	a->n += b->n;
	a->k += b->k;
}

static void merge_first(void *x, const void *y)
{
	text_state *a = x;
	const text_state *b = y;
	if (!a->text && b->text)
		a->text = xstrdup(b->text);
}

static void merge_last(void *x, const void *y)
{
	text_state *a = x;
	const text_state *b = y;
	if (b->text) {
		free(a->text);
		a->text = xstrdup(b->text);
	}
}

/* ---- the operation table ---- */

/* One row per operation. Their order is the order of the list of
 * mergeable operations in --partial's error message. */
#define NUM(name, value) \
	{name, NUMERIC | MERGEABLE, sizeof(stats_acc), init_num, parse_col, add_num, na_num, header_col, \
	 value, num_fields, write_num, read_num, NULL, merge_num}
static const op_def op_defs[] = {
	/* name, flags, state size and init, parse, add, na, header, value,
	 * partial state: fields, writer, reader (NULL unless MERGEABLE),
	 * release, merge */
	{"count", MERGEABLE | ZERO_EMPTY, sizeof(count_state), NULL, parse_none, add_count, NULL, header_name,
	 value_count, count_fields, write_count, read_count, NULL, merge_count},
	NUM("sum", value_sum),
	NUM("mean", value_mean),
	NUM("min", value_min),
	NUM("max", value_max),
	NUM("sd", value_sd),
	NUM("var", value_var),
	{"median", NUMERIC, sizeof(quantile_state), NULL, parse_median, add_quantile, na_quantile,
	 header_col, value_quantile, NULL, NULL, NULL, NULL, merge_quantile},
	{"q", NUMERIC, sizeof(quantile_state), NULL, parse_q, add_quantile, na_quantile, header_q,
	 value_quantile, NULL, NULL, NULL, NULL, merge_quantile},
	{"mode", 0, sizeof(set_state), NULL, parse_col, add_set, NULL, header_col, value_mode,
	 NULL, NULL, NULL, NULL, merge_none},
	{"distinct", 0, sizeof(set_state), NULL, parse_col, add_set, NULL, header_col, value_distinct,
	 NULL, NULL, NULL, NULL, merge_none},
	{"rate", MERGEABLE, sizeof(tally_state), NULL, parse_rate, add_rate, NULL, header_rate, value_rate,
	 tally_fields, write_tally, read_tally, NULL, merge_tally},
	{"score", MERGEABLE, sizeof(tally_state), NULL, parse_score, add_score, NULL, header_score,
	 value_score, tally_fields, write_tally, read_tally, NULL, merge_tally},
	{"first", MERGEABLE, sizeof(text_state), NULL, parse_col, add_first, NULL, header_col, value_text,
	 text_fields, write_text, read_first, release_text, merge_first},
	{"last", MERGEABLE, sizeof(text_state), NULL, parse_col, add_last, NULL, header_col, value_text,
	 text_fields, write_text, read_last, release_text, merge_last},
};
#undef NUM
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
		if (!d->parse || !d->add || !d->size || !d->header || !d->value || !d->merge ||
		    ((d->flags & NUMERIC) != 0) != (d->na != NULL) ||
		    ((d->flags & MERGEABLE) != 0) != state)
			die("internal error: operation '%s' is incomplete", d->name);
	}
}
#endif

static void op_free(operation *op, size_t ngroups)
{
	if (op->def && op->def->release)
		for (size_t g = 0; g < ngroups; g++)
			op->def->release(op->states + g * op->def->size);
	free(op->states);
	free(op->qv);
	strmap_free(op->pairs);
	free(op->freq);
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

const char *summary_op_error(const char *text)
{
	operation op;
	const char *why = parse_op(text, &op);
	op_free(&op, 0);
	return why;
}

bool summary_is_op(const char *text)
{
	return !summary_op_error(text);
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
		for (int j = 0; j < i; j++)
			if (strcmp(ops[j], ops[i]) == 0)
				die_usage("operation '%s' given twice", ops[i]);
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
	progress_start(&s->pr, o->quiet, "rows", 0);
	s->groups = strmap_new();
	if (o->crosstab && o->ngroup != 2)
		die_usage("--crosstab needs two columns, ROW,COL");
	if (o->crosstab && o->nops != 1)
		die_usage("--crosstab lays out exactly one operation");
	if (o->compare && (o->crosstab || o->partial))
		die_usage("--compare excludes --crosstab and --partial");
	if (o->compare && o->nops > 0 && o->ngroup != 1)
		die_usage("--compare needs exactly one group column (-g COL)");
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

static void *state_of(const operation *op, uint32_t g)
{
	return op->states + (size_t)g * op->def->size;
}

/* The id of the group with KEY, made (with fresh states) if new. */
static uint32_t group_id(summary *s, const char *key, size_t n)
{
	uint64_t tag = key_tag(key, n);
	size_t slot = (size_t)(tag >> 7) & 63;
	if (s->cache[slot].tag == tag && s->cache[slot].len == n &&
	    memcmp(strmap_key(s->groups, s->cache[slot].gid), key, n) == 0)
		return s->cache[slot].gid;
	bool added;
	uint32_t g = strmap_intern(s->groups, key, n, &added);
	s->cache[slot].tag = tag;
	s->cache[slot].len = (uint32_t)n;
	s->cache[slot].gid = g;
	if (added) {
		for (int i = 0; i < s->nops; i++) {
			operation *op = &s->ops[i];
			size_t old = op->cap;
			util_grow((void **)&op->states, &op->cap, (size_t)g + 1, op->def->size);
			memset(op->states + old * op->def->size, 0, (op->cap - old) * op->def->size);
			if (op->def->init)
				op->def->init(state_of(op, g));
		}
	}
	return g;
}

/* Field lengths in group keys: 7 bits a byte, low first, the high bit
 * set on all but the last byte. */
static size_t put_len(char *p, size_t n)
{
	size_t k = 0;
	do {
		p[k++] = (char)((n & 0x7F) | (n > 0x7F ? 0x80 : 0));
		n >>= 7;
	} while (n);
	return k;
}

static size_t get_len(const char *p, size_t *n)
{
	size_t k = 0, v = 0;
	int shift = 0;
	do {
		v |= (size_t)((unsigned char)p[k] & 0x7F) << shift;
		shift += 7;
	} while ((unsigned char)p[k++] & 0x80);
	*n = v;
	return k;
}

/* The group of the current row. With several group columns the key is
 * each field with its length before it, so that no value, whatever bytes
 * it holds, can run into the next. */
static uint32_t row_group(summary *s, table *t)
{
	if (s->ngroup == 1)
		return group_id(s, table_field(t, s->gidx[0]), table_field_len(t, s->gidx[0]));
	size_t len = 0;
	for (int i = 0; i < s->ngroup; i++)
		len += table_field_len(t, s->gidx[i]) + 10;
	util_grow((void **)&s->keybuf, &s->keycap, len + 1, 1);
	len = 0;
	for (int i = 0; i < s->ngroup; i++) {
		size_t fl = table_field_len(t, s->gidx[i]);
		len += put_len(s->keybuf + len, fl);
		memcpy(s->keybuf + len, table_field(t, s->gidx[i]), fl);
		len += fl;
	}
	return group_id(s, s->keybuf, len);
}

static uint32_t current_group(summary *s, table *t)
{
	static const char none[] = "";
	return s->ngroup ? row_group(s, t) : group_id(s, none, 0);
}

static bool missing(const char *v, size_t n)
{
	return n == 0 || (n == 2 && v[0] == 'N' && v[1] == 'A');
}

/* Opens PATH for adding, its columns found. */
static table *open_for_adding(summary *s, const char *path)
{
	table *t = table_open(path, &(table_opts){.delim = s->o.delim});
	s->reading = t;
	for (int i = 0; i < s->ngroup; i++)
		s->gidx[i] = table_need_col(t, s->group[i]);
	for (int i = 0; i < s->nops; i++)
		s->ops[i].colidx = s->ops[i].col ? table_need_col(t, s->ops[i].col) : -1;
	return t;
}

static void add_rows(summary *s, table *t)
{
	while (table_read_row(t)) {
		progress_tick(&s->pr, ++s->rows);
		uint32_t g = current_group(s, t);
		for (int i = 0; i < s->nops; i++) {
			operation *op = &s->ops[i];
			const op_def *d = op->def;
			void *x = state_of(op, g);
			if (op->colidx < 0) {
				d->add(op, x, g, NULL);
				continue;
			}
			cell c;
			c.v = table_field(t, (size_t)op->colidx);
			c.n = table_field_len(t, (size_t)op->colidx);
			if (d->flags & NUMERIC) {
				stats_kind k = stats_parse(c.v, c.n, &c.num);
				if (k == STATS_MISSING) {
					(*d->na(x))++;
					continue;
				}
				if (k == STATS_BAD)
					die_at(table_name(t), table_line(t), "column '%s': '%s' is not a number",
					       op->col, c.v);
			} else if (missing(c.v, c.n)) {
				continue;
			}
			d->add(op, x, g, &c);
		}
	}
}

static void done_adding(summary *s)
{
	table_close(s->reading);
	s->reading = NULL;
}

void summary_add_table(summary *s, const char *path)
{
	add_rows(s, open_for_adding(s, path));
	done_adding(s);
}

bool summary_add_range(summary *s, const char *path, int64_t start, int64_t end, bool last)
{
	table *t = open_for_adding(s, path);
	bool ok = table_restrict(t, start, end);
	if (ok) {
		add_rows(s, t);
		ok = last || table_range_clean(t);
	}
	done_adding(s);
	return ok;
}

bool summary_exact(const summary *s)
{
	size_t ng = strmap_count(s->groups);
	for (int i = 0; i < s->nops; i++) {
		const operation *op = &s->ops[i];
		if (op->def->merge != merge_num)
			continue;
		for (size_t g = 0; g < ng; g++)
			if (!((const stats_acc *)state_of(op, (uint32_t)g))->exact)
				return false;
	}
	return true;
}

/* The values of W's operation B into S's A, group ids through MAP. */
static void absorb_values(operation *a, const operation *b, const uint32_t *map)
{
	if (b->nq) {
		util_grow((void **)&a->qv, &a->cq, a->nq + b->nq, sizeof *a->qv);
		for (size_t i = 0; i < b->nq; i++)
			a->qv[a->nq++] = (qvalue){map[b->qv[i].g], b->qv[i].v};
		a->sorted = false;
	}
	if (!b->pairs)
		return;
	if (!a->pairs)
		a->pairs = strmap_new();
	/* Pairs in their first-seen order, so ids keep first-seen order. */
	for (uint32_t id = 0; id < strmap_count(b->pairs); id++) {
		const char *key = strmap_key(b->pairs, id);
		uint32_t g;
		memcpy(&g, key, 4);
		g = map[g];
		bool added;
		uint32_t nid = intern_pair(a, g, key + 4, strmap_key_len(b->pairs, id) - 4, &added);
		count_pair(a, state_of(a, g), nid, added, b->freq[id]);
	}
}

bool summary_absorbs_exactly(const summary *s, const summary *w)
{
	size_t ng = strmap_count(w->groups);
	for (int i = 0; i < s->nops; i++) {
		if (s->ops[i].def->merge != merge_num)
			continue;
		for (uint32_t g = 0; g < ng; g++) {
			int64_t h = strmap_find(s->groups, strmap_key(w->groups, g),
						strmap_key_len(w->groups, g));
			const stats_acc *b = state_of(&w->ops[i], g);
			if (h < 0 ? !b->exact
				  : !stats_merges_exactly(state_of(&s->ops[i], (uint32_t)h), b))
				return false;
		}
	}
	return true;
}

void summary_absorb(summary *s, const summary *w)
{
	size_t ng = strmap_count(w->groups);
	uint32_t *map = xmalloc((ng ? ng : 1) * sizeof *map);
	for (uint32_t g = 0; g < ng; g++)
		map[g] = group_id(s, strmap_key(w->groups, g), strmap_key_len(w->groups, g));
	s->rows += w->rows;
	for (int i = 0; i < s->nops; i++) {
		operation *a = &s->ops[i];
		const operation *b = &w->ops[i];
		for (uint32_t g = 0; g < ng; g++)
			a->def->merge(state_of(a, map[g]), state_of(b, g));
		absorb_values(a, b, map);
	}
	free(map);
}

/* ---- partial aggregates ---- */

/* Names in a partial's header: a group column's name, or an operation's
 * spec then '#' and its state field. A '#' inside a name or spec is
 * written twice, so the one single '#' tells the kinds apart. */
static void put_escaped(char *d, const char *s)
{
	for (; *s; s++) {
		*d++ = *s;
		if (*s == '#')
			*d++ = '#';
	}
	*d = '\0';
}

static void partial_name(output *out, const char *name, const char *field)
{
	char *e = xmalloc(2 * strlen(name) + (field ? strlen(field) + 2 : 1));
	put_escaped(e, name);
	if (field)
		strcat(strcat(e, "#"), field);
	output_field(out, e);
	free(e);
}

static void write_partial_header(const summary *s, output *out)
{
	for (int i = 0; i < s->ngroup; i++)
		partial_name(out, s->group[i], NULL);
	for (int i = 0; i < s->nops; i++)
		for (const char *const *f = s->ops[i].def->fields; *f; f++)
			partial_name(out, s->ops[i].spec, *f);
	output_end_row(out);
}

/* Splits a partial header name into the unescaped name and, after a
 * single '#', the field (NULL for a group column). */
static char *split_partial_name(const char *col, const char **field)
{
	char *name = xmalloc(strlen(col) + 1), *d = name;
	*field = NULL;
	for (const char *p = col; *p; p++) {
		if (*p == '#' && p[1] == '#') {
			*d++ = *p++;
		} else if (*p == '#') {
			*field = p + 1;
			break;
		} else {
			*d++ = *p;
		}
	}
	*d = '\0';
	return name;
}

static noreturn void __attribute__((format(printf, 3, 4)))
not_partial(const table *t, const char *path, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	die_at(path, table_header_line(t), "not a partial table: %s", msg);
}

/* Takes the groups and operations from the header of the first partial:
 * group columns, then SPEC#FIELD state columns, each operation's in its
 * order. A header that does not fit is bad data, not bad usage. */
static void configure_from_partial(summary *s, table *t, const char *path)
{
	if (s->configured)
		die_usage("--merge takes its operations from the partial tables, not the command line");
	size_t nc = table_ncols(t), col = 0;
	const char **group = xmalloc(nc * sizeof *group), **ops = xmalloc(nc * sizeof *ops);
	char **names = xcalloc(nc, sizeof *names);
	const char *field;
	int ng = 0, no = 0;
	for (; col < nc; col++) {
		names[col] = split_partial_name(table_colname(t, col), &field);
		if (field)
			break;
		group[ng++] = names[col];
	}
	if (col == nc)
		not_partial(t, path, "no OPERATION#FIELD columns");
	while (col < nc) {
		const char *spec = names[col];
		operation op;
		const char *why = parse_op(spec, &op);
		int nf = op.nfields;
		bool mergeable = op.def && (op.def->flags & MERGEABLE);
		const char *const *fields = op.def ? op.def->fields : NULL;
		op_free(&op, 0);
		if (why)
			not_partial(t, path, "'%s' is not an operation (%s)", spec, why);
		if (!mergeable)
			not_partial(t, path, "%s cannot have been merged", spec);
		for (int f = 0; f < nf; f++, col++) {
			if (col < nc && !names[col])
				names[col] = split_partial_name(table_colname(t, col), &field);
			if (col >= nc || !field || strcmp(names[col], spec) != 0 || strcmp(field, fields[f]) != 0)
				not_partial(t, path, "expected column '%s#%s' %s", spec, fields[f],
					    col < nc ? "here" : "at the end");
		}
		ops[no++] = spec;
		if (col < nc && !names[col])
			names[col] = split_partial_name(table_colname(t, col), &field);
		if (col < nc && !field)
			not_partial(t, path, "group column '%s' after the operations", names[col]);
	}
	configure(s, group, ng, ops, no);
	s->first_ncols = nc;
	s->first_partial = xmalloc(nc * sizeof *s->first_partial);
	for (size_t i = 0; i < nc; i++) {
		s->first_partial[i] = xstrdup(table_colname(t, i));
		free(names[i]);
	}
	free(names);
	free(group);
	free(ops);
	s->partial_name = xstrdup(path);
}

static bool same_header(const summary *s, const table *t)
{
	if (table_ncols(t) != s->first_ncols)
		return false;
	for (size_t i = 0; i < s->first_ncols; i++)
		if (strcmp(table_colname(t, i), s->first_partial[i]) != 0)
			return false;
	return true;
}

void summary_merge_table(summary *s, const char *path)
{
	table *t = table_open(path, &(table_opts){.delim = s->o.delim});
	if (!s->first_partial)
		configure_from_partial(s, t, path);
	else if (!same_header(s, t))
		die_at(path, table_header_line(t), "this partial was made with other groups or operations than %s",
		       s->partial_name);
	for (int i = 0; i < s->ngroup; i++)
		s->gidx[i] = i;
	while (table_read_row(t)) {
		progress_tick(&s->pr, ++s->rows);
		uint32_t g = current_group(s, t);
		size_t col = (size_t)s->ngroup;
		for (int i = 0; i < s->nops; i++) {
			s->ops[i].def->read_state(t, col, &s->ops[i], state_of(&s->ops[i], g));
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
		for (size_t g = 0; g < ng && !op->show_na; g++)
			if (*op->def->na(state_of(op, (uint32_t)g)) > 0)
				op->show_na = true;
	}
}

/* Whether --compare gives OP difference columns: the rates and scores. */
static bool compared(const summary *s, const operation *op)
{
	return s->o.compare && (op->def->add == add_rate || op->def->add == add_score);
}

static void op_names(const summary *s, const operation *op, namelist *l)
{
	op->def->header(op, l);
	if (op->show_na)
		header_field(l, "%s_na", op->col);
	if (!compared(s, op))
		return;
	const char *v = op->def->add == add_rate ? op->value : NULL;
	header_field(l, "diff_%s_%s%s%s", op->def->name, op->col, v ? "_" : "", v ? v : "");
	header_field(l, "diff_%s_%s%s%s_lo", op->def->name, op->col, v ? "_" : "", v ? v : "");
	header_field(l, "diff_%s_%s%s%s_hi", op->def->name, op->col, v ? "_" : "", v ? v : "");
}

/* --compare: group G's rate or score minus the reference group's, with
 * its interval; empty in the reference's own row. */
static void write_diff(const summary *s, operation *op, uint32_t g, uint32_t ref, output *out)
{
	const tally_state *a = state_of(op, g), *b = state_of(op, ref);
	/* A score's k counts half draws twice. */
	double scale = op->def->add == add_score ? 2 : 1, d, lo, hi;
	stats_rate_diff((double)a->k / scale, (double)a->n, (double)b->k / scale, (double)b->n, s->z, &d, &lo,
			&hi);
	if (g == ref)
		d = lo = hi = NAN;
	output_double(out, d);
	output_double(out, lo);
	output_double(out, hi);
}

/* Writes op's value columns for group G; with MAIN_ONLY just the first
 * (crosstab). */
static void write_value(const summary *s, operation *op, uint32_t g, output *out, bool main_only)
{
	void *x = state_of(op, g);
	op->def->value(s, op, x, g, out, main_only);
	if (op->show_na && !main_only)
		output_int(out, *op->def->na(x));
}

/* Key field I of group G. */
static void key_field(const summary *s, uint32_t g, int i, const char **p, size_t *n)
{
	const char *k = strmap_key(s->groups, g);
	if (s->ngroup <= 1) {
		*p = k;
		*n = strmap_key_len(s->groups, g);
		return;
	}
	for (int j = 0;; j++) {
		k += get_len(k, n);
		if (j == i)
			break;
		k += *n;
	}
	*p = k;
}

/* --sort's order, a total one: numbers first, by value (equal values by
 * their text), then everything else byte by byte. */
static int cmp_key(const char *a, size_t an, const char *b, size_t bn)
{
	stats_num x, y;
	bool xn = stats_parse(a, an, &x) == STATS_NUM, yn = stats_parse(b, bn, &y) == STATS_NUM;
	if (xn != yn)
		return xn ? -1 : 1;
	if (xn && x.v != y.v)
		return x.v < y.v ? -1 : 1;
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
		int c = cmp_key(x, xn, y, yn);
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

/* The value of OP over no rows, from a fresh state. */
static void write_empty_value(const summary *s, operation *op, output *out)
{
	void *x = xcalloc(1, op->def->size);
	if (op->def->init)
		op->def->init(x);
	op->def->value(s, op, x, UINT32_MAX, out, true);
	if (op->def->release)
		op->def->release(x);
	free(x);
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
	namelist names = {0};
	header_field(&names, "%s", s->group[0]);
	for (uint32_t c = 0; c < nc; c++)
		header_field(&names, "%.*s", (int)strmap_key_len(cols, c), strmap_key(cols, c));
	write_names(&names, out);
	for (uint32_t r = 0; r < nr; r++) {
		output_field_n(out, strmap_key(rows, r), strmap_key_len(rows, r));
		for (uint32_t c = 0; c < nc; c++) {
			int64_t g = cell[(size_t)r * nc + c];
			if (g < 0 && (s->ops[0].def->flags & ZERO_EMPTY))
				write_empty_value(s, &s->ops[0], out);
			else if (g < 0)
				output_na(out);
			else
				write_value(s, &s->ops[0], (uint32_t)g, out, true);
		}
		output_end_row(out);
	}
	free(cell);
	free(order_r);
	free(order_c);
	strmap_free(rows);
	strmap_free(cols);
}

/* The group --compare names (a key of one group column). */
static uint32_t compare_ref(summary *s)
{
	if (!s->o.compare)
		return 0;
	if (s->ngroup != 1)
		die_usage("--compare needs exactly one group column (-g COL)");
	int64_t g = strmap_find(s->groups, s->o.compare, strlen(s->o.compare));
	if (g < 0)
		die("--compare: no group '%s' in column '%s'", s->o.compare, s->group[0]);
	return (uint32_t)g;
}

void summary_write(summary *s, output *out)
{
	progress_end(&s->pr, s->rows);
	if (!s->configured)
		die("no partial tables to merge");
	static const char none[] = "";
	if (s->ngroup == 0 && strmap_count(s->groups) == 0)
		group_id(s, none, 0); /* one row even for an empty input */
	if (s->o.crosstab) {
		write_crosstab(s, out);
		return;
	}
	uint32_t *order = group_order(s, -1);
	size_t ng = strmap_count(s->groups);
	uint32_t ref = compare_ref(s);
	if (s->o.partial) {
		write_partial_header(s, out);
	} else {
		mark_na_columns(s);
		namelist names = {0};
		for (int i = 0; i < s->ngroup; i++)
			header_field(&names, "%s", s->group[i]);
		for (int i = 0; i < s->nops; i++)
			op_names(s, &s->ops[i], &names);
		write_names(&names, out);
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
			if (s->o.partial)
				s->ops[i].def->write_state(&s->ops[i], state_of(&s->ops[i], g), out);
			else
				write_value(s, &s->ops[i], g, out, false);
			if (!s->o.partial && compared(s, &s->ops[i]))
				write_diff(s, &s->ops[i], g, ref, out);
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
	for (int i = 0; i < s->nops; i++)
		op_free(&s->ops[i], ng);
	for (int i = 0; i < s->ngroup; i++)
		free(s->group[i]);
	for (size_t i = 0; s->first_partial && i < s->first_ncols; i++)
		free(s->first_partial[i]);
	free(s->first_partial);
	free(s->group);
	free(s->ops);
	free(s->keybuf);
	free(s->gidx);
	free((char *)s->partial_name);
	table_close(s->reading);
	strmap_free(s->groups);
	free(s);
}
