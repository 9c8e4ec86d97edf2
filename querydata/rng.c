/* querydata/rng.c - the generator's deterministic random numbers (xoshiro256**, seeded by
 * splitmix64). */
#include "rng.h"

#include "mix64.h"

uint64_t rng_mix(uint64_t x)
{
	return mix64(x);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++) {
		seed += 0x9e3779b97f4a7c15ULL;
		r->s[i] = rng_mix(seed);
	}
}

static uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

double rng_uniform(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	/* rejection keeps it unbiased; the loop almost never repeats */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;
	do
		x = rng_next(r);
	while (x >= limit);
	return x % n;
}

size_t rng_pick(struct rng *r, const double *weights, size_t n)
{
	double total = 0;
	for (size_t i = 0; i < n; i++)
		total += weights[i];
	double x = rng_uniform(r) * total;
	for (size_t i = 0; i < n; i++) {
		if (x < weights[i])
			return i;
		x -= weights[i];
	}
	return n - 1;
}

uint64_t rng_hash(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return rng_mix(h ^ len);
}
