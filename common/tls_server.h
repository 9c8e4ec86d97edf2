/* common/tls_server.h - the server side of DNS over TLS (RFC 7858) with GnuTLS: a certificate and
 * key from PEM files, TLS 1.2 and 1.3, session tickets for resumption, and a server session under
 * each accepted connection (common/tls_bev.h). The resolver's (resolver/tls.c) and the test
 * responder's. */
#ifndef ALLOCSPIKE_TLS_SERVER_H
#define ALLOCSPIKE_TLS_SERVER_H

#include <stddef.h>

#include "tls_bev.h"

struct tls_server;

/* The credentials of cert and key (PEM) and a ticket key for the process's life; NULL with err
 * filled (a file missing or unreadable, not PEM, a key that is not the certificate's). */
struct tls_server *tls_server_open(const char *cert, const char *key, char *err, size_t err_size);
/* A server TLS session over the accepted connection `under`: the bufferevent to serve it through,
 * which owns `under`; NULL when out of memory (`under` is still the caller's). */
struct bufferevent *tls_server_wrap(struct tls_server *t, struct bufferevent *under,
                                    tls_bev_handshake_fn *on_handshake, void *arg);
void tls_server_close(struct tls_server *t);

#endif
