/* resolver/server.h - the client side: UDP and (stream.c) TCP listeners on every --listen address;
 * each query goes to the handler given at open (wiring.c: the request driver), each answer back
 * the way its query came (route.h). */
#ifndef ALLOCSPIKE_RESOLVER_SERVER_H
#define ALLOCSPIKE_RESOLVER_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "route.h"

/* Binds every listen address for UDP and, unless --no-tcp, TCP on the same port (port 0: the
 * kernel picks one free for both) and starts reading into on_query. */
int server_open(struct resolver *r, route_query_fn *on_query, char *err, size_t err_size);
/* Prints "ready ADDR:PORT" per bound --listen address, then "ready-tls ADDR:PORT" per
 * --tls-listen address, to stdout and, atomically, to ready_file. */
int server_announce(struct resolver *r, const char *ready_file);
/* Sends an answer the way its query came: 0 when sent or queued, -1 when it cannot be (the
 * stream closed meanwhile). */
int server_send(struct resolver *r, const struct route *to, const uint8_t *wire, size_t len);
/* A query that came by `from` waits for its answer (hold) or no longer (release): what keeps a
 * stream from being closed as idle (stream.h). No-ops for UDP. */
void server_hold(struct resolver *r, const struct route *from);
void server_release(struct resolver *r, const struct route *from);
void server_close(struct resolver *r);

#endif
