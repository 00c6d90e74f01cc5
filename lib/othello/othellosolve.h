/* othellosolve: exact Othello endgames. The score of a position is the
 * final disc difference (the side to move's discs minus the other's)
 * under perfect play by both sides, empty squares going to the winner,
 * as the French federation's FForum problems and most solvers count it.
 * Scores are even, from -64 to 64.
 *
 * The search is alpha-beta with null windows only (the root's score is
 * found by a sequence of them), moves ordered fastest-first (the
 * opponent's mobility after the move, corners counted twice) with hole
 * parity near the end, stability cut-offs, a transposition table of
 * bounds with enhanced transposition cut-offs, and special code for the
 * last two empty squares. Its recursion is bounded by the 60 empty
 * squares (and the passes between them), whatever the position. */
#ifndef YOMI_OTHELLOSOLVE_H
#define YOMI_OTHELLOSOLVE_H

#include <stdbool.h>
#include <stdint.h>

#include "othello/othello.h"

typedef struct othellosolve othellosolve;

/* A solver with a transposition table of 2^BITS positions (BITS from 10
 * to 28; 32 bytes each). Dies when out of memory. */
othellosolve *othellosolve_new(int bits);
void othellosolve_free(othellosolve *s);

/* Forgets what earlier solves stored, so that a solve's nodes and time
 * do not depend on the positions solved before it (the stored bounds
 * stay true: dropping them only costs time). */
void othellosolve_forget(othellosolve *s);

/* The exact score of P (whose game is not over) for its side to move;
 * *MOVE gets a move that reaches it (OTHELLO_PASS when the side must
 * pass). */
int othellosolve_best(othellosolve *s, const othello_pos *p, int *move);
/* The exact score for P's side to move of playing MOVE, a legal move
 * (or the pass) of P. */
int othellosolve_move(othellosolve *s, const othello_pos *p, int move);
/* Whether P's exact score for its side to move is above ALPHA (a null
 * window search: much cheaper than the exact score). */
bool othellosolve_above(othellosolve *s, const othello_pos *p, int alpha);

/* Positions visited since the solver was made. */
uint64_t othellosolve_nodes(const othellosolve *s);

/* Discs of the side owning ME that no sequence of moves can flip (some
 * of them: a lower bound). */
uint64_t othellosolve_stable(uint64_t me, uint64_t opp);

/* The score of a finished game for the side to move: the disc
 * difference, the empty squares counted for the winner. */
int othellosolve_final(uint64_t me, uint64_t opp);

#endif
