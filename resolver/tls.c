/* resolver/tls.c - the resolver's DNS over TLS with GnuTLS: credentials from PEM files, TLS 1.2
 * and 1.3, session tickets for resumption, one session per connection (common/tls_bev). */
#include "tls.h"

#include <gnutls/gnutls.h>
#include <stdio.h>
#include <stdlib.h>

#include "resolver.h"
#include "tls_bev.h"

const bool tls_available = true;
const char tls_missing_reason[] = "";

struct tls_server {
	gnutls_certificate_credentials_t cred;
	gnutls_priority_t priority;
	gnutls_datum_t
	    ticket_key; /* one key for the process's life: tickets resume until restart */
};

int tls_open(struct resolver *r, char *err, size_t err_size)
{
	const char *cert = r->cfg.tls_cert, *key = r->cfg.tls_key;
	struct tls_server *t = calloc(1, sizeof(*t));
	r->tls = t;
	if (!t) {
		snprintf(err, err_size, "out of memory for TLS");
		return -1;
	}
	int rc = gnutls_certificate_allocate_credentials(&t->cred);
	if (rc >= 0) {
		rc = gnutls_certificate_set_x509_key_file(t->cred, cert, key, GNUTLS_X509_FMT_PEM);
		if (rc < 0) {
			snprintf(err, err_size, "--tls-cert %s --tls-key %s: %s", cert, key,
			         gnutls_strerror(rc));
			return -1;
		}
	}
	if (rc >= 0)
		rc = gnutls_priority_init(&t->priority, TLS_BEV_PRIORITIES, NULL);
	if (rc >= 0)
		rc = gnutls_session_ticket_key_generate(&t->ticket_key);
	if (rc < 0) {
		snprintf(err, err_size, "TLS setup: %s", gnutls_strerror(rc));
		return -1;
	}
	return 0;
}

struct bufferevent *tls_wrap(struct resolver *r, struct bufferevent *under,
                             tls_handshake_fn *on_handshake, void *arg)
{
	struct tls_server *t = r->tls;
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

void tls_close(struct resolver *r)
{
	struct tls_server *t = r->tls;
	if (!t)
		return;
	if (t->cred)
		gnutls_certificate_free_credentials(t->cred);
	if (t->priority)
		gnutls_priority_deinit(t->priority);
	gnutls_memset(t->ticket_key.data, 0, t->ticket_key.size);
	gnutls_free(t->ticket_key.data);
	free(t);
	r->tls = NULL;
}
