/* resolver/stream.h - clients over TCP (RFC 7766) and over TLS (RFC 7858, tls.c as a layer under
 * the connection): length-prefixed messages, pipelined queries answered in the order they resolve,
 * an idle timeout, one connection limit for both. */
#ifndef ALLOCSPIKE_RESOLVER_STREAM_H
#define ALLOCSPIKE_RESOLVER_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "route.h"

/* Queries of one connection in flight at once; past it the connection's further queries wait
 * in its buffer (kresd's net.tcp_pipeline default). */
#define STREAM_MAX_PENDING 100

/* The connection table, sized for cfg's --tcp-max-connections, each query to on_query. */
int stream_open(struct resolver *r, route_query_fn *on_query, char *err, size_t err_size);
/* Accepts clients on fd (bound and listening) until stream_close, each in a TLS session (tls.c)
 * when tls. */
int stream_listen(struct resolver *r, int fd, bool tls, char *err, size_t err_size);
/* Serves a connected client socket (accept's; a socketpair's end in the fuzz target) as a
 * connection from `from`, under the connection limit (it may close fd at once: tcp_refused). */
void stream_adopt(struct resolver *r, int fd, const struct sockaddr *from, socklen_t fromlen,
                  bool tls);
/* Queues an answer on the connection; -1 when it has closed meanwhile. */
int stream_send(struct resolver *r, uint64_t handle, const uint8_t *wire, size_t len);
/* A query of the connection is waiting for its answer (hold) or no longer (release: answered or
 * dropped). A connection with queries held is never idle. No-ops for a closed connection. */
void stream_hold(struct resolver *r, uint64_t handle);
void stream_release(struct resolver *r, uint64_t handle);

struct stream_figures {
	size_t open;     /* connections open now */
	size_t tls_open; /* of them, over TLS */
	/* What they hold: each connection's own objects as the live-bytes counter saw them
	 * allocated when it was set up (its record, libevent's bufferevent with its two buffers,
	 * its timer; over TLS also the filter, the GnuTLS session and what its handshake kept),
	 * plus the bytes waiting in its input and output buffers now. */
	size_t bytes;
};
void stream_get_figures(const struct resolver *r, struct stream_figures *out);
/* Closes every connection and listener (shutdown). */
void stream_close(struct resolver *r);

#endif
