/* common/harness_saturation.h - when a harness process (the generator, the hierarchy) counts as
 * saturated: the one rule, used by the generator's own events, the scenario's hierarchy events
 * (allocspike-report harness) and the report's figures. docs/run-folder.md, "Harness saturation".
 */
#ifndef ALLOCSPIKE_HARNESS_SATURATION_H
#define ALLOCSPIKE_HARNESS_SATURATION_H

#include <stdbool.h>

/* CPU times tick in 10 ms: a share is measured over a window of at least this long. */
#define HARNESS_WINDOW_S 1.0
/* On the small machines this runs on (2 cores for resolvers and harness), a harness process that
 * uses more than half a core over a window may be what limits the traffic. */
#define HARNESS_SATURATED_CORES 0.5

/* cpu_share: cores used over a window of at least HARNESS_WINDOW_S. */
static inline bool harness_saturated(double cpu_share)
{
	return cpu_share > HARNESS_SATURATED_CORES;
}

#endif
