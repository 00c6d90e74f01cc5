/* othellorun: what `playout --game othello` does: random playouts and
 * matches (one row per game), flat Monte Carlo statistics per move, perft,
 * exact endgame scores (--solve, --solve-all), and a drawn game for
 * people.
 *
 * Positions come from the standard start or from tables (FILE operands):
 * columns `board` and `turn`, or `moves` (played from the start), or all
 * three (the moves played from the board). Other columns are carried into
 * every output row after a `position` column (the row's number, from 1,
 * across all the tables).
 *
 * Streams: game i from position p draws from rng_key(p, 0, i) (p = 0: the
 * standard start), and playout j after move m (square 0..63, 64 = pass)
 * of --per-move from rng_key(p, m, j), so shards (--first-game, -n)
 * reproduce the unsplit run row for row. */
#ifndef YOMI_OTHELLORUN_H
#define YOMI_OTHELLORUN_H

#include <stdbool.h>
#include <stdint.h>

#include "othello/othelloplay.h"
#include "run/playoutgame.h"

typedef struct {
	run_opts common;            /* count: games per position */
	int64_t per_move;           /* --per-move N, or 0 */
	int perft;                  /* --perft D, or 0 */
	size_t hash;                /* --hash SIZE in bytes, or 0 */
	int solve;                  /* 1: --solve, 2: --solve-all, or 0 */
	int max_empties;            /* --max-empties */
	bool max_empties_set;
	bool mcts_set;              /* --ucb or --threshold given */
	bool both_sides;            /* --both-sides: even games swap the players */
	bool compact;               /* --notation compact: moves without spaces */
	const char *black, *white;  /* player specs, as given */
	othelloplay player[2];      /* parsed, by colour */
	double ucb;                 /* mcts settings of both players */
	uint32_t threshold;
} othellorun_opts;

enum { OTHELLORUN_MAX_PERFT = 20 };
/* The solver's table for --solve: 2^21 positions, 64 MB. */
enum { OTHELLORUN_SOLVER_BITS = 21 };

extern const playoutgame othellorun_game;

#endif
