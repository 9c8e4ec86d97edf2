/* controller/run_events.h - a served run's events (docs/controller.md, "The events' clock"): the
 * scenario's events.jsonl, appended one line a write as the generator appends to it, and the clock
 * t_s counts on: seconds since the schedule's origin (the generator's start). An event before the
 * origin is kept here and written, with its negative t_s, once the origin is set. A calibration
 * or cpu.sh pass pushes its own file (and clock) over the run's until it is popped. */
#ifndef ALLOCSPIKE_CONTROLLER_RUN_EVENTS_H
#define ALLOCSPIKE_CONTROLLER_RUN_EVENTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define RUN_EVENTS_PUSH_MAX 4 /* files pushed over the run's own */
#define RUN_EVENTS_PATH_MAX 4096

/* An event made before its file's origin was known. */
struct run_event {
	double unix_s;
	char *variant, *event;
	json_t *fields;
};

struct run_events_file {
	char path[RUN_EVENTS_PATH_MAX];
	int fd; /* -1: no file */
	bool has_origin;
	double origin_unix_s;
	struct run_event *pending;
	size_t pending_count, pending_cap;
};

struct run_events {
	struct run_events_file files[RUN_EVENTS_PUSH_MAX + 1];
	unsigned depth; /* files[depth] takes the events */
};

/* Zeroed, then this: no file yet. */
void run_events_init(struct run_events *ev);
/* Every file closed (what is pending written first, run_events_close) and freed. */
void run_events_free(struct run_events *ev);

/* The run's file: PATH created new (a link, or anything there, refused), with no origin; what was
 * pending for the file before is written first. False with "PATH: reason" in err. */
bool run_events_open(struct run_events *ev, const char *path, char *err, size_t err_size);
/* Later events go to PATH (created when missing, appended; no link) with no origin, until
 * run_events_pop, which writes what is pending there and goes back to the file before. */
bool run_events_push(struct run_events *ev, const char *path, char *err, size_t err_size);
bool run_events_pop(struct run_events *ev, char *err, size_t err_size);

/* Whether there is a file to write to. */
bool run_events_ready(const struct run_events *ev);
/* One event now (fields taken over, may be NULL); kept while the file has no origin. */
void run_events_add(struct run_events *ev, const char *variant, const char *event, json_t *fields);
/* The schedule started at unix_s (wall-clock seconds; NAN: now): the pending events are written.
 * Returns the origin set. */
double run_events_origin(struct run_events *ev, double unix_s);
/* The length of the file events go to now (-1 without one): where a generator started now
 * appends its lines. */
off_t run_events_size(const struct run_events *ev);
/* The first line of the events file at path past offset from whose event is `event` and, unless
 * variant is NULL, whose variant is `variant`: its object (the caller's to free), or NULL while
 * there is none. Whole lines only (the last may still be being written). */
json_t *run_events_file_find(const char *path, off_t from, const char *variant, const char *event);
/* The instant such a line of the run's events file names in field (wall-clock text to the ns:
 * a generator's `started` start_realtime, place's `placement` t0) into *unix_s, in seconds; false
 * while there is no such line. */
bool run_events_find_instant(const struct run_events *ev, off_t from, const char *variant,
                             const char *event, const char *field, double *unix_s);
/* The next schedule (serial mode, a cpu.sh pass) starts a new clock: events wait for it. */
void run_events_origin_clear(struct run_events *ev);
/* Every pushed file popped; what is pending written (against now where no origin was set). */
void run_events_close(struct run_events *ev);

/* events_log's hand_over for the supervisor's `started` and `exited` (ctx: the run_events);
 * dropped while there is no file. */
void run_events_hand_over(void *ctx, const char *variant, const char *event, json_t *extra);

#endif
