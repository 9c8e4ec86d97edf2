/* upstream/hash.h - seeded 64-bit hashing: every random choice of the hierarchy is one of these. */
#ifndef ALLOCSPIKE_UPSTREAM_HASH_H
#define ALLOCSPIKE_UPSTREAM_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "mix64.h"

/* splitmix64's finalizer (common/mix64.h) */
static inline uint64_t hash_mix(uint64_t x)
{
	return mix64(x);
}

static inline uint64_t hash_combine(uint64_t h, uint64_t v)
{
	return hash_mix(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

/* FNV-1a over the bytes, then mixed with the seed; stable across runs and machines. */
static inline uint64_t hash_bytes(uint64_t seed, const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return hash_combine(hash_mix(seed), h);
}

/* A uniform number in [0, 1) from the top 53 bits. */
static inline double hash_unit(uint64_t h)
{
	return (double)(h >> 11) * (1.0 / 9007199254740992.0);
}

#endif
