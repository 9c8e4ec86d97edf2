/* loadgen/tls_client.h - the generator's DNS over TLS (RFC 7858): the client credentials (the
 * server's certificate verified only against --tls-ca), and a TLS session over each connection,
 * resuming the client's previous session when --tls-resume allows. */
#ifndef ALLOCSPIKE_LOADGEN_TLS_CLIENT_H
#define ALLOCSPIKE_LOADGEN_TLS_CLIENT_H

#include <gnutls/gnutls.h>
#include <stdbool.h>
#include <stddef.h>

#include "tls_bev.h"

struct tls_client {
	gnutls_certificate_credentials_t cred;
	gnutls_priority_t priority;
	bool verify; /* --tls-ca given: the server's certificate must chain to it */
	bool resume; /* --tls-resume yes: a reconnection offers the last session's ticket */
};

/* ca_file: the PEM certificates to verify the server against, NULL to verify nothing (a test
 * resolver's certificate is made up). False with err filled. */
bool tls_client_init(struct tls_client *t, const char *ca_file, bool resume, char *err,
                     size_t err_size);

/* A client session over the socket bufferevent `under` (not yet connected), resuming `saved` when
 * it holds a session and t->resume: the bufferevent to use (it owns `under`) and in *session the
 * session, valid until that bufferevent is freed. NULL when out of memory (`under` still the
 * caller's). */
struct bufferevent *tls_client_wrap(const struct tls_client *t, struct bufferevent *under,
                                    const gnutls_datum_t *saved, tls_bev_handshake_fn *on_handshake,
                                    void *arg, gnutls_session_t *session);

/* Keeps what resumes session (its latest ticket) in *saved, replacing what was there. */
void tls_client_save(gnutls_session_t session, gnutls_datum_t *saved);

/* Frees *saved. */
void tls_client_forget(gnutls_datum_t *saved);

void tls_client_free(struct tls_client *t);

#endif
