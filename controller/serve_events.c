/* controller/serve_events.c - the event requests of a served run (serve_events.h). */
#include "serve_events.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_line.h"

/* A wall-clock time in seconds (the generator's start_realtime, "1796300000.250000000"). */
static bool serve_events_unix_s(const char *text, double *out)
{
	char *end;
	*out = strtod(text, &end);
	return end != text && *end == '\0' && isfinite(*out) && *out > 0;
}

/* event VARIANT EVENT [KEY=TEXT | KEY:=JSON]... */
static void serve_events_add(struct run_events *ev, char **w, int n, char *reply, size_t size)
{
	if (!run_events_ready(ev)) {
		snprintf(reply, size, "error: event: no events file (ask `events FILE` first)");
		return;
	}
	if (!event_line_names_valid(w[1], w[2])) {
		snprintf(reply, size, "error: event: VARIANT and EVENT must be UTF-8");
		return;
	}
	const char *why, *bad;
	json_t *fields = event_line_fields(w + 3, n - 3, &why, &bad);
	if (!fields) {
		snprintf(reply, size, "error: event: %s '%.200s'", why, bad);
		return;
	}
	run_events_add(ev, w[1], w[2], fields);
	snprintf(reply, size, "ok");
}

bool serve_events_request(struct run_events *ev, char **w, int n, char *reply, size_t size)
{
	const char *req = w[0];
	char err[RUN_EVENTS_PATH_MAX + 256];
	bool done = true, ok = true;
	if (strcmp(req, "event") == 0 && n >= 3) {
		serve_events_add(ev, w, n, reply, size);
		return true;
	} else if (strcmp(req, "events") == 0 && n == 2) {
		ok = run_events_open(ev, w[1], err, sizeof(err));
	} else if (strcmp(req, "events-push") == 0 && n == 2) {
		ok = run_events_push(ev, w[1], err, sizeof(err));
	} else if (strcmp(req, "events-pop") == 0 && n == 1) {
		ok = run_events_pop(ev, err, sizeof(err));
	} else if (strcmp(req, "events-close") == 0 && n == 1) {
		run_events_close(ev);
	} else if (strcmp(req, "origin-clear") == 0 && n == 1) {
		run_events_origin_clear(ev);
	} else if (strcmp(req, "origin") == 0 && (n == 1 || n == 2)) {
		double unix_s = NAN; /* now */
		if (n == 2 && !serve_events_unix_s(w[1], &unix_s)) {
			snprintf(err, sizeof(err),
			         "UNIX_S: '%.64s' is not a wall-clock time in seconds (e.g. "
			         "1796300000.25)",
			         w[1]);
			ok = false;
		} else {
			run_events_origin(ev, unix_s);
		}
	} else {
		done = false;
	}
	if (done && ok)
		snprintf(reply, size, "ok");
	else if (done)
		snprintf(reply, size, "error: %s: %s", req, err);
	return done;
}
