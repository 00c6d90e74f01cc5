/* progress: how far a long run has come, by time, for every program.
 *
 * On a terminal's stderr (not with -q) a line is rewritten a few times a
 * second from half a second on, so that a run shorter than that shows
 * nothing:
 *
 *   playout: 512000 of 1000000 games (51%), 1.52M/s, 0:01 left
 *
 * and at the end, when anything was shown, the total and the time:
 *
 *   playout: 1000000 games in 0.66 s, 1.52M/s
 *
 * With the environment variable YOMI_PROGRESS=FILE (whatever -q says) the
 * counts go to FILE as one line "DONE TOTAL SECONDS", rewritten in place
 * at the same times, so that a pipeline running shards side by side can
 * add them up and show one line for the whole run (pipelines/common.sh).
 *
 * Call progress_tick as often as you like: it reads a coarse clock and
 * returns at once between updates. */
#ifndef YOMI_PROGRESS_H
#define YOMI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
	bool on;          /* shown on the terminal or written to a file */
	bool tty, shown;  /* to the terminal; a line was written there */
	int fd;           /* YOMI_PROGRESS, or -1 */
	const char *what; /* the unit, plural: "games" */
	uint64_t total;   /* 0: not known */
	double start, next;
} progress;

/* Starts counting WHAT (TOTAL of them; 0 if not known). QUIET: -q. */
void progress_start(progress *p, bool quiet, const char *what, uint64_t total);
/* DONE of the total so far. */
void progress_update(progress *p, uint64_t done);
static inline void progress_tick(progress *p, uint64_t done)
{
	if (p->on)
		progress_update(p, done);
}
/* The run is over with DONE counted: the closing line, if any. */
void progress_end(progress *p, uint64_t done);

/* Writes X with three significant digits and a k or M suffix ("1.52M",
 * "980", "53.2k") into BUF. */
void progress_format_rate(double x, char *buf, int n);
/* Writes S seconds as "0:42" or "1:02:03" into BUF. */
void progress_format_time(double s, char *buf, int n);

#endif
