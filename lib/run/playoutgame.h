/* playoutgame: the games `playout` plays, one runner each, chosen with
 * --game through the table in bin/playout.c (git's command table, sbase's
 * crypt_ops). bin/playout.c parses the options every game shares into
 * run_opts and hands each of a game's own options to its option hook by
 * name; an option only other games take is refused with their list.
 *
 * To add a game:
 *   1. lib/run/NAMErun.{c,h}: an options struct starting with run_opts,
 *      its own long options (val 0, has_arg as usual), the hooks below and
 *      `const playoutgame NAMErun_game`;
 *   2. a row `&NAMErun_game` in bin/playout.c's games[];
 *   3. its section in bin/playout.1, and tests/playout.bats. */
#ifndef YOMI_PLAYOUTGAME_H
#define YOMI_PLAYOUTGAME_H

#include <getopt.h>

#include "run/run.h"

typedef struct {
	const char *name;              /* --game NAME */
	const char *usage;             /* its section of --help */
	const struct option *options;  /* its own long options; ends with {0} */
	/* A new options struct (which starts with run_opts) with the game's
	 * defaults; run frees it. */
	run_opts *(*create)(void);
	/* Sets option NAME (one of the game's own) from ARG; dies with exit 2
	 * on a bad value. */
	void (*option)(run_opts *o, const char *name, const char *arg);
	/* Checks what the options exclude, then plays; the exit status. */
	int (*run)(run_opts *o);
} playoutgame;

#endif
