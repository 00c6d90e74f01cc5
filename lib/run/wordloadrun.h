/* wordloadrun: what wordload does: read word lists in their formats
 * through the rules into one lexicon, report what each rule dropped
 * (-v), and write the dictionary table. */
#ifndef YOMI_WORDLOADRUN_H
#define YOMI_WORDLOADRUN_H

#include <stdbool.h>

#include "run/run.h"
#include "words/lexicon.h"

typedef struct {
	run_opts common;              /* files: the word lists (none: stdin) */
	lexicon_opts lex;             /* the rules */
	const lexicon_source *source; /* --format; NULL: by each file's name */
	bool verbose, allow_empty;
} wordloadrun_opts;

int wordloadrun_main(wordloadrun_opts *o);

#endif
