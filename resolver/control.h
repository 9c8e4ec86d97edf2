/* resolver/control.h - the Unix control socket: line commands `stats` and `shutdown`. */
#ifndef ALLOCSPIKE_RESOLVER_CONTROL_H
#define ALLOCSPIKE_RESOLVER_CONTROL_H

#include <stddef.h>

struct resolver;

/* Listens on path (replacing a stale socket file). Each line received gets one line back:
 * `stats` -> the JSON object of stats.h; `shutdown` -> "ok" and the loop stops; else an error. */
int control_open(struct resolver *r, const char *path, char *err, size_t err_size);
void control_close(struct resolver *r);

#endif
