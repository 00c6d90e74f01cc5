#include "core/carry.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

static bool skipped(size_t col, const int *skip, int nskip)
{
	for (int i = 0; i < nskip; i++)
		if (skip[i] >= 0 && (size_t)skip[i] == col)
			return true;
	return false;
}

void carry_table(carry *c, const table *t, const int *skip, int nskip)
{
	size_t nc = table_ncols(t), n = 0;
	c->cols = xrealloc(c->cols, (nc + 1) * sizeof *c->cols);
	for (size_t i = 0; i < nc; i++)
		if (!skipped(i, skip, nskip))
			c->cols[n++] = i;
	if (!c->names) {
		c->n = n;
		c->names = xmalloc((n + 1) * sizeof *c->names);
		for (size_t i = 0; i < n; i++)
			c->names[i] = xstrdup(table_colname(t, c->cols[i]));
		return;
	}
	bool same = n == c->n;
	for (size_t i = 0; same && i < n; i++)
		same = !strcmp(table_colname(t, c->cols[i]), c->names[i]);
	if (!same)
		die_at(table_name(t), table_header_line(t), "its other columns differ from the first table's");
}

void carry_row(carry *c, const table *t)
{
	util_grow((void **)&c->vals, &c->cap, (c->rows + 1) * c->n, sizeof *c->vals);
	for (size_t i = 0; i < c->n; i++)
		c->vals[c->rows * c->n + i] = xstrdup(table_field(t, c->cols[i]));
	c->rows++;
}

/* The header so far, for util_suffixed. */
typedef struct {
	const carry *c;
	const char *const *after;
	char **head;
	size_t n;
} carry_names;

/* Whether NAME is the label, one of AFTER, one of the first N of HEAD
 * (the carried names as written so far) or, with ORIGINALS, any carried
 * name as it came. */
static bool carry_taken(const carry *c, const char *name, const char *const *after, char **head,
			size_t n, bool originals)
{
	if (!strcmp(name, c->label))
		return true;
	for (size_t i = 0; after[i]; i++)
		if (!strcmp(name, after[i]))
			return true;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, head[i]))
			return true;
	for (size_t i = 0; originals && i < c->n; i++)
		if (!strcmp(name, c->names[i]))
			return true;
	return false;
}

/* A suffixed name must not be any name carried either. */
static bool suffix_taken(const char *s, void *ctx)
{
	const carry_names *h = ctx;
	return carry_taken(h->c, s, h->after, h->head, h->n, true);
}

/* The label and the names, into the header, before the columns AFTER. */
static void carry_head(const carry *c, output *out, const char *const *after)
{
	char **head = xmalloc((c->n + 1) * sizeof *head);
	output_field(out, c->label);
	for (size_t i = 0; i < c->n; i++) {
		const char *name = c->names[i];
		/* An empty name (tables allow several) is left as it is. */
		if (!*name || !carry_taken(c, name, after, head, i, false))
			head[i] = xstrdup(name);
		else
			head[i] = util_suffixed(name, suffix_taken, &(carry_names){c, after, head, i});
		output_field(out, head[i]);
	}
	for (size_t i = 0; i < c->n; i++)
		free(head[i]);
	free(head);
}

void carry_header(const carry *c, output *out, const char *const *cols)
{
	if (c)
		carry_head(c, out, cols);
	for (size_t k = 0; cols[k]; k++)
		output_field(out, cols[k]);
	output_end_row(out);
}

void carry_write(const carry *c, size_t row, output *out)
{
	output_int(out, (int64_t)row + 1);
	for (size_t i = 0; i < c->n; i++)
		output_field(out, c->vals[row * c->n + i]);
}

void carry_free(carry *c)
{
	for (size_t i = 0; i < c->rows * c->n; i++)
		free(c->vals[i]);
	for (size_t i = 0; i < c->n; i++)
		free(c->names[i]);
	free(c->vals);
	free(c->names);
	free(c->cols);
	*c = (carry){.label = c->label};
}
