/* querydata/rng.h - the generator's deterministic random numbers (xoshiro256**, seeded by
 * splitmix64). */
#ifndef ALLOCSPIKE_QUERYDATA_RNG_H
#define ALLOCSPIKE_QUERYDATA_RNG_H

#include <stddef.h>
#include <stdint.h>

struct rng {
	uint64_t s[4];
};

/* Same seed, same stream, on every machine: no libc rand(), no floating-point state. */
void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, 1). */
double rng_uniform(struct rng *r);
/* Uniform in [0, n); n > 0. */
uint64_t rng_below(struct rng *r, uint64_t n);
/* An index drawn with probability weights[i] / sum(weights). */
size_t rng_pick(struct rng *r, const double *weights, size_t n);

/* A 64-bit hash of a byte string (FNV-1a, then a splitmix finaliser to spread the bits). */
uint64_t rng_hash(const void *data, size_t len);
/* The splitmix64 finaliser on its own, to combine hashes. */
uint64_t rng_mix(uint64_t x);

#endif
