/* loadgen/monotonic.h - the one clock the generator paces, stamps and samples by. */
#ifndef ALLOCSPIKE_LOADGEN_MONOTONIC_H
#define ALLOCSPIKE_LOADGEN_MONOTONIC_H

#include <stdint.h>
#include <time.h>

static inline uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
