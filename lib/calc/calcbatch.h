/* calcbatch: random and greedy games of Calculation played to the end,
 * many at a time.
 *
 * A random game here is calc_deal of its deck followed by
 * calc_random_playout with its generator, a greedy one calc_greedy_playout
 * (or calc_cascade_playout) from its state, and the outcome is the same
 * move for move: the batch is only a faster way to get it. Eight games
 * share each vector instruction on the AVX-512 path (lib/core/isa.h), one
 * per 64-bit lane, and nothing but the loading touches memory in the game
 * loop (greedy reads a table of urgencies after foundation moves); on the
 * AVX2 path random and greedy games go eight to the 32-bit lanes of a
 * 256-bit vector with their piles in memory; elsewhere the games are
 * played one by one with the scalar playouts. */
#ifndef YOMI_CALCBATCH_H
#define YOMI_CALCBATCH_H

#include <stddef.h>
#include <stdint.h>

#include "calc/calc.h"

typedef struct {
	uint8_t success, rest; /* as calc_success and calc_rest */
	uint16_t steps;
} calcbatch_outcome;

/* The outcome of S, a game over (or of its state so far). */
calcbatch_outcome calcbatch_outcome_of(const calc_state *s);

/* Shuffles N decks as calc_shuffle does: DECKS[i] becomes what
 * calc_shuffle(VARIANT, &GENS[i], DECKS[i]) would make, and GENS[i] is
 * left as that call would leave it. On the AVX2 and AVX-512 paths the
 * swaps' indices of four decks are drawn together, one generator per
 * 64-bit lane. */
void calcbatch_shuffle(int variant, rng *gens, size_t n, uint8_t (*decks)[52]);

/* Plays N random games of VARIANT: game i deals DECKS[i] and draws from a
 * copy of GENS[i] (the generators are left as they were). Returns how
 * many of the games the scalar playout played (all of them on the base
 * path; otherwise the rare lanes the vector loop gives up). */
size_t calcbatch_random(int variant, const uint8_t (*decks)[52], const rng *gens, size_t n,
			calcbatch_outcome *out);

/* Plays greedy games (calc_greedy_playout) to the end from the N STATES;
 * returns how many the scalar playout played, as calcbatch_random. */
size_t calcbatch_greedy(const calc_state *states, size_t n, calcbatch_outcome *out);

/* Plays N greedy games from S, game k with the unseen cards of S in the
 * order calc_resample draws from stream (KEY, FROM + k) (rng_stream):
 * the same outcomes as calcbatch_greedy over those states, into OUT[k],
 * without making them; with CASCADE those of calc_cascade_playout
 * (greedy's rule) instead. On the vector paths a lane whose game ends
 * starts the next at once, so eight games run to the last ones; the
 * cascade's games too, each lane's choice among moves up searched on its
 * own (on the base path they go one by one to the scalar playout).
 * Returns how many the scalar playout played, as calcbatch_random. */
size_t calcbatch_resampled(const calc_state *s, uint64_t key, uint64_t from, size_t n,
			   bool cascade, calcbatch_outcome *out);

#endif
