/* upstream/net.c - the servers' UDP and TCP sockets on one event loop: one UDP socket for all
 * addresses (udp_shared.c) or, where it cannot be opened, one per address; TCP per address;
 * replies delayed on a timer wheel, whose 1 ms tick also reads the shared socket while replies
 * wait. */
#define _GNU_SOURCE
#include "net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/listener.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "dns_tcp.h"
#include "udp_shared.h"

#define NET_BATCH 64
#define NET_POLL_BATCHES 128 /* 8,192 queries: 8 ms of 1M/s, far beyond any sender here */
#define NET_WHEEL_SLOTS 8192 /* ms: beyond NETEM_MAX_DELAY_MS */

/* A UDP socket and its event: the shared one, or one server's. */
struct net_udp {
	struct net *net;
	const struct server *server; /* NULL: shared, the server is each query's destination */
	int fd;
	struct event *event;
};

/* One server's address: its TCP listener, and its own UDP socket when there is no shared one. */
struct net_endpoint {
	struct net *net;
	const struct server *server;
	struct net_udp udp;
	struct evconnlistener *listener;
};

struct net_pending {
	struct wheel_node node; /* first: the wheel hands back this address */
	int fd;
	struct sockaddr_in to;
	uint32_t from; /* the reply's source on the shared socket (host order), else 0 */
	size_t len;
	uint8_t *data; /* the reply serve_packet made (malloc'ed), sent as it is */
};

/* Replies gathered for one sendmmsg call on one socket. */
struct net_batch {
	int fd;
	int count;
	struct mmsghdr msgs[NET_BATCH];
	struct iovec iov[NET_BATCH];
	struct sockaddr_in to[NET_BATCH];
	union udp_shared_control control[NET_BATCH];
	void *owned[NET_BATCH]; /* freed once sent */
};

struct net {
	struct event_base *base;
	struct net_batch out;
	const struct server_plan *plan;
	struct serve *serve;
	struct net_udp shared; /* fd -1: one socket per address (the fallback) */
	struct net_endpoint *eps;
	int neps;
	int port;
	struct wheel wheel;
	struct event *tick;
	bool tick_armed;
	bool polling; /* the shared socket is read on the tick, not on its own event */
	struct net_reads woken, polled;
};

struct net_tcp_conn {
	struct net_endpoint *ep;
	struct sockaddr_in peer;
};

double net_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t net_now_ms(void)
{
	return (uint64_t)(net_now_s() * 1000.0);
}

static void net_flush(struct net_batch *b)
{
	int sent = 0;
	while (sent < b->count) {
		int r = sendmmsg(b->fd, b->msgs + sent, (unsigned)(b->count - sent), MSG_DONTWAIT);
		if (r <= 0)
			break; /* socket buffer full: the rest is lost, as on a real network */
		sent += r;
	}
	for (int i = 0; i < b->count; i++)
		free(b->owned[i]);
	b->count = 0;
}

/* Queues data (inside the malloc'ed block owned) for to on fd, from the address from on the shared
 * socket (0: the socket's own); sends when the batch is full or the socket changes. */
static void net_queue(struct net_batch *b, int fd, const struct sockaddr_in *to, uint32_t from,
                      void *data, size_t len, void *owned)
{
	if (b->count && (b->fd != fd || b->count == NET_BATCH))
		net_flush(b);
	int i = b->count++;
	b->fd = fd;
	b->to[i] = *to;
	b->iov[i].iov_base = data;
	b->iov[i].iov_len = len;
	memset(&b->msgs[i], 0, sizeof(b->msgs[i]));
	b->msgs[i].msg_hdr.msg_name = &b->to[i];
	b->msgs[i].msg_hdr.msg_namelen = sizeof(b->to[i]);
	b->msgs[i].msg_hdr.msg_iov = &b->iov[i];
	b->msgs[i].msg_hdr.msg_iovlen = 1;
	if (from)
		udp_shared_set_source(&b->msgs[i].msg_hdr, &b->control[i], from);
	b->owned[i] = owned;
}

static void net_fire(struct wheel_node *node, void *ctx)
{
	struct net *n = ctx;
	struct net_pending *p = (struct net_pending *)node;
	net_queue(&n->out, p->fd, &p->to, p->from, p->data, p->len, p->data);
	free(p);
}

static void net_arm_tick(struct net *n)
{
	if (n->tick_armed || n->wheel.count == 0)
		return;
	struct timeval tv = {0, 1000};
	event_add(n->tick, &tv);
	n->tick_armed = true;
}

/* The server a query on u went to: u's own, or on the shared socket the one at the query's
 * destination (NULL when no server has that address: counted, not answered). */
static const struct server *net_udp_server(struct net_udp *u, const struct msghdr *m)
{
	uint32_t to;
	if (u->server)
		return u->server;
	const struct server *s =
	    udp_shared_destination(m, &to) ? servers_find(u->net->plan, to) : NULL;
	if (!s)
		u->net->serve->stats.not_server++;
	return s;
}

/* When m reached the socket, on the monotonic clock: the kernel's SO_TIMESTAMPNS stamp (real
 * time) moved by real_to_mono, or now when there is none. A query polled at the tick, up to a
 * millisecond after it came, is still delayed from its arrival. */
static double net_arrival_s(const struct msghdr *m, double real_to_mono, double now)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR((struct msghdr *)m, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_TIMESTAMPNS)
			continue;
		struct timespec ts;
		memcpy(&ts, CMSG_DATA(c), sizeof(ts));
		double at = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9 + real_to_mono;
		return at < now ? at : now;
	}
	return now;
}

/* Monotonic minus real time now, to move the kernel's arrival stamps onto the wheel's clock. */
static double net_real_to_mono(double now)
{
	struct timespec real;
	clock_gettime(CLOCK_REALTIME, &real);
	return now - ((double)real.tv_sec + (double)real.tv_nsec / 1e9);
}

/* Reads what waits on u and answers it: at once, or on the wheel at arrival + delay. Counts into
 * r. Woken: a few batches, so one busy socket cannot starve the others (its event fires again);
 * arrival is now. Polled: the tick is the only reader, so everything a tick's millisecond (or a
 * late tick's several) brought, up to NET_POLL_BATCHES; arrival is the kernel's stamp (reading it
 * costs a real-time clock read, a system call on some virtual machines, so woken reads skip it). */
static void net_udp_drain(struct net_udp *u, struct net_reads *r, bool polled)
{
	struct net *n = u->net;
	static uint8_t bufs[NET_BATCH][4096];
	static union udp_shared_control control[NET_BATCH];
	struct mmsghdr msgs[NET_BATCH];
	struct iovec iov[NET_BATCH];
	struct sockaddr_in from[NET_BATCH];
	double real_to_mono = 0;
	int rounds = polled ? NET_POLL_BATCHES : 8;
	for (int round = 0; round < rounds; round++) {
		memset(msgs, 0, sizeof(msgs));
		for (int i = 0; i < NET_BATCH; i++) {
			iov[i].iov_base = bufs[i];
			iov[i].iov_len = sizeof(bufs[i]);
			msgs[i].msg_hdr.msg_iov = &iov[i];
			msgs[i].msg_hdr.msg_iovlen = 1;
			msgs[i].msg_hdr.msg_name = &from[i];
			msgs[i].msg_hdr.msg_namelen = sizeof(from[i]);
			if (!u->server) /* the shared socket: destination and arrival stamp */
				udp_shared_expect_destination(&msgs[i].msg_hdr, &control[i]);
		}
		int got = recvmmsg(u->fd, msgs, NET_BATCH, MSG_DONTWAIT, NULL);
		if (got <= 0)
			return;
		r->calls++;
		r->queries += (uint64_t)got;
		double now = net_now_s();
		if (polled && round == 0)
			real_to_mono = net_real_to_mono(now);
		for (int i = 0; i < got; i++) {
			uint8_t *wire = NULL;
			size_t wire_len = 0;
			uint32_t delay = 0;
			if (from[i].sin_family != AF_INET)
				continue;
			const struct server *s = net_udp_server(u, &msgs[i].msg_hdr);
			if (!s)
				continue;
			double arrival =
			    polled ? net_arrival_s(&msgs[i].msg_hdr, real_to_mono, now) : now;
			if (!serve_packet(n->serve, s, ntohl(from[i].sin_addr.s_addr),
			                  ntohs(from[i].sin_port), bufs[i], msgs[i].msg_len, false,
			                  arrival, &wire, &wire_len, &delay))
				continue;
			/* on the shared socket the reply must leave from the address asked */
			uint32_t source = u->server ? 0 : s->addr;
			uint64_t due_ms = (uint64_t)(arrival * 1000.0) + delay;
			if (due_ms <= (uint64_t)(now * 1000.0)) {
				net_queue(&n->out, u->fd, &from[i], source, wire, wire_len, wire);
				continue;
			}
			struct net_pending *p = malloc(sizeof(*p));
			if (!p) {
				free(wire);
				continue;
			}
			p->fd = u->fd;
			p->to = from[i];
			p->from = source;
			p->len = wire_len;
			p->data = wire;
			wheel_add(&n->wheel, &p->node, due_ms);
		}
		if (got < NET_BATCH)
			return;
	}
}

/* Polling: while replies wait on the wheel, its 1 ms tick reads the shared socket instead of a
 * wake-up per arriving query (under a spike spread over hundreds of addresses a wake-up found
 * about one query; a tick finds all that came in the last millisecond). The queries' delays still
 * count from their arrival. Per-address sockets are always read on their own events. */
static void net_poll_start(struct net *n)
{
	if (n->polling || !n->tick_armed || n->shared.fd < 0)
		return;
	event_del(n->shared.event);
	n->polling = true;
}

static void net_poll_stop(struct net *n)
{
	if (!n->polling || n->tick_armed)
		return;
	event_add(n->shared.event, NULL);
	n->polling = false;
}

static void net_tick(evutil_socket_t fd, short what, void *arg)
{
	struct net *n = arg;
	n->tick_armed = false;
	if (n->polling)
		net_udp_drain(&n->shared, &n->polled, true);
	wheel_advance(&n->wheel, net_now_ms(), net_fire, n);
	net_flush(&n->out);
	net_arm_tick(n);
	net_poll_stop(n);
}

static void net_udp_read(evutil_socket_t fd, short what, void *arg)
{
	struct net_udp *u = arg;
	struct net *n = u->net;
	net_udp_drain(u, &n->woken, false);
	net_flush(&n->out);
	net_arm_tick(n);
	if (!u->server)
		net_poll_start(n);
}

static void net_tcp_event(struct bufferevent *bev, short what, void *arg)
{
	/* An idle connection past its timeout is closed too: libevent only reports it, and a
	 * client that opens connections and goes quiet would otherwise hold them forever. */
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR | BEV_EVENT_TIMEOUT)) {
		free(arg);
		bufferevent_free(bev);
	}
}

static void net_tcp_read(struct bufferevent *bev, void *arg)
{
	struct net_tcp_conn *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	uint8_t *msg;
	size_t len;
	while (dns_tcp_next(in, &msg, &len)) {
		uint8_t *wire = NULL;
		size_t wire_len = 0;
		uint32_t delay = 0;
		bool ok = serve_packet(c->ep->net->serve, c->ep->server,
		                       ntohl(c->peer.sin_addr.s_addr), ntohs(c->peer.sin_port), msg,
		                       len, true, net_now_s(), &wire, &wire_len, &delay);
		evbuffer_drain(in, len);
		if (!ok) {
			/* a malformed message on a stream: the framing can no longer be trusted */
			free(c);
			bufferevent_free(bev);
			return;
		}
		dns_tcp_write(bev, wire, wire_len);
		free(wire);
	}
}

static void net_tcp_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
                           int salen, void *arg)
{
	struct net_endpoint *ep = arg;
	struct net_tcp_conn *c = calloc(1, sizeof(*c));
	struct bufferevent *bev =
	    c ? bufferevent_socket_new(ep->net->base, fd, BEV_OPT_CLOSE_ON_FREE) : NULL;
	if (!bev) {
		free(c);
		close(fd);
		return;
	}
	c->ep = ep;
	if (sa->sa_family == AF_INET)
		memcpy(&c->peer, sa, sizeof(c->peer));
	struct timeval idle = {10, 0};
	bufferevent_set_timeouts(bev, &idle, &idle);
	bufferevent_setcb(bev, net_tcp_read, NULL, net_tcp_event, c);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
}

static void net_udp_close(struct net_udp *u)
{
	if (u->event)
		event_free(u->event);
	if (u->fd >= 0)
		close(u->fd);
	u->event = NULL;
	u->fd = -1;
}

static void net_close_endpoints(struct net *n)
{
	net_udp_close(&n->shared);
	for (int i = 0; i < n->neps; i++) {
		struct net_endpoint *ep = &n->eps[i];
		net_udp_close(&ep->udp);
		if (ep->listener)
			evconnlistener_free(ep->listener);
		ep->listener = NULL;
	}
}

/* A UDP socket with room for a spike's queries, or -1. */
static int net_udp_socket(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	/* spikes arrive faster than a busy core drains them: room for tens of thousands of
	 * queries; the FORCE variants pass net.core.rmem_max when running as root */
	int buf = 8 << 20;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof(buf)) != 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &buf, sizeof(buf)) != 0)
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
	return fd;
}

/* The port fd is bound to. */
static int net_bound_port(int fd)
{
	struct sockaddr_in a;
	socklen_t alen = sizeof(a);
	if (getsockname(fd, (struct sockaddr *)&a, &alen) != 0)
		return 0;
	return ntohs(a.sin_port);
}

/* Starts watching u's socket. */
static bool net_udp_watch(struct net *n, struct net_udp *u)
{
	u->net = n;
	u->event = event_new(n->base, u->fd, EV_READ | EV_PERSIST, net_udp_read, u);
	return u->event && event_add(u->event, NULL) == 0;
}

/* Opens the shared UDP socket at port (0: a free one, then n->port). Returns 0 or errno (err
 * filled). */
static int net_open_shared(struct net *n, int port, char *err, size_t err_size)
{
	n->shared.fd = net_udp_socket();
	if (n->shared.fd < 0) {
		snprintf(err, err_size, "cannot open a UDP socket: %s", strerror(errno));
		return errno;
	}
	int e = udp_shared_bind(n->shared.fd, port, err, err_size);
	if (e)
		return e;
	/* each query's arrival time: a polled query's delay counts from then, however late the tick
	 * reads it (only the shared socket is polled, so only it needs the stamps) */
	int one = 1;
	setsockopt(n->shared.fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	if (!net_udp_watch(n, &n->shared)) {
		snprintf(err, err_size, "libevent could not watch the shared UDP socket");
		return ENOMEM;
	}
	n->port = port ? port : net_bound_port(n->shared.fd);
	return 0;
}

/* Binds ep's own UDP socket at *port (0: a free one, then *port). Returns 0 or errno. */
static int net_bind_udp(struct net *n, struct net_endpoint *ep, int *port, const char *text,
                        char *err, size_t err_size)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)*port)};
	a.sin_addr.s_addr = htonl(ep->server->addr);
	ep->udp.fd = net_udp_socket();
	if (ep->udp.fd < 0 || bind(ep->udp.fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		int e = errno;
		snprintf(err, err_size, "cannot bind UDP %s:%d: %s", text, *port, strerror(e));
		return e;
	}
	if (*port == 0)
		*port = net_bound_port(ep->udp.fd);
	ep->udp.server = ep->server;
	if (!net_udp_watch(n, &ep->udp)) {
		snprintf(err, err_size, "libevent could not watch %s:%d", text, *port);
		return ENOMEM;
	}
	return 0;
}

static int net_listen_tcp(struct net *n, struct net_endpoint *ep, int port, const char *text,
                          char *err, size_t err_size)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	a.sin_addr.s_addr = htonl(ep->server->addr);
	int tcp = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	int one = 1;
	setsockopt(tcp, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (tcp < 0 || bind(tcp, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(tcp, 128) != 0) {
		int e = errno;
		snprintf(err, err_size, "cannot bind TCP %s:%d: %s", text, port, strerror(e));
		if (tcp >= 0)
			close(tcp);
		return e;
	}
	ep->listener =
	    evconnlistener_new(n->base, net_tcp_accept, ep, LEV_OPT_CLOSE_ON_FREE, -1, tcp);
	if (!ep->listener) {
		snprintf(err, err_size, "libevent could not watch %s:%d", text, port);
		return ENOMEM;
	}
	return 0;
}

/* Binds every endpoint at port: TCP, and UDP unless the shared socket is open. Returns 0, or
 * errno of the failing bind (err filled). */
static int net_bind_all(struct net *n, int port, char *err, size_t err_size)
{
	for (int i = 0; i < n->neps; i++) {
		struct net_endpoint *ep = &n->eps[i];
		char text[16];
		servers_addr_text(ep->server->addr, text);
		int e = n->shared.fd >= 0 ? 0 : net_bind_udp(n, ep, &port, text, err, err_size);
		if (!e)
			e = net_listen_tcp(n, ep, port, text, err, err_size);
		if (e)
			return e;
	}
	n->port = port;
	return 0;
}

struct net *net_open(struct event_base *base, const struct server_plan *plan, int port,
                     bool try_shared, struct serve *serve, char *err, size_t err_size)
{
	struct net *n = calloc(1, sizeof(*n));
	if (!n) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	n->base = base;
	n->plan = plan;
	n->serve = serve;
	n->shared.fd = -1;
	n->neps = plan->count;
	n->eps = calloc((size_t)n->neps, sizeof(*n->eps));
	for (int i = 0; n->eps && i < n->neps; i++) {
		n->eps[i].net = n;
		n->eps[i].server = &plan->servers[i];
		n->eps[i].udp.fd = -1;
	}
	n->tick = evtimer_new(base, net_tick, n);
	if (!n->eps || !n->tick || !wheel_init(&n->wheel, NET_WHEEL_SLOTS, net_now_ms())) {
		snprintf(err, err_size, "out of memory");
		net_close(n);
		return NULL;
	}
	bool shared = try_shared;
	/* port 0: the first socket picks a port; another program may hold it on some address */
	for (int attempt = 0; attempt < 20; attempt++) {
		int bind_port = port;
		if (shared && net_open_shared(n, port, err, err_size) == 0) {
			bind_port = n->port;
		} else if (shared) {
			fprintf(stderr,
			        "allocspike-upstream: %s: one UDP socket per server address "
			        "instead\n",
			        err);
			shared = false;
			net_udp_close(&n->shared);
		}
		int e = net_bind_all(n, bind_port, err, err_size);
		if (e == 0)
			return n;
		net_close_endpoints(n);
		if (port != 0 || e != EADDRINUSE)
			break;
	}
	net_close(n);
	return NULL;
}

const char *net_udp_sockets(const struct net *n)
{
	return n->shared.fd >= 0 ? "shared" : "per-address";
}

int net_port(const struct net *n)
{
	return n->port;
}

size_t net_inflight(const struct net *n)
{
	return n->wheel.count;
}

void net_udp_reads(const struct net *n, struct net_reads *woken, struct net_reads *polled)
{
	*woken = n->woken;
	*polled = n->polled;
}

static void net_discard(struct wheel_node *node, void *ctx)
{
	free(((struct net_pending *)node)->data);
	free(node);
}

void net_close(struct net *n)
{
	if (!n)
		return;
	if (n->eps)
		net_close_endpoints(n);
	if (n->wheel.head) {
		/* pending replies are dropped at exit: advance past the horizon frees them */
		wheel_advance(&n->wheel, n->wheel.now_ms + n->wheel.nslots + 1, net_discard, NULL);
		wheel_free(&n->wheel);
	}
	if (n->tick)
		event_free(n->tick);
	free(n->eps);
	free(n);
}
