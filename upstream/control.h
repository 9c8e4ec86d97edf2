/* upstream/control.h - the Unix control socket: line commands `stats` and `shutdown`. */
#ifndef ALLOCSPIKE_UPSTREAM_CONTROL_H
#define ALLOCSPIKE_UPSTREAM_CONTROL_H

#include <event2/event.h>
#include <stddef.h>

/* Returns a malloc'ed one-line JSON document for `stats`. */
typedef char *(*control_stats_fn)(void *ctx);

struct control;

/* Listens on path (an existing socket file there is replaced). `shutdown` answers "ok" and
 * breaks the event loop. NULL with the reason in err. */
struct control *control_open(struct event_base *base, const char *path, control_stats_fn stats,
                             void *ctx, char *err, size_t err_size);

void control_close(struct control *c);

#endif
