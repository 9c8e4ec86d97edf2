/* resolver/stream.c - client TCP connections: accept under the connection limit, cut the byte
 * stream into queries (common/dns_tcp), write each answer when its resolution ends, close idle,
 * slow and malformed connections. */
#define _GNU_SOURCE /* accept4 */
#include "stream.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dns_tcp.h"
#include "live_bytes.h"
#include "resolver.h"

#define STREAM_MAX_LISTENERS RESOLVER_MAX_LISTEN
/* A DNS header: a shorter message cannot be a query, and its length prefix is not trusted. */
#define STREAM_MIN_MESSAGE 12
/* The most input read ahead: one whole message of the largest size with its prefix. */
#define STREAM_READ_HIGH_WATER (2 + 65535)

struct stream_conn {
	struct streams *s;
	struct bufferevent *bev;
	struct event *timer;
	struct route route;
	uint32_t slot;
	int pending;         /* queries held (stream_hold) and not yet released */
	uint64_t active_ms;  /* the last query received or answer queued */
	uint64_t partial_ms; /* since when the message now in the input buffer has been arriving */
	size_t setup_bytes;  /* live bytes its setup allocated */
	/* The client ended its side (half-close) with answers still owed: they are written, then
	 * the connection closes. */
	bool ended;
	/* Connections by activity, least recent first: where the limit looks for an idle one. */
	struct stream_conn *older, *newer;
};

struct stream_slot {
	struct stream_conn *conn;
	uint32_t gen;
};

struct streams {
	struct resolver *r;
	route_query_fn *on_query;
	struct stream_slot *slots;
	uint32_t *free_slots; /* a stack of unused slot numbers */
	size_t n_free, n_slots, open, setup_bytes;
	struct stream_conn *oldest, *newest;
	struct {
		int fd;
		struct event *ev;
	} listeners[STREAM_MAX_LISTENERS];
	int n_listeners;
	struct event *backoff_ev;
};

static uint64_t stream_handle(const struct stream_conn *c)
{
	return (uint64_t)c->s->slots[c->slot].gen << 32 | (c->slot + 1u);
}

static struct stream_conn *stream_find(const struct resolver *r, uint64_t handle)
{
	const struct streams *s = r->streams;
	uint32_t slot = (uint32_t)handle - 1u, gen = (uint32_t)(handle >> 32);
	if (!s || (uint32_t)handle == 0 || slot >= s->n_slots || s->slots[slot].gen != gen)
		return NULL;
	return s->slots[slot].conn;
}

static void stream_unlink(struct stream_conn *c)
{
	struct streams *s = c->s;
	*(c->older ? &c->older->newer : &s->oldest) = c->newer;
	*(c->newer ? &c->newer->older : &s->newest) = c->older;
	c->older = c->newer = NULL;
}

static void stream_link_newest(struct stream_conn *c)
{
	struct streams *s = c->s;
	c->older = s->newest;
	*(s->newest ? &s->newest->newer : &s->oldest) = c;
	s->newest = c;
}

static void stream_touch(struct stream_conn *c)
{
	c->active_ms = resolver_now_ms();
	stream_unlink(c);
	stream_link_newest(c);
}

/* Closes c, counting why in *counter (NULL: shutdown). Answers still to come for it are dropped
 * (stream_find no longer finds its handle). */
static void stream_conn_close(struct stream_conn *c, uint64_t *counter)
{
	struct streams *s = c->s;
	if (counter)
		(*counter)++;
	stream_unlink(c);
	s->slots[c->slot].conn = NULL;
	s->slots[c->slot].gen++;
	s->free_slots[s->n_free++] = c->slot;
	s->open--;
	s->setup_bytes -= c->setup_bytes;
	event_free(c->timer);
	bufferevent_free(c->bev);
	free(c);
}

static bool stream_idle(const struct stream_conn *c)
{
	return c->pending == 0 && evbuffer_get_length(bufferevent_get_input(c->bev)) == 0 &&
	       evbuffer_get_length(bufferevent_get_output(c->bev)) == 0;
}

/* An ended connection whose answers are all written. */
static bool stream_done(const struct stream_conn *c)
{
	return c->ended && c->pending == 0 &&
	       evbuffer_get_length(bufferevent_get_output(c->bev)) == 0;
}

/* Closes a done connection from the loop (its timer), never from inside a caller that may still
 * use it (a resolution releasing its client, a write callback). */
static void stream_close_when_done(struct stream_conn *c)
{
	if (stream_done(c))
		event_active(c->timer, EV_TIMEOUT, 1);
}

static void stream_arm(struct stream_conn *c, uint64_t in_ms)
{
	struct timeval tv = {(time_t)(in_ms / 1000), (suseconds_t)(in_ms % 1000) * 1000};
	event_add(c->timer, &tv);
}

/* The one timer of a connection: closes it when a message has been arriving for longer than the
 * idle timeout (a slow-loris client), or when it has been idle that long; else comes back when
 * the earlier of the two could next be true. */
static void stream_on_timer(evutil_socket_t fd, short what, void *arg)
{
	struct stream_conn *c = arg;
	struct stats *st = &c->s->r->stats;
	uint64_t now = resolver_now_ms(), timeout = (uint64_t)c->s->r->cfg.tcp_idle_timeout_ms;
	if (stream_done(c)) {
		stream_conn_close(c, &st->tcp_closed_by_client);
		return;
	}
	if (c->partial_ms && now - c->partial_ms >= timeout) {
		stream_conn_close(c, &st->tcp_closed_slow);
		return;
	}
	if (stream_idle(c) && now - c->active_ms >= timeout) {
		stream_conn_close(c, &st->tcp_closed_idle);
		return;
	}
	uint64_t next = timeout;
	if (c->partial_ms)
		next = c->partial_ms + timeout - now;
	if (stream_idle(c) && c->active_ms + timeout - now < next)
		next = c->active_ms + timeout - now;
	stream_arm(c, next);
}

static void stream_on_read(struct bufferevent *bev, void *arg)
{
	struct stream_conn *c = arg;
	struct streams *s = c->s;
	struct evbuffer *in = bufferevent_get_input(bev);
	bool took = false;
	uint8_t *msg;
	size_t len;
	/* Past the pipelining cap the rest waits in the buffer (whose high-water mark then stops
	 * reading the socket); stream_release comes back here. */
	while (c->pending < STREAM_MAX_PENDING && dns_tcp_next(in, &msg, &len)) {
		if (len < STREAM_MIN_MESSAGE) {
			stream_conn_close(c, &s->r->stats.tcp_closed_bad);
			return;
		}
		int taken = s->on_query(s->r, &c->route, msg, len);
		evbuffer_drain(in, len);
		if (taken < 0) {
			stream_conn_close(c, &s->r->stats.tcp_closed_bad);
			return;
		}
		took = true;
	}
	if (took)
		stream_touch(c);
	size_t left = evbuffer_get_length(in);
	if (left == 0 || c->pending >= STREAM_MAX_PENDING)
		c->partial_ms = 0; /* nothing arriving, or whole queries waiting on us, not the client */
	else if (!c->ended && (took || !c->partial_ms))
		c->partial_ms = resolver_now_ms();
}

static void stream_on_event(struct bufferevent *bev, short what, void *arg)
{
	struct stream_conn *c = arg;
	struct stats *st = &c->s->r->stats;
	/* the write timeout: a client that stopped reading its answers */
	if (what & BEV_EVENT_TIMEOUT) {
		stream_conn_close(c, &st->tcp_closed_slow);
	} else if (what & BEV_EVENT_ERROR) {
		stream_conn_close(c, &st->tcp_closed_by_client);
	} else if (what & BEV_EVENT_EOF) {
		/* End of the client's stream: the queries it sent are still answered (a client may
		 * half-close once it has asked everything). */
		c->ended = true;
		c->partial_ms = 0;
		bufferevent_disable(bev, EV_READ);
		if (c->pending == 0 && evbuffer_get_length(bufferevent_get_output(bev)) == 0)
			stream_conn_close(c, &st->tcp_closed_by_client);
	}
}

static void stream_on_written(struct bufferevent *bev, void *arg)
{
	stream_close_when_done(arg);
}

/* At the limit: the connection that has been idle longest makes room (RFC 7766 §6.2.3 lets a
 * server close idle connections when it needs the resources), else NULL. */
static struct stream_conn *stream_oldest_idle(struct streams *s)
{
	for (struct stream_conn *c = s->oldest; c; c = c->newer)
		if (stream_idle(c))
			return c;
	return NULL;
}

void stream_adopt(struct resolver *r, int fd, const struct sockaddr *from, socklen_t fromlen)
{
	struct streams *s = r->streams;
	struct stats *st = &r->stats;
	if (fromlen > sizeof(((struct route *)0)->addr)) {
		close(fd);
		return;
	}
	if (s->open >= s->n_slots) {
		struct stream_conn *victim = stream_oldest_idle(s);
		if (!victim) {
			st->tcp_refused++;
			close(fd);
			return;
		}
		stream_conn_close(victim, &st->tcp_closed_for_room);
	}
	struct live_bytes before = {0}, after = {0};
	bool counted = live_bytes_get(&before);
	struct stream_conn *c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return;
	}
	c->bev = bufferevent_socket_new(s->r->base, fd, BEV_OPT_CLOSE_ON_FREE);
	c->timer = evtimer_new(s->r->base, stream_on_timer, c);
	if (!c->bev || !c->timer) {
		if (c->bev)
			bufferevent_free(c->bev);
		else
			close(fd);
		if (c->timer)
			event_free(c->timer);
		free(c);
		return;
	}
	c->s = s;
	c->slot = s->free_slots[--s->n_free];
	s->slots[c->slot].conn = c;
	memcpy(&c->route.addr, from, fromlen);
	c->route.addrlen = fromlen;
	c->route.fd = -1;
	c->route.stream = stream_handle(c);
	int timeout = s->r->cfg.tcp_idle_timeout_ms;
	struct timeval write_timeout = {timeout / 1000, (timeout % 1000) * 1000};
	bufferevent_set_timeouts(c->bev, NULL, &write_timeout);
	bufferevent_setwatermark(c->bev, EV_READ, 0, STREAM_READ_HIGH_WATER);
	bufferevent_setcb(c->bev, stream_on_read, stream_on_written, stream_on_event, c);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	stream_link_newest(c);
	c->active_ms = resolver_now_ms();
	stream_arm(c, (uint64_t)timeout);
	c->setup_bytes = counted && live_bytes_get(&after) && after.bytes > before.bytes
	                     ? after.bytes - before.bytes
	                     : sizeof(*c);
	s->setup_bytes += c->setup_bytes;
	s->open++;
	st->tcp_accepted++;
}

static void stream_on_backoff(evutil_socket_t fd, short what, void *arg)
{
	struct streams *s = arg;
	for (int i = 0; i < s->n_listeners; i++)
		event_add(s->listeners[i].ev, NULL);
}

static void stream_on_accept(evutil_socket_t fd, short what, void *arg)
{
	struct streams *s = arg;
	/* A bounded batch per wake-up, as for UDP: a connection spike does not starve the rest. */
	for (int i = 0; i < 64; i++) {
		struct sockaddr_storage from;
		socklen_t fromlen = sizeof(from);
		int cfd = accept4(fd, (struct sockaddr *)&from, &fromlen,
		                  SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (cfd >= 0) {
			stream_adopt(s->r, cfd, (struct sockaddr *)&from, fromlen);
			continue;
		}
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
			/* The pending connection stays readable: without a pause the loop would spin
			 * on it. Try again in a second. */
			struct timeval one_second = {1, 0};
			for (int l = 0; l < s->n_listeners; l++)
				event_del(s->listeners[l].ev);
			event_add(s->backoff_ev, &one_second);
		}
		return;
	}
}

int stream_open(struct resolver *r, route_query_fn *on_query, char *err, size_t err_size)
{
	struct streams *s = calloc(1, sizeof(*s));
	size_t n = (size_t)r->cfg.tcp_max_connections;
	if (s) {
		s->slots = calloc(n, sizeof(*s->slots));
		s->free_slots = calloc(n, sizeof(*s->free_slots));
		s->backoff_ev = evtimer_new(r->base, stream_on_backoff, s);
	}
	r->streams = s;
	if (!s || !s->slots || !s->free_slots || !s->backoff_ev) {
		snprintf(err, err_size, "out of memory for %zu TCP connections", n);
		return -1;
	}
	s->r = r;
	s->on_query = on_query;
	s->n_slots = n;
	for (size_t i = 0; i < n; i++)
		s->free_slots[s->n_free++] = (uint32_t)(n - 1 - i);
	return 0;
}

int stream_listen(struct resolver *r, int fd, char *err, size_t err_size)
{
	struct streams *s = r->streams;
	if (s->n_listeners >= STREAM_MAX_LISTENERS) {
		snprintf(err, err_size, "too many TCP listeners");
		return -1;
	}
	struct event *ev = event_new(r->base, fd, EV_READ | EV_PERSIST, stream_on_accept, s);
	if (!ev || event_add(ev, NULL) < 0) {
		if (ev)
			event_free(ev);
		snprintf(err, err_size, "cannot watch a TCP listener");
		return -1;
	}
	s->listeners[s->n_listeners].fd = fd;
	s->listeners[s->n_listeners].ev = ev;
	s->n_listeners++;
	return 0;
}

int stream_send(struct resolver *r, uint64_t handle, const uint8_t *wire, size_t len)
{
	struct stream_conn *c = stream_find(r, handle);
	if (!c)
		return -1;
	dns_tcp_write(c->bev, wire, len);
	stream_touch(c);
	return 0;
}

void stream_hold(struct resolver *r, uint64_t handle)
{
	struct stream_conn *c = stream_find(r, handle);
	if (c)
		c->pending++;
}

void stream_release(struct resolver *r, uint64_t handle)
{
	struct stream_conn *c = stream_find(r, handle);
	if (!c || c->pending == 0)
		return;
	/* Below the pipelining cap again: the queries waiting in the buffer are read, from the
	 * loop (never from inside the resolution that just ended). */
	if (c->pending-- == STREAM_MAX_PENDING)
		bufferevent_trigger(c->bev, EV_READ,
		                    BEV_TRIG_IGNORE_WATERMARKS | BEV_TRIG_DEFER_CALLBACKS);
	stream_close_when_done(c);
}

void stream_get_figures(const struct resolver *r, struct stream_figures *out)
{
	const struct streams *s = r->streams;
	out->open = s ? s->open : 0;
	out->bytes = s ? s->setup_bytes : 0;
	for (const struct stream_conn *c = s ? s->oldest : NULL; c; c = c->newer)
		out->bytes += evbuffer_get_length(bufferevent_get_input(c->bev)) +
		              evbuffer_get_length(bufferevent_get_output(c->bev));
}

void stream_close(struct resolver *r)
{
	struct streams *s = r->streams;
	if (!s)
		return;
	while (s->oldest)
		stream_conn_close(s->oldest, NULL);
	for (int i = 0; i < s->n_listeners; i++) {
		event_free(s->listeners[i].ev);
		close(s->listeners[i].fd);
	}
	if (s->backoff_ev)
		event_free(s->backoff_ev);
	free(s->slots);
	free(s->free_slots);
	free(s);
	r->streams = NULL;
}
