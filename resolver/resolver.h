/* resolver/resolver.h - the process-wide context every module of the resolver shares. */
#ifndef ALLOCSPIKE_RESOLVER_RESOLVER_H
#define ALLOCSPIKE_RESOLVER_RESOLVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "acl.h"
#include "chacha_rng.h"
#include "memory.h"
#include "overload.h"
#include "stats.h"

#define RESOLVER_MAX_LISTEN 16
#define RESOLVER_MAX_ROOTS 32

struct resolver_addr {
	struct sockaddr_storage sa;
	socklen_t len;
};

struct resolver_config {
	struct resolver_addr listen[RESOLVER_MAX_LISTEN];
	int n_listen;
	struct resolver_addr roots[RESOLVER_MAX_ROOTS];
	int n_roots;
	int upstream_port;
	struct resolver_addr upstream_source; /* len 0: let the kernel choose */
	size_t cache_size;
	uint32_t max_ttl, max_negative_ttl; /* caps on every answer sent and every cache entry */
	int max_inflight;
	int max_udp_size; /* largest UDP answer, whatever the client's EDNS size */
	bool tcp;                /* TCP on every --listen address too (--no-tcp clears it) */
	int tcp_idle_timeout_ms; /* a connection with nothing to do, or a message this slow */
	int tcp_max_connections; /* at once; past it the oldest idle one makes room (stream.c) */
	struct acl allow; /* clients answered besides loopback */
	/* The longest one upstream query waits: the cap on infra's backed-off timeout (infra.h). */
	int upstream_timeout_ms;
	int upstream_timeout_min_ms; /* the floor (unbound's infra-cache-min-rtt) */
	enum memory_layout layout;
	/* Who of the new client requests is admitted past capacity (overload.h); main defaults it
	 * from the layout. */
	enum overload_policy overload_policy;
	int request_list;      /* unbound policy: num-queries-per-thread */
	int jostle_timeout_ms; /* unbound policy: jostle-timeout */
	const char *control_path;
	const char *ready_file;
	/* Nothing is sent upstream: replies arrive only through upstream_inject (the fuzz targets;
	 * no option sets it). */
	bool upstream_offline;
};

struct event_base;
struct cache;
struct server;
struct streams;
struct request_table;
struct control_server;
struct upstream_handlers;
struct infra;

struct resolver {
	struct event_base *base;
	struct resolver_config cfg;
	struct cache *cache;
	struct server *server;
	struct streams *streams; /* TCP clients (stream.c); NULL with --no-tcp */
	struct request_table *requests;
	struct control_server *control;
	const struct upstream_handlers *upstream; /* where upstream.c reports (wiring.c) */
	struct infra *infra; /* what is known of each authoritative server's timing (infra.h) */
	struct stats stats;
	struct chacha_rng rng; /* query IDs and server choice */
};

/* The defaults every option starts from (main, tests, fuzzer). */
void resolver_config_defaults(struct resolver_config *cfg);

/* Seconds of a monotonic clock: what cache TTLs count down against. */
uint32_t resolver_now(void);
/* Milliseconds of a monotonic clock: upstream RTTs, timeouts, request deadlines. */
uint64_t resolver_now_ms(void);
/* Query IDs and server choice come from common/chacha_rng, seeded from getrandom. */
static inline uint16_t resolver_random_id(struct resolver *r)
{
	uint16_t id;
	chacha_rng_bytes(&r->rng, &id, sizeof(id));
	return id;
}

#endif
