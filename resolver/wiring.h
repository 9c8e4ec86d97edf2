/* resolver/wiring.h - connects the resolver's sockets to its logic: client queries and upstream
 * results to the request driver, the control socket to the stats. The only module that knows
 * both sides, so that the sockets (server.c, upstream.c, the control server) call nothing above
 * them. */
#ifndef ALLOCSPIKE_RESOLVER_WIRING_H
#define ALLOCSPIKE_RESOLVER_WIRING_H

#include <stddef.h>

struct resolver;
struct control_server;

/* Upstream replies and failures go to the request driver (request.c). */
void wiring_connect(struct resolver *r);
/* The client sockets (server_open), each query to request_handle_query. */
int wiring_open_server(struct resolver *r, char *err, size_t err_size);
/* The control socket at path, answering `stats` with stats_to_json. */
struct control_server *wiring_open_control(struct resolver *r, const char *path, char *err,
                                           size_t err_size);

#endif
