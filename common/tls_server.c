/* common/tls_server.c - DNS over TLS, the server side: credentials, ticket key, one GnuTLS session
 * per connection under common/tls_bev. */
#include "tls_server.h"

#include <gnutls/gnutls.h>
#include <stdio.h>
#include <stdlib.h>

struct tls_server {
	gnutls_certificate_credentials_t cred;
	gnutls_priority_t priority;
	gnutls_datum_t
	    ticket_key; /* one key for the process's life: tickets resume until restart */
};

struct tls_server *tls_server_open(const char *cert, const char *key, char *err, size_t err_size)
{
	struct tls_server *t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, err_size, "out of memory for TLS");
		return NULL;
	}
	int rc = gnutls_certificate_allocate_credentials(&t->cred);
	if (rc >= 0) {
		rc = gnutls_certificate_set_x509_key_file(t->cred, cert, key, GNUTLS_X509_FMT_PEM);
		if (rc < 0) {
			snprintf(err, err_size, "--tls-cert %s --tls-key %s: %s", cert, key,
			         gnutls_strerror(rc));
			tls_server_close(t);
			return NULL;
		}
	}
	if (rc >= 0)
		rc = gnutls_priority_init(&t->priority, TLS_BEV_PRIORITIES, NULL);
	if (rc >= 0)
		rc = gnutls_session_ticket_key_generate(&t->ticket_key);
	if (rc < 0) {
		snprintf(err, err_size, "TLS setup: %s", gnutls_strerror(rc));
		tls_server_close(t);
		return NULL;
	}
	return t;
}

struct bufferevent *tls_server_wrap(struct tls_server *t, struct bufferevent *under,
                                    tls_bev_handshake_fn *on_handshake, void *arg)
{
	gnutls_session_t session;
	if (gnutls_init(&session, GNUTLS_SERVER | GNUTLS_NONBLOCK) < 0)
		return NULL;
	struct bufferevent *bev = NULL;
	if (gnutls_priority_set(session, t->priority) >= 0 &&
	    gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, t->cred) >= 0 &&
	    gnutls_session_ticket_enable_server(session, &t->ticket_key) >= 0)
		bev = tls_bev_wrap(under, session, on_handshake, arg);
	if (!bev)
		gnutls_deinit(session);
	return bev;
}

void tls_server_close(struct tls_server *t)
{
	if (!t)
		return;
	if (t->cred)
		gnutls_certificate_free_credentials(t->cred);
	if (t->priority)
		gnutls_priority_deinit(t->priority);
	if (t->ticket_key.data) {
		gnutls_memset(t->ticket_key.data, 0, t->ticket_key.size);
		gnutls_free(t->ticket_key.data);
	}
	free(t);
}
