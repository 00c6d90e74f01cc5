/* nim: Nim-family games: positions, a generic retrograde solver, the
 * closed forms, and octal (take-and-break) Grundy sequences.
 *
 * Positions of M heaps with bounds max[i] are indexed densely in mixed
 * radix, heap 1 fastest (R's expand.grid order, as in seed 004): every
 * move lowers the index, so one pass in index order solves the table. For
 * games whose moves take any number from one heap (and, for Wythoff, the
 * same number from both), the best child along each direction is a
 * prefix aggregate kept in a ring buffer of one stride, so the pass costs
 * O(M) per position instead of O(sum of heaps). */
#ifndef YOMI_NIM_H
#define YOMI_NIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NIM_MAX_HEAPS 16
#define NIM_NONE UINT32_MAX

typedef enum { NIM_NIM, NIM_WYTHOFF, NIM_SUBTRACT, NIM_OCTAL } nim_kind;

typedef struct {
	nim_kind kind;
	int m;
	uint32_t max[NIM_MAX_HEAPS];
	bool misere;
	uint32_t sub[64]; /* subtraction set, ascending */
	int nsub;
	uint8_t digit[33]; /* octal digits d1..dn in digit[1..n] */
	int ndigits;
} nim_game;

/* Parses "nim", "wythoff", "subtract:1,2,3" or "octal:0.77" into G (kind
 * and rules only); on failure returns false with a reason in WHY. */
bool nim_parse_game(const char *spec, nim_game *g, const char **why);
/* Number of positions, or 0 if it overflows 2^62. */
uint64_t nim_positions(const nim_game *g);
void nim_decode(const nim_game *g, uint64_t idx, uint32_t *h);
uint64_t nim_encode(const nim_game *g, const uint32_t *h);

typedef struct {
	const nim_game *g;
	uint64_t n;
	uint8_t *outcome; /* 0 = P (the player to move loses), 1 = N */
	uint32_t *rem;    /* remoteness */
	uint32_t *grundy; /* normal play only, else NULL */
} nim_table;

/* Bytes nim_solve would allocate for G. */
uint64_t nim_solve_bytes(const nim_game *g, bool grundy);
/* Solves every position of G (nim, wythoff, subtract); Grundy values (by
 * mex; by nim-sum for Nim) only when GRUNDY and in normal play. */
nim_table *nim_solve(const nim_game *g, bool grundy);
/* One winning move from N position IDX (a P child with the least
 * remoteness, found in a fixed order), as a position index. */
uint64_t nim_winning_move(const nim_table *t, uint64_t idx);
void nim_table_free(nim_table *t);

/* Grundy value by direct mex over the children (for checking). */
uint32_t nim_grundy_slow(const nim_table *t, uint64_t idx);

/* Closed forms. Bouton: normal Nim is P iff the nim-sum is 0; misere Nim
 * is P iff the nim-sum is 0 with some heap above 1, or 1 with none. */
bool nim_bouton_p(const uint32_t *h, int m, bool misere);
/* Bouton's winning move from N position H (in place); false if H is P. */
bool nim_bouton_move(uint32_t *h, int m, bool misere);
/* The k-th Wythoff P position (floor(k phi), floor(k phi^2)), exactly. */
void nim_wythoff_pair(uint64_t k, uint64_t *a, uint64_t *b);

/* Counts without a table: the P positions of G within its bounds, for Nim
 * (Bouton's rules summed over bits) and Wythoff (the Beatty pairs). */
uint64_t nim_count_p(const nim_game *g);
uint64_t nim_wythoff_count_p(const nim_game *g);
/* Wythoff: the heap X such that (X, Y) is a P position (there is one for
 * every Y, in normal and in misere play). */
uint64_t nim_wythoff_partner(uint64_t y, bool misere);
/* Wythoff: a winning move from H (in place) by the pairs, trying heap 1,
 * heap 2, then both, as the table's move order does; false if there is
 * none: H is P, or misere (0, 0), won with no move left. */
bool nim_wythoff_move(uint32_t *h, bool misere);

/* Octal games: calls F(a, b, ARG) for every option of a single heap of
 * size H, in a fixed order (amount taken ascending; for each, removing the
 * whole heap, leaving one heap, then splits with the smaller part
 * ascending). A and B are the heaps left, 0 for none; a split gives
 * A <= B. Stops, returning true, when F returns true. */
typedef bool (*nim_option_fn)(uint32_t a, uint32_t b, void *arg);
bool nim_octal_options(const nim_game *g, uint32_t h, nim_option_fn f, void *arg);
/* An option as text: "0" (no heap left), "a", or "a+b". */
void nim_octal_move_text(uint32_t a, uint32_t b, char *buf, size_t n);

/* Octal games: Grundy values of single heaps 0..n (normal play). */
uint32_t *nim_octal_grundy(const nim_game *g, uint32_t n);
/* Period detection by the octal periodicity theorem: true with the
 * smallest period P and pre-period N0 such that G(i + P) = G(i) for
 * N0 <= i < 2 N0 + P + t (t the number of octal digits) within V[0..n]. */
bool nim_octal_period(const nim_game *g, const uint32_t *v, uint32_t n, uint32_t *period,
		       uint32_t *preperiod);

/* Octal games: the Grundy values of heaps 0..n, computed directly until
 * the octal periodicity theorem proves a period (checked as the heaps
 * double), the rest by the period: v(h) = v(pre + (h - pre) mod period). */
typedef struct {
	uint32_t *v;     /* values of heaps 0..len-1 */
	uint32_t len;
	uint32_t period; /* 0: none found, len is n + 1 */
	uint32_t pre;
	/* nim_octal_winning_move's answers for heaps past win_from, by the
	 * heap mod the period: amount taken << 32 | smaller part, -1 none,
	 * -2 not yet known. */
	int64_t *win;
	uint64_t win_from;
} nim_octal_seq;
/* Option visits a second that nim_octal_values' estimates assume: low, to
 * say "minutes" early rather than late. */
#define NIM_OCTAL_RATE 5e8
/* Fills S for heaps 0..N, or returns why not (memory over MAX_BYTES, or
 * over MAX_WORK option visits before a period shows) with S empty. Says
 * on stderr before a step that will take seconds. */
const char *nim_octal_values(const nim_game *g, uint32_t n, uint64_t max_bytes, double max_work,
			     nim_octal_seq *s);
uint32_t nim_octal_value(const nim_octal_seq *s, uint64_t h);
void nim_octal_seq_free(nim_octal_seq *s);
/* nim_octal_period over heaps 0..N of the sequence S (without writing
 * out a billion values). */
bool nim_octal_seq_period(const nim_game *g, const nim_octal_seq *s, uint32_t n, uint32_t *period,
			  uint32_t *preperiod);
/* The option nim_octal_options would list first among those of heap H
 * whose value is TARGET (the XOR of the heaps it leaves), in time that
 * does not grow with H once the sequence is periodic; false if none. */
bool nim_octal_first_option(const nim_game *g, const nim_octal_seq *s, uint32_t h, uint32_t target,
			    uint32_t *a, uint32_t *b);

/* nim_octal_first_option with TARGET 0 (a winning move from an N heap),
 * in constant time for heaps far past the pre-period: there the answer,
 * as the amount taken and the smaller part, repeats with the period. */
bool nim_octal_winning_move(const nim_game *g, nim_octal_seq *s, uint32_t h, uint32_t *a,
			    uint32_t *b);

/* Octal games on sets of heaps: outcome (0 = P) and remoteness of a
 * single heap of each size 0..n, in normal or misere play, by a memoized
 * search over sorted multisets of heaps; for a winning heap, the heaps a
 * fastest win leaves ("0" for none, "a+b" for two) in move[h] (16 bytes).
 * Returns false, with nothing filled in, if more than MAX_STATES sets of
 * heaps would be needed. */
bool nim_octal_sets(const nim_game *g, uint32_t n, uint64_t max_states, uint8_t *outcome,
		     uint32_t *rem, char (*move)[16]);

/* Debug builds (YOMI_DEBUG): dies if IDX does not decode to heaps within
 * the bounds and encode back to IDX. */
void nim_check(const nim_game *g, uint64_t idx);

#endif
