/* reports/summary.h - the figures of a run (summary.json), computed from a run folder. */
#ifndef ALLOCSPIKE_REPORTS_SUMMARY_H
#define ALLOCSPIKE_REPORTS_SUMMARY_H

#include <jansson.h>

#include "runfolder_reader.h"

/* CPU times tick in 10 ms: a share of a core is measured over windows at least this long (one tick
 * is then 1 % of a core, not 10 % as over one 100 ms interval). */
#define SUMMARY_CPU_WINDOW_S 1.0

/* Builds the summary object (layout and every figure documented in reports/README.md).
 * Numbers that cannot be computed from what was recorded are JSON null. */
json_t *summary_build(const struct runfolder *rf);

/* A number, or null when not available (NAN); integral values are written without a fraction. */
json_t *summary_json_number(double v);

/* A number as a JSON real as it is, or null when not finite (NAN, infinities). */
json_t *summary_json_real(double v);

/* Sets key to a share clamped to [0, 1] (null for NAN); a raw value outside is kept beside it as
 * KEY_raw, so a reader sees why (docs/run-folder.md, "Shares"). */
void summary_set_share(json_t *o, const char *key, double raw);

/* The name an old figure name stands for ("mean_held_given_back_share": "mean_held_released_share";
 * a spike's as "spikes.N.x"), or NULL when path is no alias (summary.json "aliases"). */
const char *summary_alias_of(const json_t *summary, const char *path);

/* The interval between two timeline rows of one target, in seconds (run.json interval_ms, or the
 * smallest step seen, or 1). */
double summary_interval_s(const struct runfolder *rf);

/* True for phases whose rows are left out of spike figures (warmup, calibrate). */
int summary_phase_is_preamble(const char *phase);

/* Cumulative CPU seconds (user + system) of a row, NAN if not available. */
double summary_row_cpu_s(const struct runfolder_row *row);

/* The value at a dotted path ("spike_traffic.answered_share") under obj, or NULL; in an array of
 * spikes a number picks the spike of that number and "last" the last one
 * ("spikes.last.held_growth_kb"; spike_find_key). */
json_t *summary_lookup(const json_t *obj, const char *path);

#endif
