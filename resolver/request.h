/* resolver/request.h - one resolution's lifetime: its memory, its waiting clients, coalescing, the
 * answer; and the driver that performs the iterator's steps (upstream queries, sub-requests). */
#ifndef ALLOCSPIKE_RESOLVER_REQUEST_H
#define ALLOCSPIKE_RESOLVER_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "iterator.h"
#include "msg.h"
#include "route.h"

struct resolver;
struct resolver_config;
struct overload;
struct request; /* private to request.c */

/* Who gets the answer: a client (its route, ID, EDNS size) or a parent request that needs this
 * name's address to reach a glueless name server. */
struct waiter {
	struct waiter *next;
	struct request *parent;
	struct route route; /* held (server_hold) from the waiter's creation until its release */
	uint16_t id, flags;
	bool edns, edns_do;
	uint16_t udp_size;
	const uint8_t *qname; /* as the client spelled it */
};

/* Clients waiting on one resolution at most: past it a new identical question is dropped and
 * counted as overload (memory per request stays bounded). */
#define REQUEST_MAX_WAITERS 256

/* Sized for cfg's --max-inflight, with cfg's overload policy (overload.h). */
struct request_table *request_table_create(const struct resolver_config *cfg);
/* Frees every request still in flight (shutdown). */
void request_table_destroy(struct resolver *r);
size_t request_inflight(const struct resolver *r);
/* The most requests in flight at once since the previous call (since the start for the first),
 * then starts over from those in flight now: a burst that came and went between two `stats`
 * reads still shows. */
size_t request_inflight_take_max(struct resolver *r);
/* The overload policy's list and counters, for the stats. */
const struct overload *request_overload(const struct resolver *r);

/* A client query arrived by `from` (route_query_fn): parse, answer from cache, join an identical
 * request in flight, or start a new one. Malformed packets are dropped and counted (-1). */
int request_handle_query(struct resolver *r, const struct route *from, const uint8_t *wire,
                         size_t len);

/* The upstream handlers (struct upstream_handlers, wired by wiring.c); ctx is the request. */
void request_upstream_sent(void *ctx);
void request_upstream_reply(void *ctx, struct msg *m, void *ldns);
void request_upstream_failed(void *ctx);

/* Delivers wire as the reply to the upstream query in flight of the request for (name, type)
 * (the fuzzer's way in, upstream_inject). -1 when there is no such query. */
int request_inject_reply(struct resolver *r, const uint8_t *name, uint16_t type, uint8_t *wire,
                         size_t len);

/* Builds the answer to one client from a resolution's result; returns its length. Over UDP
 * truncated to the header and question with TC when it does not fit the client's UDP size (512
 * without EDNS), itself capped by --max-udp-size; over a stream whole up to 65535 bytes. */
size_t request_build_answer(const struct iter_state *res, const struct waiter *w, int rcode,
                            uint8_t *buf, size_t cap);

#endif
