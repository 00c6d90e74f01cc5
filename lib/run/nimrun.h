/* nimrun: what nimtable does: a game's table of positions (outcome,
 * Grundy value, remoteness, a winning move), its P positions or their
 * count, an octal game's Grundy sequence, or the perfect player's move
 * for each position read (--advise). */
#ifndef YOMI_NIMRUN_H
#define YOMI_NIMRUN_H

#include <stdint.h>

#include "nim/nim.h"
#include "run/run.h"

/* The largest heap a position may have. */
#define NIMRUN_MAX_HEAP 1000000000u

typedef enum { NIMRUN_TABLE, NIMRUN_P_ONLY, NIMRUN_COUNT, NIMRUN_ADVISE } nimrun_mode;

typedef struct {
	run_opts common;      /* seed: --advise's random takes; files: its positions */
	nim_game game;        /* the game and its bounds (m, max) */
	nimrun_mode mode;
	uint64_t max_memory;  /* tables needing more bytes are refused */
} nimrun_opts;

int nimrun_main(nimrun_opts *o);

#endif
