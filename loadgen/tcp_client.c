/* loadgen/tcp_client.c - one client's DNS-over-TCP connection to one target (over TLS: with
 * tls_client's session under it): connects when it has a query, pipelines (RFC 7766), matches
 * answers by ID in any order, closes when idle. */
#include "tcp_client.h"

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dns_tcp.h"
#include "monotonic.h"
#include "tls_client.h"

/* A query written and not yet answered (nor given up). */
struct tcp_inflight {
	uint64_t k;
	uint64_t sent_ns; /* realtime, the matcher's clock */
	uint16_t id;
};

struct tcp_client {
	const struct tcp_shared *shared;
	struct bufferevent *bev; /* NULL while closed */
	struct event *timer;     /* the idle check, armed while a connection is open */
	bool connected;          /* established (a failure before that is a connect failure) */
	uint64_t last_active_ns; /* monotonic: the last query written or answer read */
	uint16_t next_id;        /* IDs are handed out in turn, skipping those in flight */
	struct tcp_inflight *inflight; /* unordered: answers come in any order */
	unsigned count, cap;
	/* DoT: the open connection's session (NULL while closed), whether its handshake ended well
	 * or failed, and the last session's resumption data, kept across connections */
	gnutls_session_t session;
	bool handshook, handshake_failed;
	gnutls_datum_t saved;
};

static void tcp_client_on_timer(evutil_socket_t fd, short what, void *arg);

struct tcp_client *tcp_client_new(const struct tcp_shared *shared)
{
	struct tcp_client *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->shared = shared;
	c->timer = evtimer_new(shared->base, tcp_client_on_timer, c);
	if (!c->timer) {
		free(c);
		return NULL;
	}
	return c;
}

/* The connection is gone (closed by either side, or failed): what was in flight on it can no
 * longer be answered and times out in the matcher. */
static void tcp_client_close(struct tcp_client *c)
{
	counters_add(&c->shared->counters->lost_in_flight, c->count);
	if (c->connected)
		counters_sub(&c->shared->counters->open, 1);
	c->count = 0;
	if (c->handshook && c->shared->tls->resume)
		tls_client_save(c->session, &c->saved);
	bufferevent_free(c->bev);
	c->bev = NULL;
	c->session = NULL;
	c->connected = c->handshook = c->handshake_failed = false;
	evtimer_del(c->timer);
}

static void tcp_client_arm(struct tcp_client *c, uint64_t after_ns)
{
	struct timeval tv = {.tv_sec = (time_t)(after_ns / 1000000000u),
	                     .tv_usec = (suseconds_t)(after_ns % 1000000000u / 1000)};
	evtimer_add(c->timer, &tv);
}

/* Forgets queries the matcher no longer waits for (older than the timeout). */
static void tcp_client_prune(struct tcp_client *c, uint64_t now_ns)
{
	for (unsigned i = c->count; i-- > 0;)
		if (now_ns > c->inflight[i].sent_ns &&
		    now_ns - c->inflight[i].sent_ns >= c->shared->timeout_ns)
			c->inflight[i] = c->inflight[--c->count];
}

static void tcp_client_on_timer(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	struct tcp_client *c = arg;
	if (!c->bev)
		return;
	tcp_client_prune(c, realtime_ns());
	uint64_t idle_ns = c->shared->idle_ns, quiet = monotonic_ns() - c->last_active_ns;
	bool busy = c->count || evbuffer_get_length(bufferevent_get_output(c->bev));
	if (!busy && quiet >= idle_ns) {
		counters_add(&c->shared->counters->closed_idle, 1);
		tcp_client_close(c);
		return;
	}
	tcp_client_arm(c, busy ? idle_ns : idle_ns - quiet);
}

/* The answer msg (len bytes) arrived at now_ns: the query written under its ID. */
static void tcp_client_answer(struct tcp_client *c, const uint8_t *msg, size_t len, uint64_t now_ns)
{
	struct matcher *m = c->shared->matcher;
	uint16_t id = len >= 2 ? (uint16_t)(msg[0] << 8 | msg[1]) : 0;
	for (unsigned i = 0; len >= 2 && i < c->count; i++) {
		if (c->inflight[i].id != id)
			continue;
		uint64_t latency;
		if (matcher_answer_query(m, c->inflight[i].k, msg, len, now_ns, &latency)) {
			counters_add(&c->shared->counters->answered, 1);
			latency_hist_add(&c->shared->counters->latency, latency);
		}
		/* answered, too late, or with another question (the query then times out): either
		 * way the ID is free again */
		c->inflight[i] = c->inflight[--c->count];
		return;
	}
	/* an ID this connection is not waiting for */
	counters_add(&m->counters->bytes_received, len);
	counters_add(&m->counters->unexpected, 1);
}

static void tcp_client_on_read(struct bufferevent *bev, void *arg)
{
	struct tcp_client *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	uint64_t now = realtime_ns();
	uint8_t *msg;
	size_t len;
	while (dns_tcp_next(in, &msg, &len)) {
		tcp_client_answer(c, msg, len, now);
		evbuffer_drain(in, len);
	}
	c->last_active_ns = monotonic_ns();
}

static void tcp_client_on_event(struct bufferevent *bev, short what, void *arg)
{
	(void)bev;
	struct tcp_client *c = arg;
	struct tcp_counters *tc = c->shared->counters;
	if (what & BEV_EVENT_CONNECTED) {
		c->connected = true;
		counters_add(&tc->connects, 1);
		counters_add(&tc->open, 1);
		return;
	}
	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)))
		return;
	if (!c->connected)
		counters_add(&tc->connect_failures, 1);
	else if (c->handshake_failed)
		; /* counted in handshake_failures */
	else if (what & BEV_EVENT_EOF)
		counters_add(&tc->closed_by_server, 1);
	else
		counters_add(&tc->resets, 1);
	tcp_client_close(c);
}

static void tcp_client_on_handshake(void *arg, bool ok, bool resumed, size_t held_bytes)
{
	(void)held_bytes;
	struct tcp_client *c = arg;
	struct tcp_counters *tc = c->shared->counters;
	c->handshook = ok;
	c->handshake_failed = !ok;
	counters_add(&tc->handshakes, ok);
	counters_add(&tc->handshake_failures, !ok);
	counters_add(&tc->resumed, resumed);
}

/* The connection's bufferevent over fd: over TLS, a session's layer over the socket's. It owns
 * fd, closed when it cannot be made. */
static struct bufferevent *tcp_client_bev_new(struct tcp_client *c, int fd)
{
	struct bufferevent *sock =
	    bufferevent_socket_new(c->shared->base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (!sock)
		close(fd);
	if (!sock || !c->shared->tls)
		return sock;
	struct bufferevent *bev = tls_client_wrap(c->shared->tls, sock, &c->saved,
	                                          tcp_client_on_handshake, c, &c->session);
	if (!bev)
		bufferevent_free(sock);
	return bev;
}

/* Starts a connection; queries written meanwhile wait in its output buffer. False (counted as a
 * connect failure) when it cannot even start. */
static bool tcp_client_connect(struct tcp_client *c)
{
	const struct sockaddr_storage *addr = c->shared->addr;
	int fd = socket(addr->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		/* pipelined queries are small writes: Nagle would hold each behind the last ACK */
		int one = 1;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		c->bev = tcp_client_bev_new(c, fd);
	}
	if (c->bev) {
		bufferevent_setcb(c->bev, tcp_client_on_read, NULL, tcp_client_on_event, c);
		bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	}
	/* the socket's own bufferevent connects (under TLS it is the layer below c->bev); a
	 * refusal found at once still comes as a (deferred) error event, like a later one */
	struct bufferevent *sock = c->bev ? bufferevent_get_underlying(c->bev) : NULL;
	if (!c->bev ||
	    bufferevent_socket_connect(sock ? sock : c->bev, (const struct sockaddr *)addr,
	                               (int)c->shared->addr_len) != 0) {
		if (c->bev)
			bufferevent_free(c->bev);
		c->bev = NULL;
		c->session = NULL;
		counters_add(&c->shared->counters->connect_failures, 1);
		return false;
	}
	c->last_active_ns = monotonic_ns();
	tcp_client_arm(c, c->shared->idle_ns);
	return true;
}

/* An ID no query in flight on this connection has (RFC 7766 §6.2.1.1: the ID alone tells the
 * answers apart). There are at most TCP_CLIENT_INFLIGHT_MAX in flight, so one is soon found. */
static uint16_t tcp_client_id(struct tcp_client *c)
{
	for (;;) {
		uint16_t id = c->next_id++;
		unsigned i = 0;
		while (i < c->count && c->inflight[i].id != id)
			i++;
		if (i == c->count)
			return id;
	}
}

/* Room for one more query in flight. */
static bool tcp_client_room(struct tcp_client *c, uint64_t now_ns)
{
	if (c->count == TCP_CLIENT_INFLIGHT_MAX)
		tcp_client_prune(c, now_ns);
	if (c->count == TCP_CLIENT_INFLIGHT_MAX ||
	    evbuffer_get_length(bufferevent_get_output(c->bev)) > TCP_CLIENT_WRITE_MAX)
		return false;
	if (c->count == c->cap) {
		unsigned cap = c->cap ? 2 * c->cap : 8;
		struct tcp_inflight *grown = realloc(c->inflight, cap * sizeof(*grown));
		if (!grown)
			return false;
		c->inflight = grown;
		c->cap = cap;
	}
	return true;
}

bool tcp_client_send(struct tcp_client *c, uint64_t k, uint64_t now_ns)
{
	if (!c->bev && !tcp_client_connect(c))
		return false;
	if (!tcp_client_room(c, now_ns)) {
		counters_add(&c->shared->counters->dropped, 1);
		return false;
	}
	/* a stored message has ID 0; the one pacing thread writes through this buffer */
	static uint8_t wire[UINT16_MAX];
	size_t len;
	const uint8_t *msg = querystream_message(c->shared->queries, k, &len);
	memcpy(wire, msg, len);
	uint16_t id = tcp_client_id(c);
	wire[0] = (uint8_t)(id >> 8);
	wire[1] = (uint8_t)id;
	dns_tcp_write(c->bev, wire, len);
	c->inflight[c->count++] = (struct tcp_inflight){.k = k, .sent_ns = now_ns, .id = id};
	c->last_active_ns = monotonic_ns();
	return true;
}

void tcp_client_free(struct tcp_client *c)
{
	if (!c)
		return;
	if (c->bev)
		bufferevent_free(c->bev);
	event_free(c->timer);
	free(c->inflight);
	tls_client_forget(&c->saved);
	free(c);
}
