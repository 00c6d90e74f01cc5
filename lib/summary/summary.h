/* summary: one-pass group-by aggregation of a table (the engine behind
 * summarize): operations, grouping by hash, exact partial aggregates and
 * their merge, and the crosstab layout.
 *
 * To add an operation:
 *  - its row in op_defs (summary.c): name, flags (NUMERIC, MERGEABLE),
 *    the size of a group's state (a struct of its own, or one of another
 *    kind's) and functions, writing those no other operation has next to
 *    their kind (what a state holds is freed by its release function);
 *  - its usage line in bin/summarize.c and its entry in bin/summarize.1
 *    (and, if it cannot merge, the --partial text in both);
 *  - a test of its exact output in tests/summarize.bats. */
#ifndef YOMI_SUMMARY_H
#define YOMI_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/output.h"

typedef struct summary summary;

typedef struct {
	const char **group; /* column names; ngroup may be 0 */
	int ngroup;
	const char **ops;   /* operation specs as given, e.g. "mean:plies" */
	int nops;
	bool sort;          /* groups by key instead of first seen */
	double level;       /* interval level, e.g. 0.95 */
	bool partial;       /* write mergeable partial aggregates */
	bool crosstab;      /* group[0] x group[1] grid of ops[0] */
	bool quiet;         /* -q: no progress (core/progress.h) */
	int round;          /* --round: decimals of the values written (the
			     * caller sets its output's); -1: full precision */
	char delim;         /* --delimiter: the input's; 0: detected */
	const char *compare; /* --compare: the reference group's key, or NULL */
} summary_opts;

/* True if TEXT names an operation (so that it is not taken for a file). */
bool summary_is_op(const char *text);
/* Why TEXT is not a valid operation ("unknown operation" when its name is
 * none), or NULL when it is one. */
const char *summary_op_error(const char *text);
/* Checks the options (dies with exit 2 on unknown or unmergeable ops). */
summary *summary_new(const summary_opts *o);
/* Aggregates every row of the table at PATH. */
void summary_add_table(summary *s, const char *path);
/* Aggregates the rows in bytes [START, END) of the plain file PATH
 * (table_restrict), a range that starts where a record does. Returns
 * false when the range could not be read as one (it ended inside a
 * record; LAST: it ends the file, where that is the table's own end). */
bool summary_add_range(summary *s, const char *path, int64_t start, int64_t end, bool last);
/* Whether every sum is still exact (fixed point), so that summaries of
 * parts merge bit for bit into the one of the whole. */
bool summary_exact(const summary *s);
/* Whether absorbing W into S keeps every sum exact: both exact, and no
 * sum of a group's sums past 128 bits (where one thread, adding value by
 * value, would have gone inexact at another place). */
bool summary_absorbs_exactly(const summary *s, const summary *w);
/* Adds W, a summary of the rows that follow S's, made with the same
 * options: S becomes the summary of all of them, exactly, whatever the
 * operation (median, q, mode and distinct merge all their values). */
void summary_absorb(summary *s, const summary *w);
/* Merges a table written by --partial (the first one fixes the groups and
 * operations when the summary was made without any). */
void summary_merge_table(summary *s, const char *path);
void summary_write(summary *s, output *out);
void summary_free(summary *s);

#endif
