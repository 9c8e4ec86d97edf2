/* controller/serve_calibration.h - a served run's `calibrate` and `calibration-step` requests
 * (docs/controller.md, "The calibration"). `calibrate` runs the ramps itself: this file reads its
 * words, makes each pass's `drive` words and folder and judges the pass; serve.c runs the passes
 * on drive's path. `calibration-step`: after each ramp of an `auto` spike height, what the passes
 * so far decide (the report library's analysis_calibration: each variant's capacity over the
 * passes, the slowest, the spike rate, whether to ramp again), answered as `extend NAME...` (ramp
 * again to twice the top with those, the ones still answering at it) or `rate RATE CAPACITY SLOWEST
 * [at-limit]` (done; at-limit: the slowest still answered at the top after the last extension
 * allowed). When done, each variant whose knee was not found is a `calibration_fallback` event;
 * and, unless the slowest answered nothing (CAPACITY 0: the scenario ends the run), run.json's
 * calibration is written and the `calibrated` event added. */
#ifndef ALLOCSPIKE_CONTROLLER_SERVE_CALIBRATION_H
#define ALLOCSPIKE_CONTROLLER_SERVE_CALIBRATION_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "serve_rows.h"

#define SERVE_CALIBRATION_REQUESTS "calibration-step"
#define SERVE_CALIBRATE_REQUESTS "calibrate" /* held: serve.c's */

struct serve_calibration {
	json_t *passes; /* [{folder, schedule, top_qps}] of the calibration under way */
	/* a `calibrate` under way (active): its words (owned), where its drive words and ROWs
	 * begin, the rows of the next pass, the pass (0: the first ramp), its top, folder and
	 * schedule, the run's options (run.json's, owned) and whether the pass's events file is
	 * pushed */
	bool active;
	char **words;
	int drive_at, rows_at;
	char **names;
	unsigned pass;
	unsigned long long top;
	char folder[64], schedule[256], dir[4200];
	json_t *run_json;
	const json_t *options;
	bool pushed;
};

/* calibration-step RUN MULTIPLE EXTENSIONS TOP FOLDER SCHEDULE: the pass just run in RUN/FOLDER
 * (FOLDER `calibration` begins a calibration: its passes are forgotten), a ramp to TOP qps by
 * SCHEDULE; the spikes at MULTIPLE times the slowest capacity, at most EXTENSIONS ramps after the
 * first. Answered into reply; false when w is not this request. The host (serve_rows.h) is the
 * served run's events and run folder. */
bool serve_calibration_request(struct serve_calibration *c, const struct serve_rows_host *h,
                               char **w, int n, char *reply, size_t size);

/* calibrate RUN MULTIPLE EXTENSIONS TOP LOADGEN QUERIES CPUS ROW_CPUS TIMEOUT [OPTION...] -- ROW...
 * read into c (active), the options from the run's run.json; false with the error in reply. */
bool serve_calibrate_parse(struct serve_calibration *c, const struct serve_rows_host *h, char **w,
                           int n, char *reply, size_t size);

/* The next pass's `drive` words (allocated; NULL with the error in reply): into its folder c->dir,
 * its ramp to c->top, the calibrate's options (a wrap= of a row not in the pass left out) and the
 * pass's rows; its length into *count. */
char **serve_calibrate_drive(struct serve_calibration *c, int *count, char *reply, size_t size);

/* The pass's folder made (c->dir and its logs), its ramp said on stderr; false with the error in
 * reply. */
bool serve_calibrate_folder(const struct serve_calibration *c, const struct serve_rows_host *h,
                            char *reply, size_t size);

/* After a pass's drive answered (its answer in reply): its calibration-step. 1: done, its answer in
 * reply
 * (`rate RATE CAPACITY SLOWEST [at-limit]`); 0: another pass follows (its rows and top set, said);
 * -1: an error in reply. */
int serve_calibrate_passed(struct serve_calibration *c, const struct serve_rows_host *h,
                           char *reply, size_t size);

/* The calibrate ended: what it holds given back, c inactive. */
void serve_calibrate_end(struct serve_calibration *c);

void serve_calibration_free(struct serve_calibration *c);

#endif
