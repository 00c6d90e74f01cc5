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
} rng;

/* splitmix64 finaliser of x (the output function, without the step).
 * Inline: the solvers' position hashes call it for every pile. */
static inline uint64_t rng_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
	return z ^ (z >> 31);
}
/* One splitmix64 step: advances *state and returns the next output. */
uint64_t rng_splitmix64(uint64_t *state);

void rng_seed(rng *r, uint64_t key);
void rng_stream(rng *r, uint64_t seed, uint64_t stream);

/* The stream of item I (a game, a playout: I < 2^32) in part SUB (a
 * root move of --per-move, SUB < 2^8; else 0) of input position P (0:
 * the program's own start; P >= 1: the P-th input row, P < 2^23):
 * P * 2^40 + SUB * 2^32 + I, so no two items of a run share a stream and
 * shards of a run draw exactly what the whole run draws. */
static inline uint64_t rng_key(uint64_t p, uint64_t sub, uint64_t i)
{
	return p << 40 | sub << 32 | i;
}
/* Inline: the playout loops draw one number per move. */
static inline uint64_t rng_next(rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = s[1] * 5;
	result = ((result << 7) | (result >> 57)) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = (s[3] << 45) | (s[3] >> 19);
	return result;
}

/* Uniform in [0, n) without modulo bias (Lemire's method); n > 0. */
static inline uint64_t rng_below(rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
	uint64_t low = (uint64_t)m;
	if (low < n) {
		uint64_t threshold = -n % n;
		while (low < threshold) {
			m = (unsigned __int128)rng_next(r) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/* Uniform in [0, n) from the high 32 bits of one output (Lemire's method),
 * 0 < n < 2^32: a 64-bit product where rng_below needs a 128-bit one. */
static inline uint32_t rng_below32(rng *r, uint32_t n)
{
	uint64_t x = (rng_next(r) >> 32) * n;
	/* Only a product whose low half is below n can be rejected: testing
	 * that first keeps the division off the common path. */
	if (__builtin_expect((uint32_t)x < n, 0)) {
		uint32_t t = -n % n;
		while ((uint32_t)x < t)
			x = (rng_next(r) >> 32) * n;
	}
	return (uint32_t)(x >> 32);
}

/* Random choices take 32 bits at a time from one 64-bit output of the
 * generator (the games' choices are among a few dozen moves), and
 * Lemire's rejection keeps each exactly uniform. A game keeps one of
 * these, so a random player and a random playout choose alike. */
typedef struct {
	rng *r;
	uint64_t pool; /* unused random bits */
	int left;      /* 32-bit draws left in pool */
} rng_draw;

/* Uniform in [0, N), 0 < N. */
static inline unsigned rng_draw_below(rng_draw *d, uint32_t n)
{
	for (;;) {
		if (!d->left) {
			d->pool = rng_next(d->r);
			d->left = 2;
		}
		uint64_t x = (uint64_t)(uint32_t)d->pool * n;
		d->pool >>= 32;
		d->left--;
		/* Reject the low (2^32 mod n) products; only those below n can
		 * be among them, so the division is rare. */
		if ((uint32_t)x >= n || (uint32_t)x >= (uint32_t)-n % n)
			return (unsigned)(x >> 32);
	}
}

/* Uniform in [0, 1) with 53 random bits. */
double rng_double(rng *r);

#endif
