/* resolver/stats.h - the resolver's counters and the one JSON object the control socket's `stats`
 * returns. */
#ifndef ALLOCSPIKE_RESOLVER_STATS_H
#define ALLOCSPIKE_RESOLVER_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Each counter is bumped by one file: the client side by request.c (answers_* through
 * stats_count_answer), TCP connections by stream.c, the upstream side by upstream.c. */
struct stats {
	/* request.c */
	uint64_t queries, answers_noerror, answers_nxdomain, answers_servfail, answers_refused;
	uint64_t cache_hits, cache_misses, dropped_malformed, dropped_overload;
	uint64_t answers_other; /* logs only: not a key of the stats object */
	/* stream.c: connections accepted, refused at the limit, and closed by why */
	uint64_t tcp_accepted, tcp_refused, tcp_closed_idle, tcp_closed_for_room, tcp_closed_bad,
	    tcp_closed_slow, tcp_closed_by_client;
	/* upstream.c */
	uint64_t upstream_queries, upstream_timeouts;
	uint64_t upstream_mismatched, upstream_malformed, upstream_tcp; /* logs only */
};

struct cache;
struct infra_stats;
struct overload;

/* The `stats` object: the keys of docs/resolver.md from the counters s, the cache c, the server
 * timing table's figures is (infra_get_stats), the request table's count inflight and its
 * high-water mark inflight_max (request_inflight_take_max), the overload policy's list ol and the
 * open TCP connections with the bytes they hold (stream_get_figures); null where the allocator cannot tell. Takes the
 * live-bytes high-water mark (live_bytes_take_max), so every call starts it over. Returns a
 * malloc'd compact JSON string. */
char *stats_to_json(const struct stats *s, const struct cache *c, const struct infra_stats *is,
                    size_t inflight, size_t inflight_max, const struct overload *ol,
                    size_t tcp_open, size_t tcp_conn_bytes);
void stats_count_answer(struct stats *s, int rcode);

#endif
