/* summarizerun: what summarize does: aggregate the tables (or merge the
 * partial tables) into one summary and write it. */
#ifndef YOMI_SUMMARIZERUN_H
#define YOMI_SUMMARIZERUN_H

#include <stdbool.h>

#include "run/run.h"
#include "summary/summary.h"

typedef struct {
	run_opts common;      /* out; files: the tables (none: stdin) */
	summary_opts summary; /* groups, operations and their options */
	bool merge;           /* --merge: the files are partial tables */
	int jobs;             /* -j: threads, 0 for the cores available */
} summarizerun_opts;

/* A plain file is read by -j threads, each aggregating the rows of one
 * byte range (cut where a record starts) into a summary of its own; they
 * are merged in file order (summary_absorb), so the output is the one of
 * a single thread, bit for bit. gzip and stdin are inflated (or read) by
 * a thread of their own while the main thread parses (input_set_prefetch);
 * files below 8 MB a thread (unless -j was given) and inexact sums are
 * read by one thread; so is a file with an error, which it then reports. */
int summarizerun_main(summarizerun_opts *o);
/* The cores this process may run on. */
int summarizerun_cores(void);

#endif
