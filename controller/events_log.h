/* controller/events_log.h - the controller's lines of DIR/events.jsonl, through the run folder's
 * one writer, t_s counted from the controller's start (docs/run-folder.md, "events.jsonl"); or,
 * in a served run, handed to the scenario's events (run_events.h), which keep the run's clock. */
#ifndef ALLOCSPIKE_CONTROLLER_EVENTS_LOG_H
#define ALLOCSPIKE_CONTROLLER_EVENTS_LOG_H

#include <jansson.h>
#include <stdint.h>

#include "runfolder_writer.h"

struct events_log {
	struct runfolder_writer writer;
	uint64_t t0_ns; /* our CLOCK_REALTIME at t_s 0 */
	/* when set, each event goes here instead (extra taken over) */
	void (*hand_over)(void *ctx, const char *variant, const char *event, json_t *extra);
	void *ctx;
};

/* One event now; extra's keys (taken over, may be NULL) beside t_s, variant and event. */
void events_log_add(struct events_log *log, const char *variant, const char *event, json_t *extra);

#endif
