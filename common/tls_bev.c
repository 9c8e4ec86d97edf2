/* common/tls_bev.c - a GnuTLS session run as a libevent filter bufferevent: ciphertext from and to
 * the socket's buffers through GnuTLS's pull and push functions, plaintext in the filter's. */
#include "tls_bev.h"

#include <errno.h>
#include <stdint.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <stdlib.h>

#include "live_bytes.h"

/* The largest plaintext of one TLS record. */
#define TLS_BEV_RECORD 16384
/* Ciphertext read ahead from the socket: with the filter's own read high-water mark (the stream's
 * limit on plaintext) it bounds what one connection buffers, as a plain TCP connection's is. */
#define TLS_BEV_READ_HIGH_WATER (4 * (TLS_BEV_RECORD + 256))

struct tls_bev {
	gnutls_session_t session;
	struct bufferevent *under, *bev;
	tls_bev_handshake_fn *on_handshake;
	void *arg;
	bool established, failed;
	/* live bytes the handshake's steps allocated and kept, less what they queued to be sent */
	long long handshake_bytes;
};

static ssize_t tls_bev_push(gnutls_transport_ptr_t ptr, const void *data, size_t len)
{
	struct tls_bev *t = ptr;
	if (evbuffer_add(bufferevent_get_output(t->under), data, len) < 0) {
		gnutls_transport_set_errno(t->session, ENOMEM);
		return -1;
	}
	return (ssize_t)len;
}

static ssize_t tls_bev_pull(gnutls_transport_ptr_t ptr, void *data, size_t len)
{
	struct tls_bev *t = ptr;
	int n = evbuffer_remove(bufferevent_get_input(t->under), data, len);
	if (n > 0)
		return n;
	gnutls_transport_set_errno(t->session, EAGAIN);
	return -1;
}

/* Whether the pull function has bytes (GnuTLS asks before a blocking wait it never makes here). */
static int tls_bev_pull_timeout(gnutls_transport_ptr_t ptr, unsigned ms)
{
	(void)ms;
	struct tls_bev *t = ptr;
	return evbuffer_get_length(bufferevent_get_input(t->under)) > 0;
}

static bool tls_bev_retry(ssize_t rc)
{
	return rc == GNUTLS_E_AGAIN || rc == GNUTLS_E_INTERRUPTED;
}

/* Ciphertext not yet taken by GnuTLS. It also answers "again" after a post-handshake message (a
 * TLS 1.3 session ticket) with a record still to read: without another call that record would
 * wait for the next bytes from the peer. Each call takes what is there, so this ends. */
static bool tls_bev_unread(const struct tls_bev *t)
{
	return evbuffer_get_length(bufferevent_get_input(t->under)) > 0;
}

/* A fatal error: told to the owner from the loop, never from inside the filter that found it. */
static void tls_bev_fail(struct tls_bev *t)
{
	t->failed = true;
	bufferevent_trigger_event(t->bev, BEV_EVENT_ERROR, BEV_TRIG_DEFER_CALLBACKS);
}

/* One step of the handshake: true once it is done (or failed: t->failed). */
static bool tls_bev_handshake(struct tls_bev *t)
{
	struct live_bytes before = {0}, after = {0};
	struct evbuffer *out = bufferevent_get_output(t->under);
	size_t queued = evbuffer_get_length(out);
	bool counted = live_bytes_get(&before);
	int rc;
	do
		rc = gnutls_handshake(t->session);
	while (rc < 0 && (tls_bev_retry(rc) ? tls_bev_unread(t) : !gnutls_error_is_fatal(rc)));
	if (counted && live_bytes_get(&after))
		t->handshake_bytes += (long long)after.bytes - (long long)before.bytes -
		                      ((long long)evbuffer_get_length(out) - (long long)queued);
	if (tls_bev_retry(rc))
		return false;
	t->established = rc == 0;
	if (t->on_handshake)
		t->on_handshake(t->arg, rc == 0, rc == 0 && gnutls_session_is_resumed(t->session),
		                t->handshake_bytes > 0 ? (size_t)t->handshake_bytes : 0);
	if (rc < 0) {
		tls_bev_fail(t);
		return true;
	}
	/* what was written before the handshake ended (a client's first queries) goes now */
	if (evbuffer_get_length(bufferevent_get_output(t->bev)))
		bufferevent_flush(t->bev, EV_WRITE, BEV_NORMAL);
	return true;
}

static enum bufferevent_filter_result tls_bev_in(struct evbuffer *src, struct evbuffer *dst,
                                                 ev_ssize_t limit, enum bufferevent_flush_mode mode,
                                                 void *arg)
{
	(void)limit; /* a record is decrypted whole: the socket's high-water mark bounds the rest */
	(void)mode;
	struct tls_bev *t = arg;
	if (!t->failed && !t->established && !tls_bev_handshake(t))
		return BEV_NEED_MORE;
	if (t->failed) {
		evbuffer_drain(src, evbuffer_get_length(src));
		return BEV_ERROR;
	}
	uint8_t plain[TLS_BEV_RECORD];
	bool got = false;
	for (;;) {
		ssize_t n = gnutls_record_recv(t->session, plain, sizeof(plain));
		if (n > 0) {
			evbuffer_add(dst, plain, (size_t)n);
			got = true;
		} else if (n == 0 || (tls_bev_retry(n) && !tls_bev_unread(t))) {
			break; /* nothing more now; after a close_notify the socket's end follows */
		} else if (tls_bev_retry(n)) {
			continue;
		} else if (gnutls_error_is_fatal((int)n)) {
			tls_bev_fail(t);
			return BEV_ERROR;
		}
	}
	return got ? BEV_OK : BEV_NEED_MORE;
}

static enum bufferevent_filter_result tls_bev_out(struct evbuffer *src, struct evbuffer *dst,
                                                  ev_ssize_t limit,
                                                  enum bufferevent_flush_mode mode, void *arg)
{
	(void)dst; /* the push function writes to the socket's buffer itself */
	(void)limit;
	(void)mode;
	struct tls_bev *t = arg;
	if (t->failed) {
		evbuffer_drain(src, evbuffer_get_length(src));
		return BEV_ERROR;
	}
	if (!t->established)
		return BEV_NEED_MORE;
	bool sent = false;
	size_t len;
	while ((len = evbuffer_get_length(src)) > 0) {
		if (len > TLS_BEV_RECORD)
			len = TLS_BEV_RECORD;
		ssize_t n =
		    gnutls_record_send(t->session, evbuffer_pullup(src, (ev_ssize_t)len), len);
		if (n < 0) {
			if (tls_bev_retry(n))
				break;
			tls_bev_fail(t);
			return BEV_ERROR;
		}
		evbuffer_drain(src, (size_t)n);
		sent = true;
	}
	return sent ? BEV_OK : BEV_NEED_MORE;
}

static void tls_bev_free(void *arg)
{
	struct tls_bev *t = arg;
	gnutls_deinit(t->session);
	free(t);
}

struct bufferevent *tls_bev_wrap(struct bufferevent *under, gnutls_session_t session,
                                 tls_bev_handshake_fn *on_handshake, void *arg)
{
	struct tls_bev *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	*t = (struct tls_bev){
	    .session = session, .under = under, .on_handshake = on_handshake, .arg = arg};
	t->bev = bufferevent_filter_new(under, tls_bev_in, tls_bev_out, BEV_OPT_CLOSE_ON_FREE,
	                                tls_bev_free, t);
	if (!t->bev) {
		free(t);
		return NULL;
	}
	bufferevent_setwatermark(under, EV_READ, 0, TLS_BEV_READ_HIGH_WATER);
	gnutls_transport_set_ptr(session, t);
	gnutls_transport_set_push_function(session, tls_bev_push);
	gnutls_transport_set_pull_function(session, tls_bev_pull);
	gnutls_transport_set_pull_timeout_function(session, tls_bev_pull_timeout);
	/* a client's first flight goes out now; a server's first step waits for the client's */
	tls_bev_handshake(t);
	return t->bev;
}
