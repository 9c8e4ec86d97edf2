/* reports/cpu_windows.h - one timeline row's CPU seconds cut into one-second windows: the one way
 * a CPU share is taken over windows long enough for 10 ms ticks (common/harness_saturation.h),
 * used by the harness's figures (analysis_harness.c) and the machine's (machine_busy.c). */
#ifndef ALLOCSPIKE_REPORTS_CPU_WINDOWS_H
#define ALLOCSPIKE_REPORTS_CPU_WINDOWS_H

#include <stdbool.h>
#include <stddef.h>

#include "runfolder_reader.h"

/* One window of one target. A clock that goes back (a serial run, a new generator) starts a new
 * segment: windows of different segments never join. */
struct cpu_window {
	int segment;
	long w;         /* floor(t_s / HARNESS_WINDOW_S) of the rows that close in it */
	double dt, dc;  /* seconds covered, CPU seconds used */
	bool all_spike; /* every row that closed in it was of a spike */
};

struct cpu_windows {
	struct cpu_window *v;
	size_t n, cap;
};

/* The windows of target's rows, from their cumulative CPU seconds; false when out of memory. */
bool cpu_windows_of(const struct runfolder *rf, int target, struct cpu_windows *ws);

/* Cores used in the window (0 for an empty one). */
double cpu_window_share(const struct cpu_window *w);

#endif
