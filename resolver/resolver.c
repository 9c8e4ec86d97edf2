/* resolver/resolver.c - process-wide helpers: the cache's clock and the random numbers behind query
 * IDs. */
#include "resolver.h"

#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

uint32_t resolver_now(void)
{
	struct timespec ts;
#ifdef CLOCK_MONOTONIC_COARSE
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
#else
	clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
	/* +1 so that "expires at 0" can never look alive. */
	return (uint32_t)ts.tv_sec + 1;
}

void resolver_random_seed(struct resolver *r)
{
	uint64_t seed[2] = {0, 0};
	if (getrandom(seed, sizeof(seed), 0) != (ssize_t)sizeof(seed)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		seed[0] = (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
		seed[1] = (uint64_t)ts.tv_sec * 0x9E3779B97F4A7C15ull;
	}
	r->rng_state[0] = seed[0] | 1;
	r->rng_state[1] = seed[1] ^ 0xD1B54A32D192ED03ull;
}

uint64_t resolver_random(struct resolver *r)
{
	uint64_t s1 = r->rng_state[0];
	const uint64_t s0 = r->rng_state[1];
	r->rng_state[0] = s0;
	s1 ^= s1 << 23;
	r->rng_state[1] = s1 ^ s0 ^ (s1 >> 18) ^ (s0 >> 5);
	return r->rng_state[1] + s0;
}
