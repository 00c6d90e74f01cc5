/* run: the shape every program has, and the options their runners share.
 *
 * A program is two files. bin/NAME.c holds the usage text and the option
 * table, parses argv into one NAMErun_opts (checking what options exclude
 * each other) and returns NAMErun_main(&opts). lib/run/NAMErun.c does the
 * work, so a unit test can run a program without a process. A runner's
 * options struct starts with the run_opts below; what only one program
 * takes follows it.
 *
 * To add a program: bin/NAME.c, bin/NAME.1, lib/run/NAMErun.{c,h},
 * tests/NAME.bats, its name in the Makefile's PROGRAMS and in README. */
#ifndef YOMI_RUN_H
#define YOMI_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/cli.h"

typedef struct {
	uint64_t seed;   /* --seed */
	int64_t first;   /* --first-game: the number of the first game */
	int64_t count;   /* -n: games (per position); see each program */
	bool count_set;  /* -n given */
	bool moves;      /* --moves: add the move list */
	bool show;       /* --show: draw one game for people */
	cli_output out;  /* -q, -o, -t, -z, --bom */
	char **files;    /* FILE operands */
	int nfiles;
} run_opts;

/* Limits of -n and --first-game, and of input positions, that keep the
 * streams of a run apart (rng_key). */
#define RUN_MAX_GAMES ((int64_t)1 << 32)
#define RUN_MAX_POSITIONS ((int64_t)1 << 23)

/* --show's drawing for people: to stdout as it is drawn, or with -o
 * FILE into FILE at the end (written as a table is: atomically, gzip if
 * asked). */
typedef struct {
	FILE *f;
	char *buf;
	size_t len;
} run_drawing;

FILE *run_drawing_open(run_drawing *d, const run_opts *o);
/* Finishes the drawing: flushes stdout, or writes FILE. */
void run_drawing_close(run_drawing *d, const run_opts *o);

#endif
