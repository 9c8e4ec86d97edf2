/* loadgen/tcp_client.h - one client's DNS-over-TCP connection to one target, or DNS over TLS with
 * a TLS session under it (tls_client.h): connects when it has a query, pipelines (RFC 7766),
 * matches answers by ID in any order, closes when idle. */
#ifndef ALLOCSPIKE_LOADGEN_TCP_CLIENT_H
#define ALLOCSPIKE_LOADGEN_TCP_CLIENT_H

#include <stdbool.h>
#include <stdint.h>

#include "counters.h"
#include "latency_hist.h"
#include "matcher.h"
#include "querystream.h"
#include "targets.h"

struct event_base;
struct tls_client;

/* Queries one connection may have in flight; more are dropped at send (counted). Our resolver
 * reads at most 100 at once per connection, kresd too (net.tcp_pipeline), but a generator that
 * catches up sends batches of up to --batch before it reads answers again. The table grows as
 * needed and is searched by ID, so many in flight cost time per answer. */
#define TCP_CLIENT_INFLIGHT_MAX 1024
/* Bytes one connection may have waiting to be written; past it a query is dropped at send, so a
 * slow or stalled server never holds the sending back or grows our memory (open loop). */
#define TCP_CLIENT_WRITE_MAX (64 * 1024)

/* One target's TCP (or DoT) traffic, over all its clients' connections. Written by the pacing
 * thread only (counters_add), read by the recorder at each interval and after the run (the
 * summary). */
struct tcp_counters {
	uint64_t sent;     /* queries first sent over TCP (part of the target's sent) */
	uint64_t retried;  /* truncated UDP queries sent again over TCP (--tc-retry) */
	uint64_t answered; /* answers over TCP (part of the target's answered) */
	uint64_t dropped;  /* queries not sent: too many in flight, or too many bytes queued */
	uint64_t connects; /* connections opened (established) */
	uint64_t open;     /* established and not closed yet (a gauge) */
	uint64_t connect_failures; /* connections refused or failed before they were established */
	uint64_t closed_by_server; /* end of stream from the server */
	uint64_t resets;           /* a connection that failed once established (reset, broken) */
	uint64_t closed_idle;      /* closed by us after --tcp-idle without a query */
	uint64_t lost_in_flight; /* queries in flight on a connection that closed (they time out) */
	/* DoT only: TLS handshakes ended well (of them resumed) or failed; a connection whose
	 * handshake failed counts there and not in closed_by_server or resets */
	uint64_t handshakes, handshake_failures, resumed;
	struct latency_hist
	    latency; /* answers over TCP, from the query's first send (even over UDP) */
};

/* What every client of one target shares. */
struct tcp_shared {
	struct event_base *base;
	const struct target_spec *target;
	const struct sockaddr_storage *addr; /* where to connect: the target's addr, or its dot= */
	socklen_t addr_len;
	struct matcher *matcher;
	const struct querystream *queries;
	struct tcp_counters *counters;
	uint64_t idle_ns; /* close a connection with nothing in flight after this long */
	uint64_t
	    timeout_ns; /* the answer timeout: queries older than this are no longer waited for */
	const struct tls_client *tls; /* DNS over TLS with these credentials; NULL: plain TCP */
};

struct tcp_client;

/* A client with no connection yet (it connects at its first query); NULL when out of memory. */
struct tcp_client *tcp_client_new(const struct tcp_shared *shared);

/* Writes query k (connecting first when closed) at now_ns (realtime), under an ID of the
 * connection's own: unique among its queries in flight, as RFC 7766 asks (the UDP IDs, shared by
 * every port, are not). False when it
 * cannot: the connection could not be started, or too much is in flight or queued (counted in
 * dropped). The caller tells the matcher about a query it sends for the first time. */
bool tcp_client_send(struct tcp_client *c, uint64_t k, uint64_t now_ns);

/* Closes the connection, if any, and frees the client. */
void tcp_client_free(struct tcp_client *c);

#endif
