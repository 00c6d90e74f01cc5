#include "core/rng.h"

uint64_t rng_splitmix64(uint64_t *state)
{
	*state += 0x9E3779B97F4A7C15u;
	return rng_mix64(*state);
}

void rng_seed(rng *r, uint64_t key)
{
	uint64_t sm = key;
	for (int i = 0; i < 4; i++)
		r->s[i] = rng_splitmix64(&sm);
	/* splitmix64 never yields four zero words in a row, but the all-zero
	 * state would be fatal for xoshiro, so make it impossible outright. */
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = 1;
}

void rng_stream(rng *r, uint64_t seed, uint64_t stream)
{
	rng_seed(r, seed ^ rng_mix64(stream + 0x9E3779B97F4A7C15u));
}

double rng_double(rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}
