/* upstream/net.h - the sockets of every server, the receive loop and the delayed-send wheel. */
#ifndef ALLOCSPIKE_UPSTREAM_NET_H
#define ALLOCSPIKE_UPSTREAM_NET_H

#include "serve.h"
#include "servers.h"
#include "wheel.h"

#include <event2/event.h>
#include <stdbool.h>
#include <stddef.h>

struct net;

/* Binds UDP and TCP on every server of plan at port (0: one free port for all, retried if
 * another program holds it on some address). UDP: one socket for every address (0.0.0.0 on the
 * loopback device; queries to an address that is no server are counted in not_server and not
 * answered) or, when that cannot be opened (no permission, the port taken on some loopback
 * address) or try_shared is false, one socket per address (the fallback said once on stderr).
 * A per-address socket also takes queries that arrive on another device (route_localnet: a
 * resolver in another network namespace). TCP: one listener per address.
 * Returns NULL with the reason in err. */
struct net *net_open(struct event_base *base, const struct server_plan *plan, int port,
                     bool try_shared, struct serve *serve, char *err, size_t err_size);

/* The port every server listens on. */
int net_port(const struct net *n);

/* "shared" (one UDP socket for every server) or "per-address". */
const char *net_udp_sockets(const struct net *n);

/* Replies waiting in the wheel. */
size_t net_inflight(const struct net *n);

/* UDP reads that found queries: calls (recvmmsg batches) and the queries they read. */
struct net_reads {
	uint64_t calls;
	uint64_t queries;
};

/* The reads done when a socket woke the loop, and those the wheel's tick polled. */
void net_udp_reads(const struct net *n, struct net_reads *woken, struct net_reads *polled);

/* Monotonic seconds, the clock of the wheel and the attempt counts. */
double net_now_s(void);

void net_close(struct net *n);

#endif
