/* loadgen/phase_tally.h - every query counted in the phase instance it was sent in (answered,
 * timed out, rcodes, latency histogram), for phases.csv and latency_hist.csv. */
#ifndef ALLOCSPIKE_LOADGEN_PHASE_TALLY_H
#define ALLOCSPIKE_LOADGEN_PHASE_TALLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "latency_hist.h"
#include "schedule.h"

/* A phase instance is one (phase, spike) pair of the schedule: "spike 3", "recovery 3". Phases
 * of the schedule with the same pair (two baseline pieces before the first spike) share one. */
struct phase_instance {
	enum schedule_kind kind;
	unsigned spike;
	double start_s; /* its first phase's start */
};

struct phase_plan {
	struct phase_instance *instances; /* in schedule order */
	size_t count;
	uint32_t *of_phase; /* schedule phase index -> instance index */
};

bool phase_plan_init(struct phase_plan *pl, const struct schedule *s);
void phase_plan_free(struct phase_plan *pl);

/* One target's queries sent in one instance. Written by the pacing thread only (each word
 * stored whole, as struct counters), copied by others with phase_tally_snapshot. */
struct phase_tally {
	uint64_t sent, answered, timeouts, late_or_foreign;
	uint64_t rcodes[4]; /* indexed by enum rcode_class */
	uint64_t max_ns;    /* the slowest answer */
	struct latency_hist latency;
};

enum rcode_class { RCODE_NOERROR, RCODE_NXDOMAIN, RCODE_SERVFAIL, RCODE_OTHER };

static inline enum rcode_class rcode_class_of(unsigned rcode)
{
	return rcode == 0   ? RCODE_NOERROR
	       : rcode == 3 ? RCODE_NXDOMAIN
	       : rcode == 2 ? RCODE_SERVFAIL
	                    : RCODE_OTHER;
}

/* An answer to a query of this instance, latency_ns after it left. */
void phase_tally_answer(struct phase_tally *t, unsigned rcode, uint64_t latency_ns);

/* A consistent-enough copy of t (which the pacing thread may be adding to): the answers and
 * timeouts are read before sent, so sent >= answered + timeouts in the copy. */
void phase_tally_snapshot(const struct phase_tally *t, struct phase_tally *out);

#endif
