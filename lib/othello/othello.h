/* othello: bitboard rules of Othello, positions and moves as text, perft
 * and uniformly random playouts.
 *
 * Squares: a1 = bit 0, b1 = bit 1, ..., h1 = bit 7, a2 = bit 8, ..., h8 =
 * bit 63, so the 64-character board text (a1..h8 row by row) reads in bit
 * order. A position keeps the discs of the side to move (me) and of the
 * other side (opp), which makes playing a move a few operations and a swap.
 *
 * Rules: a move puts a disc on an empty square that brackets at least one
 * straight line of opponent discs, which are flipped. A side with no such
 * square must pass; the game ends when neither side can move. Black moves
 * first from the standard start (white d4 e5, black d5 e4). */
#ifndef YOMI_OTHELLO_H
#define YOMI_OTHELLO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/rng.h"

enum { OTHELLO_BLACK = 0, OTHELLO_WHITE = 1 };
/* Move codes: squares 0..63, then a pass. */
enum { OTHELLO_PASS = 64, OTHELLO_NMOVES = 65 };
/* A game has at most 60 moves, and a pass is always followed by a move
 * (two passes in a row end the game), so 120 plies bound every game. */
enum { OTHELLO_MAX_PLIES = 120 };

typedef struct {
	uint64_t me, opp; /* discs of the side to move, of the other side */
	int turn;         /* the side to move: OTHELLO_BLACK or OTHELLO_WHITE */
} othello_pos;

void othello_start(othello_pos *p);
uint64_t othello_black(const othello_pos *p);
uint64_t othello_white(const othello_pos *p);

/* Squares where the side owning ME may move. */
uint64_t othello_moves(uint64_t me, uint64_t opp);
/* The legal moves of P as move codes, a lone pass when it has none;
 * returns how many (at most 64: never more moves than empty squares). */
int othello_move_list(const othello_pos *p, int moves[64]);
/* Discs flipped when the side owning ME plays SQ (0 if SQ is no move). */
uint64_t othello_flips(uint64_t me, uint64_t opp, int sq);
/* Whether MOVE (a square or OTHELLO_PASS) is legal: a pass only when the
 * side to move has no move and the game is not over. */
bool othello_legal(const othello_pos *p, int move);
/* Plays a legal MOVE. */
void othello_play(othello_pos *p, int move);
bool othello_over(const othello_pos *p);

/* Parses a 64-character board (X, O, and - or . for empty) and the side
 * to move ("X" or "black", "O" or "white"), or Edax's form: the board with
 * X or O appended (after a space or not), TURN then NULL, empty or the
 * same side. Returns NULL, or a message saying what is wrong. Boards
 * whose centre squares are empty are refused as impossible: the four
 * start discs are never removed. */
const char *othello_parse(const char *board, const char *turn, othello_pos *p);
/* The board as 64 characters and a NUL. */
void othello_format(const othello_pos *p, char out[65]);
/* "a1".."h8" (or "A1".."H8") or "pass" (any case) to a move code; -1 if S
 * (length N) is neither. */
int othello_parse_move(const char *s, unsigned n);
/* The move's name ("d3", "pass") into OUT; returns OUT. */
const char *othello_move_name(int move, char out[5]);

/* Leaves of the game tree at DEPTH plies (>= 1): a pass is one ply and a
 * finished game is one leaf at every greater depth. */
uint64_t othello_perft(const othello_pos *p, int depth);

/* A transposition table for perft: the leaves below a position (the
 * discs of the side to move and of the other side, which also tells the
 * side to move) at a remaining depth, kept in buckets of two, one kept by
 * depth and one always replaced. */
typedef struct othello_perft_table othello_perft_table;
/* A table of at most BYTES bytes (at least 4 KB; a power of two of
 * 64-byte buckets). */
othello_perft_table *othello_perft_table_new(size_t bytes);
void othello_perft_table_free(othello_perft_table *t);
/* othello_perft's count, through T (kept across calls: an entry is exact
 * whatever depth the call that made it had). */
uint64_t othello_perft_hashed(const othello_pos *p, int depth, othello_perft_table *t);

typedef struct {
	othello_pos end;                     /* the final position */
	int plies;                           /* moves and passes played */
	uint8_t moves[OTHELLO_MAX_PLIES];    /* filled only when asked */
} othello_game;

/* Plays uniformly random legal moves from START to the end of the game:
 * the K-th (from 0, in square order) of N moves, K drawn by
 * rng_draw_below(N); a forced pass draws nothing.
 * Records the moves into G->moves when RECORD; the first ply is always
 * kept in G->moves[0]. */
void othello_random_game(const othello_pos *start, rng *r, othello_game *g, bool record);
/* The same for N <= OTHELLO_BATCH games at once (START[j], R[j], G[j]):
 * several games step in lockstep, which is faster than one at a time. */
enum { OTHELLO_BATCH = 4 };
void othello_random_games(const othello_pos *start, rng *r, othello_game *g, int n, bool record);
/* Final disc difference (me minus opp) of a random game from (ME, OPP). */
int othello_random_result(uint64_t me, uint64_t opp, rng *r);

/* Debug builds (YOMI_DEBUG): dies if P breaks an invariant of positions
 * reachable in a game (overlapping discs, an empty centre, a bad turn). */
void othello_check(const othello_pos *p);

#endif
