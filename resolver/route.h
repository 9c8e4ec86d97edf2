/* resolver/route.h - where a client's answer goes: the UDP socket its query came on with the
 * client's address, or the stream connection it came on (stream.c), named by a handle. */
#ifndef ALLOCSPIKE_RESOLVER_ROUTE_H
#define ALLOCSPIKE_RESOLVER_ROUTE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct resolver;

struct route {
	struct sockaddr_storage addr; /* the client's address (the ACL reads it) */
	socklen_t addrlen;
	int fd; /* the UDP socket; -1 for a stream */
	/* When fd is -1: the connection's slot and generation (stream.c). An answer that comes
	 * after its connection closed finds a newer generation, or none, and is dropped. */
	uint64_t stream;
};

/* Called for every client query, over UDP or a stream. 0: taken (answered, resolving, or
 * dropped for overload); -1: malformed (a stream closes on it: its framing is not trusted). */
typedef int route_query_fn(struct resolver *r, const struct route *from, const uint8_t *wire,
                           size_t len);

#endif
