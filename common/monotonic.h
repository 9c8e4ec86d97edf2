/* common/monotonic.h - the clocks of the generator and the agent: monotonic paces and samples,
 * realtime stamps latency and samples. */
#ifndef ALLOCSPIKE_MONOTONIC_H
#define ALLOCSPIKE_MONOTONIC_H

#include <stdint.h>
#include <sys/time.h>
#include <time.h>

static inline uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Latency is measured on the realtime clock because that is the clock of the kernel's receive
 * timestamps (SO_TIMESTAMPNS), which let answers be read late without being timed late. */
static inline uint64_t realtime_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A duration in seconds as libevent's timers take it. */
static inline struct timeval seconds_timeval(double s)
{
	return (struct timeval){(time_t)s, (suseconds_t)((s - (time_t)s) * 1e6)};
}

#endif
