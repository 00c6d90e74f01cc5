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
} summarizerun_opts;

int summarizerun_main(summarizerun_opts *o);

#endif
