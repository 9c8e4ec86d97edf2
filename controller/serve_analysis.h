/* controller/serve_analysis.h - a served run's checks of a run folder's timeline once its schedule
 * ran (docs/controller.md, "The warm-up check and the capacities"), each the report library's
 * analysis recorded: `warmup-check` (analysis_warmup: whether every cache was steady by the end
 * of the warm-up; run.json's warmup, a `warmup_not_steady` event per variant still filling) and
 * `capacities` (analysis_knee: each variant's capacity on a ramp; run.json's capacity, a
 * `calibrated` event per variant). */
#ifndef ALLOCSPIKE_CONTROLLER_SERVE_ANALYSIS_H
#define ALLOCSPIKE_CONTROLLER_SERVE_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "serve_rows.h"

#define SERVE_ANALYSIS_REQUESTS "warmup-check, capacities"

/* warmup-check FOLDER: `skipped` when FOLDER/timeline.csv is missing or empty (nothing recorded),
 * else `ok CAP [NAME BYTES]...`: the cap (run.json's parameters.resolver.cache_size_bytes) and
 * each variant whose cache was still filling with its bytes at the end of the warm-up.
 * capacities FOLDER: `ok [NAME CAPACITY PEAK SHARE]...` of each variant of FOLDER's ramp.
 * Answered into reply; false when w is not one of these. The host (serve_rows.h) is the served
 * run's events and run folder. */
bool serve_analysis_request(const struct serve_rows_host *h, char **w, int n, char *reply,
                            size_t size);

#endif
