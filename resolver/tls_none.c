/* resolver/tls_none.c - the resolver's TLS in a build without it (the musl variant): fully static
 * against musl, and Debian's GnuTLS is built for glibc, so --tls-listen is refused. */
#include <stdio.h>

#include "tls.h"

const bool tls_available = false;
const char tls_missing_reason[] = "this build serves no DNS over TLS: the musl variant is linked "
                                  "fully static and Debian's GnuTLS is built for glibc only";

int tls_open(struct resolver *r, char *err, size_t err_size)
{
	(void)r;
	snprintf(err, err_size, "%s", tls_missing_reason);
	return -1;
}

struct bufferevent *tls_wrap(struct resolver *r, struct bufferevent *under,
                             tls_handshake_fn *on_handshake, void *arg)
{
	(void)r;
	(void)under;
	(void)on_handshake;
	(void)arg;
	return NULL;
}

void tls_close(struct resolver *r)
{
	(void)r;
}
