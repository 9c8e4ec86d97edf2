/* loadgen/counters.h - one target's traffic counters: written by the pacing thread, read by the
 * recorder. */
#ifndef ALLOCSPIKE_LOADGEN_COUNTERS_H
#define ALLOCSPIKE_LOADGEN_COUNTERS_H

#include <stdint.h>

#include "latency_hist.h"

/* Cumulative since the start. One thread writes (counters_add), the recorder copies them at each
 * interval and takes differences; each word is read and written whole (relaxed atomics). */
struct counters {
	uint64_t sent, answered, timeouts, noerror, nxdomain, servfail, rcode_other;
	uint64_t send_errors;     /* queries due that the socket refused: offered but not sent */
	uint64_t unexpected;      /* answers to no outstanding query (late, or a wrong ID) */
	uint64_t late_or_foreign; /* answers to a waiting slot with another question */
	uint64_t truncated;       /* UDP answers with TC set (answers, unless --tc-retry) */
	uint64_t tc_retried;      /* of them, handed to the client's TCP connection (--tc-retry) */
	uint64_t bytes_sent, bytes_received;
	struct latency_hist latency;
};

static inline void counters_add(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}

/* For a gauge (open connections): one thread adds and takes away. */
static inline void counters_sub(uint64_t *c, uint64_t n)
{
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) - n, __ATOMIC_RELAXED);
}

static inline uint64_t counters_read(const uint64_t *c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

/* A copy of every counter (not the histogram, which latency_hist_snapshot copies). */
static inline void counters_snapshot(const struct counters *c, struct counters *out)
{
	out->sent = counters_read(&c->sent);
	out->answered = counters_read(&c->answered);
	out->timeouts = counters_read(&c->timeouts);
	out->noerror = counters_read(&c->noerror);
	out->nxdomain = counters_read(&c->nxdomain);
	out->servfail = counters_read(&c->servfail);
	out->rcode_other = counters_read(&c->rcode_other);
	out->send_errors = counters_read(&c->send_errors);
	out->unexpected = counters_read(&c->unexpected);
	out->late_or_foreign = counters_read(&c->late_or_foreign);
	out->truncated = counters_read(&c->truncated);
	out->tc_retried = counters_read(&c->tc_retried);
	out->bytes_sent = counters_read(&c->bytes_sent);
	out->bytes_received = counters_read(&c->bytes_received);
}

#endif
