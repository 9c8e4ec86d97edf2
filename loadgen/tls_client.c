/* loadgen/tls_client.c - the generator's TLS client sessions (GnuTLS), one per connection, run
 * under the connection by common/tls_bev. */
#include "tls_client.h"

#include <stdio.h>
#include <string.h>

bool tls_client_init(struct tls_client *t, const char *ca_file, bool resume, char *err,
                     size_t err_size)
{
	memset(t, 0, sizeof(*t));
	t->resume = resume;
	t->verify = ca_file != NULL;
	int rc = gnutls_certificate_allocate_credentials(&t->cred);
	if (rc >= 0 && ca_file) {
		rc = gnutls_certificate_set_x509_trust_file(t->cred, ca_file, GNUTLS_X509_FMT_PEM);
		if (rc <= 0) {
			snprintf(err, err_size, "--tls-ca %s: %s", ca_file,
			         rc == 0 ? "no PEM certificate in it" : gnutls_strerror(rc));
			return false;
		}
	}
	if (rc >= 0)
		rc = gnutls_priority_init(&t->priority, TLS_BEV_PRIORITIES, NULL);
	if (rc < 0) {
		snprintf(err, err_size, "TLS setup: %s", gnutls_strerror(rc));
		return false;
	}
	return true;
}

struct bufferevent *tls_client_wrap(const struct tls_client *t, struct bufferevent *under,
                                    const gnutls_datum_t *saved, tls_bev_handshake_fn *on_handshake,
                                    void *arg, gnutls_session_t *session)
{
	if (gnutls_init(session, GNUTLS_CLIENT | GNUTLS_NONBLOCK) < 0)
		return NULL;
	bool set = gnutls_priority_set(*session, t->priority) >= 0 &&
	           gnutls_credentials_set(*session, GNUTLS_CRD_CERTIFICATE, t->cred) >= 0;
	/* no name to check: the chain to --tls-ca is what is verified */
	if (set && t->verify)
		gnutls_session_set_verify_cert(*session, NULL, 0);
	/* a stale or refused ticket only costs a full handshake */
	if (set && t->resume && saved->size)
		gnutls_session_set_data(*session, saved->data, saved->size);
	struct bufferevent *bev = set ? tls_bev_wrap(under, *session, on_handshake, arg) : NULL;
	if (!bev)
		gnutls_deinit(*session);
	return bev;
}

void tls_client_save(gnutls_session_t session, gnutls_datum_t *saved)
{
	gnutls_datum_t data;
	if (gnutls_session_get_data2(session, &data) < 0)
		return;
	tls_client_forget(saved);
	*saved = data;
}

void tls_client_forget(gnutls_datum_t *saved)
{
	gnutls_free(saved->data);
	saved->data = NULL;
	saved->size = 0;
}

void tls_client_free(struct tls_client *t)
{
	if (t->cred)
		gnutls_certificate_free_credentials(t->cred);
	if (t->priority)
		gnutls_priority_deinit(t->priority);
	memset(t, 0, sizeof(*t));
}
