/* resolver/server.c - client-facing sockets: UDP queries received in batches, answers sent; the TCP
 * listener on the same address and port, and the TLS listeners, handed to stream.c. */
#include "server.h"

#include <errno.h>
#include <event2/event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_write_file.h"
#include "resolver.h"
#include "sockaddr_parse.h"
#include "stream.h"
#include "tls.h"

struct server_socket {
	int fd;
	struct event *ev;
	struct resolver_addr bound;
};

struct server {
	struct server_socket sock[RESOLVER_MAX_LISTEN];
	int n;
	struct resolver_addr tls_bound[RESOLVER_MAX_LISTEN];
	int n_tls;
	route_query_fn *on_query;
};

static uint8_t server_rx[65536];

static void server_on_read(evutil_socket_t fd, short what, void *arg)
{
	struct resolver *r = arg;
	route_query_fn *on_query = r->server->on_query;
	/* A bounded batch per wake-up keeps upstream replies and timers served under load. */
	for (int i = 0; i < 64; i++) {
		struct route from = {.fd = fd, .addrlen = sizeof(from.addr)};
		ssize_t n = recvfrom(fd, server_rx, sizeof(server_rx), 0,
		                     (struct sockaddr *)&from.addr, &from.addrlen);
		if (n < 0)
			return;
		on_query(r, &from, server_rx, (size_t)n);
	}
}

/* A socket of type bound to a (an address of option): -1 with err filled. */
static int server_bind(const char *option, const struct resolver_addr *a, int type, char *err,
                       size_t err_size)
{
	char text[128];
	sockaddr_format((const struct sockaddr *)&a->sa, text, sizeof(text));
	const char *proto = type == SOCK_DGRAM ? "UDP" : "TCP";
	int fd = socket(a->sa.ss_family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, err_size, "%s %s: %s socket: %s", option, text, proto,
		         strerror(errno));
		return -1;
	}
	int one = 1, rcvbuf = 8 << 20;
	if (a->sa.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (type == SOCK_DGRAM)
		/* Spikes arrive faster than one loop turn: a deep receive queue absorbs them. */
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	else
		/* a restarted resolver binds again while old connections are in TIME_WAIT */
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* backlog: a connection spike waits in the kernel for the next accept batch */
	if (bind(fd, (const struct sockaddr *)&a->sa, a->len) < 0 ||
	    (type == SOCK_STREAM && listen(fd, 1024) < 0)) {
		snprintf(err, err_size, "%s %s: %s bind: %s", option, text, proto, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* The TCP listener for the UDP socket bound at bound: the same address and port. Port 0 was
 * asked for: the kernel's choice for UDP may be taken for TCP, so the pair is tried again. */
static int server_bind_pair(struct resolver *r, const struct resolver_addr *a, int *udp_fd,
                            int *tcp_fd, char *err, size_t err_size)
{
	bool any_port = sockaddr_port((const struct sockaddr *)&a->sa) == 0;
	for (int attempt = 0;; attempt++) {
		*tcp_fd = -1;
		if ((*udp_fd = server_bind("--listen", a, SOCK_DGRAM, err, err_size)) < 0)
			return -1;
		if (!r->cfg.tcp)
			return 0;
		struct resolver_addr same = {.len = sizeof(same.sa)};
		getsockname(*udp_fd, (struct sockaddr *)&same.sa, &same.len);
		if ((*tcp_fd = server_bind("--listen", &same, SOCK_STREAM, err, err_size)) >= 0)
			return 0;
		close(*udp_fd);
		if (!any_port || attempt >= 16)
			return -1;
	}
}

int server_open(struct resolver *r, route_query_fn *on_query, char *err, size_t err_size)
{
	struct server *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	s->on_query = on_query;
	r->server = s;
	if ((r->cfg.tcp || r->cfg.n_tls_listen) && stream_open(r, on_query, err, err_size) < 0)
		return -1;
	if (r->cfg.n_tls_listen && tls_open(r, err, err_size) < 0)
		return -1;
	for (int i = 0; i < r->cfg.n_listen; i++) {
		int fd, tcp_fd;
		if (server_bind_pair(r, &r->cfg.listen[i], &fd, &tcp_fd, err, err_size) < 0)
			return -1;
		struct server_socket *ss = &s->sock[s->n++];
		ss->fd = fd;
		ss->bound.len = sizeof(ss->bound.sa);
		getsockname(fd, (struct sockaddr *)&ss->bound.sa, &ss->bound.len);
		ss->ev = event_new(r->base, fd, EV_READ | EV_PERSIST, server_on_read, r);
		if (!ss->ev || event_add(ss->ev, NULL) < 0) {
			snprintf(err, err_size, "--listen: cannot watch a socket");
			return -1;
		}
		if (tcp_fd >= 0 && stream_listen(r, tcp_fd, false, err, err_size) < 0) {
			close(tcp_fd);
			return -1;
		}
	}
	for (int i = 0; i < r->cfg.n_tls_listen; i++) {
		int fd =
		    server_bind("--tls-listen", &r->cfg.tls_listen[i], SOCK_STREAM, err, err_size);
		if (fd < 0)
			return -1;
		struct resolver_addr *bound = &s->tls_bound[s->n_tls++];
		bound->len = sizeof(bound->sa);
		getsockname(fd, (struct sockaddr *)&bound->sa, &bound->len);
		if (stream_listen(r, fd, true, err, err_size) < 0) {
			close(fd);
			return -1;
		}
	}
	return 0;
}

/* Appends "<word> ADDR:PORT\n" to lines at *used. */
static void server_announce_line(char *lines, size_t size, size_t *used, const char *word,
                                 const struct resolver_addr *a)
{
	char text[128];
	sockaddr_format((const struct sockaddr *)&a->sa, text, sizeof(text));
	*used += (size_t)snprintf(lines + *used, size - *used, "%s %s\n", word, text);
}

int server_announce(struct resolver *r, const char *ready_file)
{
	char lines[2 * RESOLVER_MAX_LISTEN * 80] = "";
	size_t used = 0;
	for (int i = 0; i < r->server->n; i++)
		server_announce_line(lines, sizeof(lines), &used, "ready",
		                     &r->server->sock[i].bound);
	/* after every "ready" line: a reader of the first one still gets the first --listen */
	for (int i = 0; i < r->server->n_tls; i++)
		server_announce_line(lines, sizeof(lines), &used, "ready-tls",
		                     &r->server->tls_bound[i]);
	fputs(lines, stdout);
	fflush(stdout);
	if (!ready_file)
		return 0;
	char err[1024];
	if (!atomic_write_file(ready_file, lines, strlen(lines), err, sizeof(err))) {
		fprintf(stderr, "allocspike-resolver: --ready-file %s\n", err);
		return -1;
	}
	return 0;
}

int server_send(struct resolver *r, const struct route *to, const uint8_t *wire, size_t len)
{
	if (to->fd < 0)
		return stream_send(r, to->stream, wire, len);
	return sendto(to->fd, wire, len, 0, (const struct sockaddr *)&to->addr, to->addrlen) ==
	               (ssize_t)len
	           ? 0
	           : -1;
}

void server_hold(struct resolver *r, const struct route *from)
{
	if (from->fd < 0)
		stream_hold(r, from->stream);
}

void server_release(struct resolver *r, const struct route *from)
{
	if (from->fd < 0)
		stream_release(r, from->stream);
}

void server_close(struct resolver *r)
{
	stream_close(r);
	tls_close(r);
	struct server *s = r->server;
	if (!s)
		return;
	for (int i = 0; i < s->n; i++) {
		if (s->sock[i].ev)
			event_free(s->sock[i].ev);
		close(s->sock[i].fd);
	}
	free(s);
	r->server = NULL;
}
