/* rng: the project's one random generator, fixed so that results are
 * reproducible across machines and versions.
 *
 * Generator: xoshiro256** (Blackman and Vigna), 256 bits of state.
 * Seeding: the four state words are four successive outputs of
 * splitmix64 started at the 64-bit key.
 * Streams: game (or shard item) i of a run with seed S uses the key
 *   key = S XOR splitmix64_mix(i + 0x9E3779B97F4A7C15)
 * so item i draws the same numbers whether the run is split or not, and
 * no two items share a stream in practice. */
#ifndef YOMI_RNG_H
#define YOMI_RNG_H

#include <stdint.h>

typedef struct {
	uint64_t s[4];
} rng_t;

/* splitmix64 finaliser of x (the output function, without the step). */
uint64_t rng_mix64(uint64_t x);
/* One splitmix64 step: advances *state and returns the next output. */
uint64_t rng_splitmix64(uint64_t *state);

void rng_seed(rng_t *r, uint64_t key);
void rng_stream(rng_t *r, uint64_t seed, uint64_t stream);
uint64_t rng_next(rng_t *r);
/* Uniform in [0, n) without modulo bias (Lemire's method); n > 0. */
uint64_t rng_below(rng_t *r, uint64_t n);
/* Uniform in [0, 1) with 53 random bits. */
double rng_double(rng_t *r);

#endif
