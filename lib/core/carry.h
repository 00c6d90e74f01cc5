/* carry: the columns of input tables that a program does not read, carried
 * into its output rows after a column numbering the input rows (from 1,
 * across all the tables), so results stay joined to what they came from.
 * Every table must have the same other columns as the first. */
#ifndef YOMI_CARRY_H
#define YOMI_CARRY_H

#include <stddef.h>

#include "core/output.h"
#include "core/table.h"

typedef struct {
	const char *label; /* the numbering column: "position", "deal" */
	char **names;      /* the carried columns, from the first table */
	size_t n;
	size_t *cols;      /* their indices in the current table */
	char **vals;       /* n values a row, row after row */
	size_t rows, cap;
} carry;

/* Starts table T, whose columns other than SKIP[0..NSKIP-1] (negative
 * entries ignored) are carried; dies if they differ from the first
 * table's. */
void carry_table(carry *c, const table *t, const int *skip, int nskip);
/* Keeps the current row's carried fields. */
void carry_row(carry *c, const table *t);
/* The whole header: C's label and carried names (none if C is NULL),
 * then the program's own COLS (NULL-terminated) that the rows go on with.
 * A carried name that the label, COLS or a carried column before it
 * already has gets the first free suffix _2, _3, ... (as summarize names
 * its columns), so that the header stays one name a column. */
void carry_header(const carry *c, output *out, const char *const *cols);
/* Row ROW's number (ROW + 1) and its values. */
void carry_write(const carry *c, size_t row, output *out);
void carry_free(carry *c);

#endif
