/* resolver/upstream.c - outgoing queries over UDP (TCP after truncation), matched strictly to what
 * was asked; results go to the resolver's upstream handlers. */
#include "upstream.h"

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dname.h"
#include "msg.h"
#include "resolver.h"

struct upstream_query {
	struct upstream_link *link;
	const uint8_t *name; /* the question asked, for matching replies */
	uint16_t type;
	int fd;
	struct event *ev;   /* storage from the request's memory (event_assign) */
	bool ev_added, tcp; /* ev_added: assigned and maybe pending, so event_del before reuse */
	uint16_t id;
	int timeout_ms; /* the UDP wait; TCP after truncation gets twice as long */
	uint8_t *wire;
	size_t wire_len;
	struct sockaddr_storage to;
	socklen_t tolen;
	uint8_t *tcp_buf;
	size_t tcp_have, tcp_need;
};

static uint8_t upstream_rx[65536];

int upstream_match(const uint8_t *wire, size_t len, uint16_t id, const uint8_t *qname,
                   uint16_t qtype)
{
	if (len < 12 || ((wire[0] << 8) | wire[1]) != id || !(wire[2] & 0x80) ||
	    ((wire[2] >> 3) & 0xF) != 0 || wire[4] != 0 || wire[5] != 1)
		return -1;
	uint8_t name[DNAME_MAXLEN + 1];
	size_t pos = 12;
	if (dname_unpack(wire, len, &pos, name) < 0 || pos + 4 > len)
		return -1;
	uint16_t type = (uint16_t)((wire[pos] << 8) | wire[pos + 1]);
	uint16_t rclass = (uint16_t)((wire[pos + 2] << 8) | wire[pos + 3]);
	if (type != qtype || rclass != CLASS_IN || !dname_equal(name, qname))
		return -1;
	return 0;
}

static void upstream_close(struct upstream_query *uq)
{
	if (uq->ev_added) {
		event_del(uq->ev);
		uq->ev_added = false;
	}
	if (uq->fd >= 0) {
		close(uq->fd);
		uq->fd = -1;
	}
}

void upstream_link_init(struct upstream_link *l, struct resolver *r, struct rmem *mem, void *ctx)
{
	memset(l, 0, sizeof(*l));
	l->r = r;
	l->mem = mem;
	l->ctx = ctx;
}

void upstream_cancel(struct upstream_link *l)
{
	if (!l->uq)
		return;
	upstream_close(l->uq);
	l->uq = NULL;
}

bool upstream_pending(const struct upstream_link *l)
{
	return l->uq != NULL;
}

static int upstream_socket(struct upstream_link *l, const struct sockaddr *to, socklen_t tolen,
                           int type)
{
	int fd = socket(to->sa_family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	const struct resolver_addr *src = &l->r->cfg.upstream_source;
	if (src->len && src->sa.ss_family == to->sa_family &&
	    bind(fd, (const struct sockaddr *)&src->sa, src->len) < 0) {
		close(fd);
		return -1;
	}
	if (connect(fd, to, tolen) < 0 && errno != EINPROGRESS) {
		close(fd);
		return -1;
	}
	return fd;
}

static void upstream_on_event(evutil_socket_t fd, short what, void *arg);

static int upstream_arm(struct upstream_query *uq, short what, int timeout_ms)
{
	struct timeval tv = {timeout_ms / 1000, (timeout_ms % 1000) * 1000};
	if (uq->ev_added)
		event_del(uq->ev);
	event_assign(uq->ev, uq->link->r->base, uq->fd, what, upstream_on_event, uq);
	if (event_add(uq->ev, &tv) < 0)
		return -1;
	uq->ev_added = true;
	return 0;
}

/* The one place an upstream packet is counted: the resolver's counter, the requester's budget. */
static void upstream_count_sent(struct upstream_query *uq)
{
	struct upstream_link *l = uq->link;
	l->r->stats.upstream_queries++;
	l->r->upstream->sent(l->ctx);
}

int upstream_send(struct upstream_link *l, const uint8_t *name, uint16_t type,
                  const struct sockaddr *to, socklen_t tolen, int timeout_ms)
{
	struct resolver *r = l->r;
	upstream_cancel(l);
	/* One query state (and libevent event) per requester, reused by its retries and later
	 * queries; the packets are per query and freed when the next one is sent. */
	struct upstream_query *uq = l->uq_store;
	if (!uq) {
		uq = rmem_calloc_loose(l->mem, sizeof(*uq));
		if (!uq)
			return -1;
		uq->ev = rmem_alloc_loose(l->mem, event_get_struct_event_size());
		if (!uq->ev)
			return -1;
		l->uq_store = uq;
	}
	rmem_free(l->mem, uq->wire);
	rmem_free(l->mem, uq->tcp_buf);
	struct event *ev = uq->ev;
	memset(uq, 0, sizeof(*uq));
	uq->ev = ev;
	uq->link = l;
	uq->name = name;
	uq->type = type;
	uq->fd = -1;
	uq->timeout_ms = timeout_ms;
	size_t cap = 12 + dname_len(name) + 4 + 11;
	if (l->mem->layout == LAYOUT_KRESD)
		cap = UPSTREAM_EDNS_SIZE; /* kresd builds queries in a KR_EDNS_PAYLOAD packet buffer
		                           */
	uq->wire = rmem_alloc(l->mem, cap);
	if (!uq->wire)
		return -1;
	uq->id = resolver_random_id(r);
	struct wire_writer w;
	wire_begin(&w, uq->wire, cap, uq->id, 0, name, type, CLASS_IN);
	wire_put_opt(&w, UPSTREAM_EDNS_SIZE, RCODE_NOERROR, false);
	uq->wire_len = wire_finish(&w);
	memcpy(&uq->to, to, tolen);
	uq->tolen = tolen;
	if (!r->cfg.upstream_offline) {
		uq->fd = upstream_socket(l, to, tolen, SOCK_DGRAM);
		if (uq->fd < 0)
			return -1;
		if (send(uq->fd, uq->wire, uq->wire_len, 0) < 0 ||
		    upstream_arm(uq, EV_READ | EV_PERSIST, uq->timeout_ms) < 0) {
			upstream_close(uq);
			return -1;
		}
	}
	upstream_count_sent(uq);
	l->uq = uq;
	return 0;
}

static void upstream_fail(struct upstream_query *uq, bool timeout)
{
	struct upstream_link *l = uq->link;
	if (timeout)
		l->r->stats.upstream_timeouts++;
	upstream_close(uq);
	l->uq = NULL;
	l->r->upstream->failed(l->ctx);
}

static void upstream_start_tcp(struct upstream_query *uq)
{
	struct upstream_link *l = uq->link;
	upstream_close(uq);
	uq->tcp = true;
	l->r->stats.upstream_tcp++;
	if (l->r->cfg.upstream_offline)
		return; /* the next injected packet is taken as if it came over TCP */
	uq->fd = upstream_socket(l, (struct sockaddr *)&uq->to, uq->tolen, SOCK_STREAM);
	if (uq->fd < 0 || upstream_arm(uq, EV_WRITE, 2 * uq->timeout_ms) < 0) {
		upstream_fail(uq, false);
		return;
	}
}

/* A complete packet from the server: match it, then hand it to the reply handler. Returns true
 * when it was consumed (uq may be gone), false to keep waiting. */
static bool upstream_deliver(struct upstream_query *uq, const uint8_t *wire, size_t len)
{
	struct upstream_link *l = uq->link;
	struct stats *st = &l->r->stats;
	/* Matched on the wire before anything is allocated or copied: spoofed and stray packets
	 * must not grow the request's pool (kresd layout) nor cost a parse. */
	if (upstream_match(wire, len, uq->id, uq->name, uq->type) < 0) {
		st->upstream_mismatched++;
		return false;
	}
	const uint8_t *data = wire;
	if (l->mem->layout == LAYOUT_KRESD) {
		/* kresd keeps the answer packet in the request's pool. */
		data = rmem_memdup(l->mem, wire, len);
		if (!data) {
			upstream_fail(uq, false);
			return true;
		}
	}
	struct msg m;
	void *ldns = NULL;
	/* a malformed OPT (msg_edns_read) makes the reply malformed, in either layout */
	if (msg_parse_layout(data, len, l->mem, &m, &ldns) < 0 || m.edns_malformed) {
		msg_release(l->mem, &m, ldns);
		st->upstream_malformed++;
		return false;
	}
	if ((m.flags & MSG_TC) && !uq->tcp) {
		msg_release(l->mem, &m, ldns);
		upstream_start_tcp(uq);
		return true;
	}
	upstream_close(uq);
	l->uq = NULL;
	l->r->upstream->reply(l->ctx, &m, ldns);
	return true;
}

static void upstream_on_udp(struct upstream_query *uq)
{
	for (int i = 0; i < 16; i++) {
		struct sockaddr_storage from;
		socklen_t fromlen = sizeof(from);
		ssize_t n = recvfrom(uq->fd, upstream_rx, sizeof(upstream_rx), 0,
		                     (struct sockaddr *)&from, &fromlen);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				return;
			/* ICMP port unreachable and the like: the server is not there. */
			upstream_fail(uq, false);
			return;
		}
		/* The socket is connected, so the kernel already filtered the source; this is
		 * the belt to those braces. */
		if (fromlen != uq->tolen || memcmp(&from, &uq->to, fromlen) != 0) {
			uq->link->r->stats.upstream_mismatched++;
			continue;
		}
		if (upstream_deliver(uq, upstream_rx, (size_t)n))
			return;
	}
}

static void upstream_on_tcp_read(struct upstream_query *uq)
{
	if (!uq->tcp_buf) {
		uq->tcp_buf = rmem_alloc_loose(uq->link->mem, 2 + 65535);
		if (!uq->tcp_buf) {
			upstream_fail(uq, false);
			return;
		}
		uq->tcp_need = 2;
	}
	ssize_t n = recv(uq->fd, uq->tcp_buf + uq->tcp_have, uq->tcp_need - uq->tcp_have, 0);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
	if (n <= 0) {
		upstream_fail(uq, false);
		return;
	}
	uq->tcp_have += (size_t)n;
	if (uq->tcp_have < uq->tcp_need)
		return;
	if (uq->tcp_need == 2) {
		uq->tcp_need = 2 + (size_t)((uq->tcp_buf[0] << 8) | uq->tcp_buf[1]);
		if (uq->tcp_need == 2)
			upstream_fail(uq, false);
		return;
	}
	if (!upstream_deliver(uq, uq->tcp_buf + 2, uq->tcp_need - 2))
		upstream_fail(uq, false); /* one answer per TCP query: a bad one ends it */
}

static void upstream_on_tcp_write(struct upstream_query *uq)
{
	int err = 0;
	socklen_t elen = sizeof(err);
	if (getsockopt(uq->fd, SOL_SOCKET, SO_ERROR, &err, &elen) < 0 || err) {
		upstream_fail(uq, false);
		return;
	}
	uint8_t buf[2 + 512];
	if (uq->wire_len > sizeof(buf) - 2) {
		upstream_fail(uq, false);
		return;
	}
	buf[0] = (uint8_t)(uq->wire_len >> 8);
	buf[1] = (uint8_t)uq->wire_len;
	memcpy(buf + 2, uq->wire, uq->wire_len);
	if (send(uq->fd, buf, uq->wire_len + 2, MSG_NOSIGNAL) != (ssize_t)(uq->wire_len + 2) ||
	    upstream_arm(uq, EV_READ | EV_PERSIST, 2 * uq->timeout_ms) < 0) {
		upstream_fail(uq, false);
		return;
	}
	upstream_count_sent(uq);
}

static void upstream_on_event(evutil_socket_t fd, short what, void *arg)
{
	struct upstream_query *uq = arg;
	if (what & EV_TIMEOUT) {
		/* A persistent event stays pending after its timeout: upstream_close removes it. */
		upstream_fail(uq, true);
		return;
	}
	if (!uq->tcp)
		upstream_on_udp(uq);
	else if (what & EV_WRITE)
		upstream_on_tcp_write(uq);
	else
		upstream_on_tcp_read(uq);
}

int upstream_inject(struct upstream_link *l, uint8_t *wire, size_t len)
{
	struct upstream_query *uq = l->uq;
	if (!uq)
		return -1;
	if (len >= 2) {
		wire[0] = (uint8_t)(uq->id >> 8);
		wire[1] = (uint8_t)uq->id;
	}
	if (!upstream_deliver(uq, wire, len) && uq->tcp)
		upstream_fail(uq, false);
	return 0;
}
