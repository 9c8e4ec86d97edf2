/* common/tls_bev.h - a TLS session (GnuTLS) as a layer under a libevent bufferevent: what is
 * written to the returned bufferevent goes out encrypted and what arrives is read decrypted, so the
 * DNS over TCP code above it (framing, pipelining, timeouts) serves DNS over TLS (RFC 7858)
 * unchanged. Used by the resolver (server side) and the generator (client side). */
#ifndef ALLOCSPIKE_TLS_BEV_H
#define ALLOCSPIKE_TLS_BEV_H

#include <event2/bufferevent.h>
#include <gnutls/gnutls.h>
#include <stdbool.h>
#include <stddef.h>

/* Told once per connection when its handshake ends: ok, whether the session was resumed, and the
 * live bytes (common/live_bytes.h) the handshake left allocated, 0 where the counter is absent. */
typedef void tls_bev_handshake_fn(void *arg, bool ok, bool resumed, size_t held_bytes);

/* The priorities of both sides: TLS 1.2 and 1.3 only (RFC 7858 asks for 1.2 or later). */
#define TLS_BEV_PRIORITIES "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"

/* Runs `session` (initialised with GNUTLS_NONBLOCK, its credentials set) over the socket
 * bufferevent `under`, connected or not yet. The session belongs to the returned bufferevent from
 * here on (deinitialised with it); freeing that bufferevent frees `under` too. A client (session
 * initialised with GNUTLS_CLIENT) sends its first flight at once: it waits in `under` until the
 * connection is up. A failed handshake or a fatal TLS error reaches the returned bufferevent's
 * event callback as BEV_EVENT_ERROR (from the loop). NULL when out of memory: the session and
 * `under` are then still the caller's. */
struct bufferevent *tls_bev_wrap(struct bufferevent *under, gnutls_session_t session,
                                 tls_bev_handshake_fn *on_handshake, void *arg);

#endif
