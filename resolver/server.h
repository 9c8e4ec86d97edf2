/* resolver/server.h - the client side: UDP listeners on every --listen address; each query goes to
 * the handler given at open (wiring.c: the request driver). */
#ifndef ALLOCSPIKE_RESOLVER_SERVER_H
#define ALLOCSPIKE_RESOLVER_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

struct resolver;

/* Called for every client datagram received on fd. */
typedef void server_query_fn(struct resolver *r, int fd, const uint8_t *wire, size_t len,
                             const struct sockaddr *from, socklen_t fromlen);

/* Binds every listen address (port 0: the kernel picks) and starts reading into on_query. */
int server_open(struct resolver *r, server_query_fn *on_query, char *err, size_t err_size);
/* Prints "ready ADDR:PORT" per bound address to stdout and, atomically, to ready_file. */
int server_announce(struct resolver *r, const char *ready_file);
int server_send(struct resolver *r, int fd, const uint8_t *wire, size_t len,
                const struct sockaddr *to, socklen_t tolen);
void server_close(struct resolver *r);

#endif
