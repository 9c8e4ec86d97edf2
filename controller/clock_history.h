/* controller/clock_history.h - the clock measurements of one agent over a run, and which one
 * places a sample: the usable one nearest in time (docs/controller.md, "Placing samples"). */
#ifndef ALLOCSPIKE_CONTROLLER_CLOCK_HISTORY_H
#define ALLOCSPIKE_CONTROLLER_CLOCK_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock_exchange.h"

struct clock_point {
	uint64_t at_ns; /* our CLOCK_REALTIME when the measurement ended */
	struct clock_offset offset;
};

struct clock_history {
	struct clock_point *points; /* only measurements within the bound: usable to place */
	size_t n, cap;
};

/* Keeps a measurement within the bound; false when out of memory. */
bool clock_history_add(struct clock_history *h, uint64_t at_ns, const struct clock_offset *off);

/* The measurement nearest in time to a read the agent stamped agent_ns (its clock), or NULL while
 * there is none. */
const struct clock_point *clock_history_nearest(const struct clock_history *h, uint64_t agent_ns);

void clock_history_free(struct clock_history *h);

#endif
