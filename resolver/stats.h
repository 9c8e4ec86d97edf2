/* resolver/stats.h - the resolver's counters and the one JSON object the control socket's `stats`
 * returns. */
#ifndef ALLOCSPIKE_RESOLVER_STATS_H
#define ALLOCSPIKE_RESOLVER_STATS_H

#include <stdint.h>

struct stats {
	uint64_t queries, answers_noerror, answers_nxdomain, answers_servfail, answers_refused;
	uint64_t cache_hits, cache_misses, upstream_queries, upstream_timeouts;
	uint64_t dropped_malformed, dropped_overload;
	/* kept for logs, not in the stats object whose keys issue 3 fixes */
	uint64_t upstream_mismatched, upstream_malformed, upstream_tcp, answers_other;
};

struct resolver;

/* The `stats` object: the keys of docs/resolver.md, null where the allocator cannot tell.
 * Returns a malloc'd compact JSON string. */
char *stats_to_json(struct resolver *r);
void stats_count_answer(struct stats *s, int rcode);

#endif
