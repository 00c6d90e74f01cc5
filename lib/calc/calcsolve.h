/* calcsolve: play of a Calculation position whose stock order is known
 * (perfect information), by depth-first search that remembers the
 * positions it has lost (the waste piles taken as a multiset, since they
 * are interchangeable) and cuts off positions a relaxed game proves lost.
 *
 * Two modes. Exact: every legal move is a branch, so WON and LOST are
 * both proofs; deals are far too big for it, endgames are not. Eager (the
 * fast one, for search players): a card that exactly one foundation
 * wants goes up at once, waste tops before the hand, so only placements
 * of the hand, choices between foundations and choices between copies
 * of a card on two piles' tops branch. Eager play is
 * nearly always right but not always (keeping a card down can let a
 * copy further down a pile go up instead), so there WON is a proof and
 * LOST means only that no eager line wins. With waits set, eager play
 * also tries keeping such a card down, where a copy of its rank lies
 * below the top of another pile: the lines it adds are the ones that let
 * the copy take the foundation first. */
#ifndef YOMI_CALCSOLVE_H
#define YOMI_CALCSOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "calc/calc.h"

typedef struct {
	uint64_t *key;     /* positions: hash and stamp pairs */
	float *value;      /* calcsolve_expect: each slot's chance of winning */
	uint64_t mask;     /* slots - 1 */
	uint64_t stamp;    /* the memo's stamp; older entries count as empty */
	uint64_t used;     /* slots taken since the memo was last emptied */
	uint64_t nodes, budget;
	bool exact;
	bool chances;      /* the memo holds calcsolve_expect's chances, not
			    * a run's lost positions (whose slots hold no
			    * value) */
	uint64_t reorder;  /* calcsolve_restarts: the draws that reorder the
			    * hand's placements (0: the greedy rule's order) */
	uint16_t unseen[53]; /* a run's ranks face down from stock index j on */
	bool waits;        /* eager mode: a card may also wait while a copy of
			    * its rank lies buried in another pile (below) */
} calcsolve;

enum { CALCSOLVE_LOST = 0, CALCSOLVE_WON = 1, CALCSOLVE_UNKNOWN = -1 };

/* A solver remembering up to 2^LOG2 positions (more are forgotten, which
 * costs time, not correctness). */
void calcsolve_init(calcsolve *sv, unsigned log2, bool exact);
void calcsolve_free(calcsolve *sv);
/* Whether S can be won with its stock in the order it lies: WON, LOST,
 * or UNKNOWN once BUDGET positions have been expanded (0: no limit). With
 * MOVE not NULL, *MOVE is the first move of the winning line found (-1
 * unless WON, or when S is already over). sv->nodes tells the work. Each
 * run starts with an empty memo (the lost positions are of one stock
 * order). */
int calcsolve_run(calcsolve *sv, const calc_state *s, uint64_t budget, int *move);
/* As calcsolve_run (MOVE aside), the BUDGET split over RUNS searches of
 * S: the first tries the hand's placements in the greedy rule's order,
 * each later one with that order perturbed at random (a draw fixed by S
 * and its stock). The positions proven lost carry over from one search
 * to the next. With no budget, or one run, it is calcsolve_run. */
int calcsolve_restarts(calcsolve *sv, const calc_state *s, uint64_t budget, int runs);

/* The position's hash as the solvers remember it: the foundations, the
 * stock's next index and the waste piles as a multiset (they are
 * interchangeable). The hand and the cards still face down are left out:
 * within a search of one stock order NEXT fixes them. */
uint64_t calcsolve_hash(const calc_state *s);

/* A growable map from 64-bit keys (calcsolve_hash mixed with whatever else
 * a value depends on) to values, emptied at once by a new stamp. */
typedef struct {
	uint64_t *key; /* key and stamp pairs */
	double *value;
	size_t mask, used;
	uint64_t stamp;
} calcsolve_memo;

/* Empties M (the first call sets it up). */
void calcsolve_memo_clear(calcsolve_memo *m);
/* Whether KEY is in M, and then its value in *V. */
bool calcsolve_memo_get(const calcsolve_memo *m, uint64_t key, double *v);
void calcsolve_memo_put(calcsolve_memo *m, uint64_t key, double v);
void calcsolve_memo_free(calcsolve_memo *m);

/* Information-set play: the chance of winning each of the N positions
 * S[i] for a player who knows which cards are unseen but not their order
 * (the hand may be empty; the next card is then a chance node) and who
 * chooses as well as possible: among eager-mode lines (a lower bound on
 * perfect play, and often a poor one, since a card may have to wait on
 * a pile for another foundation), or in exact mode among all moves,
 * which is perfect play and costs far more positions. One memo and
 * BUDGET positions serve all N (positions after the candidate moves
 * share most of their subtrees). With ALL each V[i] is S[i]'s chance;
 * without, only the best and those that tie it are: a position that
 * cannot beat the best before it is cut short and gets an upper bound
 * below that best, which is much faster. Returns false, V unset, when
 * the budget ran out. The chances (and bounds) found stay in the memo for
 * later calls until calcsolve_forget or calcsolve_run: a position's key
 * fixes its unseen cards, so they stay true, and the positions of one
 * game's next move are mostly those searched for this one. A call that
 * finds the memo half full empties it first: past that, probes fail and
 * the memo stops serving. */
bool calcsolve_expect(calcsolve *sv, const calc_state *s, int n, uint64_t budget, bool all,
		      double *v);

/* Empties SV's memo. */
void calcsolve_forget(calcsolve *sv);

/* A line of play and the cards it leaves on the piles (0: won). Every
 * card moves at most twice, from the hand and off a pile. */
enum { CALCSOLVE_LINE_MAX = 2 * 52 };
typedef struct {
	int n, rest;
	uint8_t move[CALCSOLVE_LINE_MAX];
} calcsolve_line;

/* The best line from S (not necessarily over) found by nested search with
 * the stock known: level 0 is the greedy rule's line; level L plays on
 * from S, at each position trying every distinct move followed by a
 * level L-1 search, and follows the best line found so far (nested Monte
 * Carlo search over deterministic playouts). It stops at the first win.
 * A won line proves S winnable; a lost one proves nothing. The line
 * starts with S's next card turned, if S waits on it. */
void calcsolve_nested(const calc_state *s, int level, calcsolve_line *line);

#endif
