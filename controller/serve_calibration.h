/* controller/serve_calibration.h - a served run's `calibration-step` request (docs/controller.md,
 * "The calibration"): after each ramp of an `auto` spike height, what the passes so far decide
 * (the report library's analysis_calibration: each variant's capacity over the passes, the slowest,
 * the spike rate, whether to ramp again), answered as `extend NAME...` (ramp again to twice the
 * top with those, the ones still answering at it) or `rate RATE CAPACITY SLOWEST [at-limit]`
 * (done; at-limit: the slowest still answered at the top after the last extension allowed). When
 * done, each variant whose knee was not found is a `calibration_fallback` event; and, unless the
 * slowest answered nothing (CAPACITY 0: the scenario ends the run), run.json's calibration is
 * written and the `calibrated` event added. */
#ifndef ALLOCSPIKE_CONTROLLER_SERVE_CALIBRATION_H
#define ALLOCSPIKE_CONTROLLER_SERVE_CALIBRATION_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "serve_rows.h"

#define SERVE_CALIBRATION_REQUESTS "calibration-step"

struct serve_calibration {
	json_t *passes; /* [{folder, schedule, top_qps}] of the calibration under way */
};

/* calibration-step RUN MULTIPLE EXTENSIONS TOP FOLDER SCHEDULE: the pass just run in RUN/FOLDER
 * (FOLDER `calibration` begins a calibration: its passes are forgotten), a ramp to TOP qps by
 * SCHEDULE; the spikes at MULTIPLE times the slowest capacity, at most EXTENSIONS ramps after the
 * first. Answered into reply; false when w is not this request. The host (serve_rows.h) is the
 * served run's events and run folder. */
bool serve_calibration_request(struct serve_calibration *c, const struct serve_rows_host *h,
                               char **w, int n, char *reply, size_t size);

void serve_calibration_free(struct serve_calibration *c);

#endif
