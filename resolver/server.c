/* resolver/server.c - client-facing UDP sockets: receive queries in batches, send answers. */
#include "server.h"

#include <errno.h>
#include <event2/event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_write_file.h"
#include "resolver.h"
#include "sockaddr_parse.h"

struct server_socket {
	int fd;
	struct event *ev;
	struct resolver_addr bound;
};

struct server {
	struct server_socket sock[RESOLVER_MAX_LISTEN];
	int n;
	server_query_fn *on_query;
};

static uint8_t server_rx[65536];

static void server_on_read(evutil_socket_t fd, short what, void *arg)
{
	struct resolver *r = arg;
	server_query_fn *on_query = r->server->on_query;
	/* A bounded batch per wake-up keeps upstream replies and timers served under load. */
	for (int i = 0; i < 64; i++) {
		struct sockaddr_storage from;
		socklen_t fromlen = sizeof(from);
		ssize_t n = recvfrom(fd, server_rx, sizeof(server_rx), 0, (struct sockaddr *)&from,
		                     &fromlen);
		if (n < 0)
			return;
		on_query(r, fd, server_rx, (size_t)n, (struct sockaddr *)&from, fromlen);
	}
}

int server_open(struct resolver *r, server_query_fn *on_query, char *err, size_t err_size)
{
	struct server *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	s->on_query = on_query;
	r->server = s;
	for (int i = 0; i < r->cfg.n_listen; i++) {
		const struct resolver_addr *a = &r->cfg.listen[i];
		char text[128];
		sockaddr_format((const struct sockaddr *)&a->sa, text, sizeof(text));
		int fd = socket(a->sa.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			snprintf(err, err_size, "--listen %s: socket: %s", text, strerror(errno));
			return -1;
		}
		int one = 1, rcvbuf = 8 << 20;
		if (a->sa.ss_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
		/* Spikes arrive faster than one loop turn: a deep receive queue absorbs them. */
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
		if (bind(fd, (const struct sockaddr *)&a->sa, a->len) < 0) {
			snprintf(err, err_size, "--listen %s: bind: %s", text, strerror(errno));
			close(fd);
			return -1;
		}
		struct server_socket *ss = &s->sock[s->n++];
		ss->fd = fd;
		ss->bound.len = sizeof(ss->bound.sa);
		getsockname(fd, (struct sockaddr *)&ss->bound.sa, &ss->bound.len);
		ss->ev = event_new(r->base, fd, EV_READ | EV_PERSIST, server_on_read, r);
		if (!ss->ev || event_add(ss->ev, NULL) < 0) {
			snprintf(err, err_size, "--listen %s: cannot watch socket", text);
			return -1;
		}
	}
	return 0;
}

int server_announce(struct resolver *r, const char *ready_file)
{
	char lines[RESOLVER_MAX_LISTEN * 80] = "";
	size_t used = 0;
	for (int i = 0; i < r->server->n; i++) {
		char text[128];
		sockaddr_format((const struct sockaddr *)&r->server->sock[i].bound.sa, text,
		                sizeof(text));
		used += (size_t)snprintf(lines + used, sizeof(lines) - used, "ready %s\n", text);
	}
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

int server_send(struct resolver *r, int fd, const uint8_t *wire, size_t len,
                const struct sockaddr *to, socklen_t tolen)
{
	return sendto(fd, wire, len, 0, to, tolen) == (ssize_t)len ? 0 : -1;
}

void server_close(struct resolver *r)
{
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
