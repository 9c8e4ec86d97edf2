/* resolver/tls.c - the resolver's DNS over TLS with GnuTLS (common/tls_server): credentials from
 * --tls-cert and --tls-key, session tickets for resumption, one session per connection. */
#include "tls.h"

#include "resolver.h"
#include "tls_server.h"

const bool tls_available = true;
const char tls_missing_reason[] = "";

int tls_open(struct resolver *r, char *err, size_t err_size)
{
	r->tls = tls_server_open(r->cfg.tls_cert, r->cfg.tls_key, err, err_size);
	return r->tls ? 0 : -1;
}

struct bufferevent *tls_wrap(struct resolver *r, struct bufferevent *under,
                             tls_handshake_fn *on_handshake, void *arg)
{
	return tls_server_wrap(r->tls, under, on_handshake, arg);
}

void tls_close(struct resolver *r)
{
	tls_server_close(r->tls);
	r->tls = NULL;
}
