/* chainrun: what chain-greedy and chain-lookahead do: a step filter that
 * appends moves to a game log (a person's with --play, then the
 * program's), a whole match from a start word, and a tournament over many
 * start words (one result row per game).
 *
 * The game log (game,turn,player,strategy,word,points,p1_score,p2_score,
 * event, then any extra columns carried along) is checked move by move
 * against the dictionary and the rules when it is read back. */
#ifndef YOMI_CHAINRUN_H
#define YOMI_CHAINRUN_H

#include <stdbool.h>
#include <stdint.h>

#include "run/run.h"
#include "shiritori/chain.h"

typedef struct {
	run_opts common;         /* seed: tie-breaks; first, count: a tournament's
				  * shard (count < 0: all); files: the log read */
	const char *dict_path;   /* -d */
	const char *start;       /* --start WORD: a new game */
	const char *starts;      /* --starts LIST: a tournament */
	const char *starts_column; /* --starts-column NAME: LIST is a table */
	const char *play;        /* --play WORD: a person's move */
	const char *trace_path;  /* --trace FILE */
	const char *lose_tail;   /* --lose-tail CHARS */
	chain_strategy me, vs;   /* the program's player, --vs */
	bool has_vs;
	chain_rules rules;       /* rounds and handicap; lose_tail set by the runner */
	int64_t moves;           /* step filter: moves to append */
	int64_t games;           /* tournament: seeds per start word */
	int64_t game_id;         /* --game: a new log's number */
	bool second, both_sides;
} chainrun_opts;

/* Runs the mode O asks for (its options already checked); the exit status. */
int chainrun_main(chainrun_opts *o);

#endif
