/* reports/timeline_rows.h - what the timeline's rows mean to every figure and chart: the interval
 * between rows, the phases left out of spike figures, a row's CPU seconds. */
#ifndef ALLOCSPIKE_REPORTS_TIMELINE_ROWS_H
#define ALLOCSPIKE_REPORTS_TIMELINE_ROWS_H

#include "runfolder_reader.h"

/* CPU times tick in 10 ms: a share of a core is measured over windows at least this long (one tick
 * is then 1 % of a core, not 10 % as over one 100 ms interval). */
#define TIMELINE_ROWS_CPU_WINDOW_S 1.0

/* The interval between two timeline rows of one target, in seconds (run.json interval_ms, or the
 * smallest step seen, or 1). */
double timeline_rows_interval_s(const struct runfolder *rf);

/* True for phases whose rows are left out of spike figures (warmup, calibrate). */
int timeline_rows_phase_is_preamble(const char *phase);

/* Cumulative CPU seconds (user + system) of a row, NAN if not available. */
double timeline_rows_cpu_s(const struct runfolder_row *row);

#endif
