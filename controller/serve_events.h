/* controller/serve_events.h - the event requests of a served run (docs/controller.md, "The
 * events' clock"): the events file, its origin, pushed files and the scenario's own events. */
#ifndef ALLOCSPIKE_CONTROLLER_SERVE_EVENTS_H
#define ALLOCSPIKE_CONTROLLER_SERVE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "run_events.h"

/* The names of the requests below, for the message of an unknown one. */
#define SERVE_EVENTS_REQUESTS                                                                      \
	"events, events-push, events-pop, events-close, origin, origin-clear, event"

/* Answers request w[0..n) into reply when it is one of these; false when it is none of them. */
bool serve_events_request(struct run_events *ev, char **w, int n, char *reply, size_t size);

#endif
