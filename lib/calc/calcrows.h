/* calcrows: playout's -g calc rows written with --deals and --moves (the
 * columns game, deck and moves, and variant, which a hand-made table may
 * leave out for standard deals) read back as games, each replayed
 * position by position: how the research tools in tests/bench take best's
 * games. */
#ifndef YOMI_CALCROWS_H
#define YOMI_CALCROWS_H

#include "calc/calc.h"
#include "core/table.h"

typedef struct {
	table *t;
	int game, deck, moves, variant; /* columns; variant -1 if absent */
} calcrows;

/* Opens PATH ("-" for stdin); dies unless it has game, deck and moves. */
void calcrows_open(calcrows *r, const char *path);
/* Reads the next row; false at the end. */
bool calcrows_read(calcrows *r);
/* The current row's game, replayed: HIST[i] the position before move i
 * and PLAYED[i] its code, HIST[n] the position after the last, for at
 * most MAX moves (HIST holds MAX + 1). Returns n; dies naming the row on
 * a bad deck or variant, an illegal move, or more than MAX moves. */
int calcrows_replay(const calcrows *r, calc_state *hist, int *played, int max);
/* The current row's field in column COL. */
const char *calcrows_field(const calcrows *r, int col);
void calcrows_close(calcrows *r);

#endif
