/* resolver/server.h - the client side: UDP listeners on every --listen address. */
#ifndef ALLOCSPIKE_RESOLVER_SERVER_H
#define ALLOCSPIKE_RESOLVER_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

struct resolver;

/* Binds every listen address (port 0: the kernel picks) and starts reading. */
int server_open(struct resolver *r, char *err, size_t err_size);
/* Prints "ready ADDR:PORT" per bound address to stdout and, atomically, to ready_file. */
int server_announce(struct resolver *r, const char *ready_file);
int server_send(struct resolver *r, int fd, const uint8_t *wire, size_t len,
                const struct sockaddr *to, socklen_t tolen);
void server_close(struct resolver *r);

#endif
