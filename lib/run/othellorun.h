/* othrun: what `playout --game othello` does: random playouts and matches
 * (one row per game), flat Monte Carlo statistics per move, perft, and a
 * drawn game for people.
 *
 * Positions come from the standard start or from tables (FILE operands):
 * columns `board` and `turn`, or `moves` (played from the start), or all
 * three (the moves played from the board). Other columns are carried into
 * every output row after a `position` column (the row's number, from 1,
 * across all the tables).
 *
 * Streams: game i from position p draws from rng_stream(seed, p * 2^40 + i)
 * (p = 0: the standard start), and playout j after move m (square 0..63,
 * 64 = pass) of --per-move from stream p * 2^40 + m * 2^32 + j, so shards
 * (--first-game, -n) reproduce the unsplit run row for row. */
#ifndef YOMI_OTHELLORUN_H
#define YOMI_OTHELLORUN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/cli.h"
#include "othello/othelloplay.h"

typedef struct {
	uint64_t seed;
	int64_t first;     /* number of the first game or playout */
	int64_t games;     /* games per position (or playouts per move) */
	bool games_set;    /* -n given */
	bool moves;        /* --moves: add the move list */
	int64_t per_move;  /* --per-move N, or 0 */
	int perft;         /* --perft D, or 0 */
	bool show;         /* --show: draw one game */
	bool quiet;
	const char *black, *white; /* player specs, as given */
	othelloplay player[2];         /* parsed, by colour; freed by othellorun_main */
	cli_output out;
	char **files;
	int nfiles;
} othellorun_opts;

/* Limits of -n, --first-game and --per-move, so that streams stay apart. */
#define OTHELLORUN_MAX_GAMES ((int64_t)1 << 32)
#define OTHELLORUN_MAX_POSITIONS ((int64_t)1 << 23)
enum { OTHELLORUN_MAX_PERFT = 20 };

/* Runs the mode O asks for; returns the exit status. Dies on bad input. */
int othellorun_main(othellorun_opts *o);

#endif
