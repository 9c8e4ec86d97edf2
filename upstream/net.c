/* upstream/net.c - per-address UDP/TCP sockets on one event loop; replies delayed on a timer wheel.
 */
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

#define NET_BATCH 64
#define NET_WHEEL_SLOTS 8192 /* ms: beyond NETEM_MAX_DELAY_MS */

struct net_endpoint {
	struct net *net;
	const struct server *server;
	int udp;
	struct event *udp_event;
	struct evconnlistener *listener;
};

struct net_pending {
	struct wheel_node node; /* first: the wheel hands back this address */
	int fd;
	struct sockaddr_in to;
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
	void *owned[NET_BATCH]; /* freed once sent */
};

struct net {
	struct event_base *base;
	struct net_batch out;
	const struct server_plan *plan;
	struct serve *serve;
	struct net_endpoint *eps;
	int neps;
	int port;
	struct wheel wheel;
	struct event *tick;
	bool tick_armed;
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

/* Queues data (inside the malloc'ed block owned) for to on fd; sends when the batch is full or
 * the socket changes. */
static void net_queue(struct net_batch *b, int fd, const struct sockaddr_in *to, void *data,
                      size_t len, void *owned)
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
	b->owned[i] = owned;
}

static void net_fire(struct wheel_node *node, void *ctx)
{
	struct net *n = ctx;
	struct net_pending *p = (struct net_pending *)node;
	net_queue(&n->out, p->fd, &p->to, p->data, p->len, p->data);
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

static void net_tick(evutil_socket_t fd, short what, void *arg)
{
	struct net *n = arg;
	n->tick_armed = false;
	wheel_advance(&n->wheel, net_now_ms(), net_fire, n);
	net_flush(&n->out);
	net_arm_tick(n);
}

static void net_udp_read(evutil_socket_t fd, short what, void *arg)
{
	struct net_endpoint *ep = arg;
	struct net *n = ep->net;
	static uint8_t bufs[NET_BATCH][4096];
	struct mmsghdr msgs[NET_BATCH];
	struct iovec iov[NET_BATCH];
	struct sockaddr_in from[NET_BATCH];
	/* a bounded number of batches per wake-up, so one busy address cannot starve the others */
	for (int round = 0; round < 8; round++) {
		memset(msgs, 0, sizeof(msgs));
		for (int i = 0; i < NET_BATCH; i++) {
			iov[i].iov_base = bufs[i];
			iov[i].iov_len = sizeof(bufs[i]);
			msgs[i].msg_hdr.msg_iov = &iov[i];
			msgs[i].msg_hdr.msg_iovlen = 1;
			msgs[i].msg_hdr.msg_name = &from[i];
			msgs[i].msg_hdr.msg_namelen = sizeof(from[i]);
		}
		int got = recvmmsg(fd, msgs, NET_BATCH, MSG_DONTWAIT, NULL);
		if (got <= 0)
			return;
		double now = net_now_s();
		uint64_t now_ms = (uint64_t)(now * 1000.0);
		for (int i = 0; i < got; i++) {
			uint8_t *wire = NULL;
			size_t wire_len = 0;
			uint32_t delay = 0;
			if (from[i].sin_family != AF_INET)
				continue;
			if (!serve_packet(n->serve, ep->server, ntohl(from[i].sin_addr.s_addr),
			                  ntohs(from[i].sin_port), bufs[i], msgs[i].msg_len, false,
			                  now, &wire, &wire_len, &delay))
				continue;
			if (delay == 0) {
				net_queue(&n->out, fd, &from[i], wire, wire_len, wire);
				continue;
			}
			struct net_pending *p = malloc(sizeof(*p));
			if (!p) {
				free(wire);
				continue;
			}
			p->fd = fd;
			p->to = from[i];
			p->len = wire_len;
			p->data = wire;
			wheel_add(&n->wheel, &p->node, now_ms + delay);
		}
		net_flush(&n->out);
		net_arm_tick(n);
		if (got < NET_BATCH)
			return;
	}
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

static void net_close_endpoints(struct net *n)
{
	for (int i = 0; i < n->neps; i++) {
		struct net_endpoint *ep = &n->eps[i];
		if (ep->udp_event)
			event_free(ep->udp_event);
		if (ep->listener)
			evconnlistener_free(ep->listener);
		if (ep->udp >= 0)
			close(ep->udp);
		ep->udp_event = NULL;
		ep->listener = NULL;
		ep->udp = -1;
	}
}

/* Binds every endpoint at port; returns 0, or errno of the failing bind (err filled). */
static int net_bind_all(struct net *n, int port, char *err, size_t err_size)
{
	for (int i = 0; i < n->neps; i++) {
		struct net_endpoint *ep = &n->eps[i];
		struct sockaddr_in a = {.sin_family = AF_INET};
		a.sin_addr.s_addr = htonl(ep->server->addr);
		a.sin_port = htons((uint16_t)port);
		char text[16];
		servers_addr_text(ep->server->addr, text);
		ep->udp = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		/* spikes arrive faster than a busy core drains them: room for tens of thousands of
		 * queries; the FORCE variants pass net.core.rmem_max when running as root */
		int buf = 8 << 20;
		if (setsockopt(ep->udp, SOL_SOCKET, SO_RCVBUFFORCE, &buf, sizeof(buf)) != 0)
			setsockopt(ep->udp, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
		if (setsockopt(ep->udp, SOL_SOCKET, SO_SNDBUFFORCE, &buf, sizeof(buf)) != 0)
			setsockopt(ep->udp, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
		if (ep->udp < 0 || bind(ep->udp, (struct sockaddr *)&a, sizeof(a)) != 0) {
			int e = errno;
			snprintf(err, err_size, "cannot bind UDP %s:%d: %s", text, port,
			         strerror(e));
			return e;
		}
		if (port == 0) {
			socklen_t alen = sizeof(a);
			getsockname(ep->udp, (struct sockaddr *)&a, &alen);
			port = ntohs(a.sin_port);
			n->port = port;
		}
		int tcp = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		int one = 1;
		setsockopt(tcp, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (tcp < 0 || bind(tcp, (struct sockaddr *)&a, sizeof(a)) != 0 ||
		    listen(tcp, 128) != 0) {
			int e = errno;
			snprintf(err, err_size, "cannot bind TCP %s:%d: %s", text, port,
			         strerror(e));
			if (tcp >= 0)
				close(tcp);
			return e;
		}
		ep->listener =
		    evconnlistener_new(n->base, net_tcp_accept, ep, LEV_OPT_CLOSE_ON_FREE, -1, tcp);
		ep->udp_event = event_new(n->base, ep->udp, EV_READ | EV_PERSIST, net_udp_read, ep);
		if (!ep->listener || !ep->udp_event || event_add(ep->udp_event, NULL) != 0) {
			snprintf(err, err_size, "libevent could not watch %s:%d", text, port);
			return ENOMEM;
		}
	}
	n->port = port;
	return 0;
}

struct net *net_open(struct event_base *base, const struct server_plan *plan, int port,
                     struct serve *serve, char *err, size_t err_size)
{
	struct net *n = calloc(1, sizeof(*n));
	if (!n) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	n->base = base;
	n->plan = plan;
	n->serve = serve;
	n->neps = plan->count;
	n->eps = calloc((size_t)n->neps, sizeof(*n->eps));
	n->tick = evtimer_new(base, net_tick, n);
	if (!n->eps || !n->tick || !wheel_init(&n->wheel, NET_WHEEL_SLOTS, net_now_ms())) {
		snprintf(err, err_size, "out of memory");
		net_close(n);
		return NULL;
	}
	for (int i = 0; i < n->neps; i++) {
		n->eps[i].net = n;
		n->eps[i].server = &plan->servers[i];
		n->eps[i].udp = -1;
	}
	/* port 0: the first address picks a port; another program may hold it elsewhere */
	for (int attempt = 0; attempt < 20; attempt++) {
		int e = net_bind_all(n, port, err, err_size);
		if (e == 0)
			return n;
		net_close_endpoints(n);
		if (port != 0 || e != EADDRINUSE)
			break;
	}
	net_close(n);
	return NULL;
}

int net_port(const struct net *n)
{
	return n->port;
}

size_t net_inflight(const struct net *n)
{
	return n->wheel.count;
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
