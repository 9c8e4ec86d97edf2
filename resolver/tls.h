/* resolver/tls.h - DNS over TLS for clients (RFC 7858): the server's certificate and key, session
 * tickets, and a TLS session under each connection accepted on a --tls-listen address; stream.c
 * serves the connection above it exactly as a TCP one. */
#ifndef ALLOCSPIKE_RESOLVER_TLS_H
#define ALLOCSPIKE_RESOLVER_TLS_H

#include <stdbool.h>
#include <stddef.h>

struct resolver;
struct bufferevent;

/* Told once per connection when its handshake ends (common/tls_bev.h's tls_bev_handshake_fn). */
typedef void tls_handshake_fn(void *arg, bool ok, bool resumed, size_t held_bytes);

/* Whether this build serves TLS (the musl variant does not: resolver/tls_none.c), and why not. */
extern const bool tls_available;
extern const char tls_missing_reason[];

/* Loads cfg's --tls-cert and --tls-key into r->tls and makes the session-ticket key; -1 with err
 * filled (a file missing or unreadable, not PEM, a key that is not the certificate's; a build
 * without TLS). */
int tls_open(struct resolver *r, char *err, size_t err_size);
/* A server TLS session over the client connection `under` (common/tls_bev.h): the bufferevent to
 * serve it through, which owns `under`; NULL when out of memory (`under` is still the caller's). */
struct bufferevent *tls_wrap(struct resolver *r, struct bufferevent *under,
                             tls_handshake_fn *on_handshake, void *arg);
void tls_close(struct resolver *r);

#endif
