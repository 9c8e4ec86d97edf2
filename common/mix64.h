/* common/mix64.h - splitmix64's finalizer, the one 64-bit mixing function behind every seeded
 * choice. */
#ifndef ALLOCSPIKE_MIX64_H
#define ALLOCSPIKE_MIX64_H

#include <stdint.h>

/* A strong bijective mix of 64 bits (Steele, Lea, Flood: "Fast splittable pseudorandom number
 * generators", 2014). Deterministic across runs and machines, which is what seeds need. */
static inline uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

#endif
