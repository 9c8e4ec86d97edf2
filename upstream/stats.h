/* upstream/stats.h - the hierarchy's counters: per source address, per tier, per rcode. */
#ifndef ALLOCSPIKE_UPSTREAM_STATS_H
#define ALLOCSPIKE_UPSTREAM_STATS_H

#include "answer.h"
#include "servers.h"

#include <jansson.h>
#include <stdint.h>

#define STATS_MAX_SOURCES 256

struct stats_counts {
	uint64_t queries, answered, dropped, truncated, tcp;
};

struct stats_source {
	uint32_t addr; /* host order */
	struct stats_counts c;
};

struct stats {
	double start_s;
	struct stats_counts total;
	uint64_t malformed;
	uint64_t not_server; /* UDP queries to a loopback address that is no server's */
	uint64_t rcode[16];
	uint64_t kind[ANSWER_KIND_COUNT];
	struct stats_counts tier[TIER_COUNT];
	struct stats_source sources[STATS_MAX_SOURCES];
	int nsources;
	struct stats_counts other_sources; /* beyond STATS_MAX_SOURCES distinct addresses */
	uint64_t delay_ms_sum;
};

/* The counters of one source address (created on first use). */
struct stats_counts *stats_source(struct stats *st, uint32_t addr);

/* Counts a query received by a server of tier from source. */
void stats_note_query(struct stats *st, uint32_t source, enum tier tier, bool tcp);

/* Counts its outcome: dropped, or answered with rcode/kind (and truncated). */
void stats_note_dropped(struct stats *st, uint32_t source, enum tier tier);
void stats_note_answered(struct stats *st, uint32_t source, enum tier tier, int rcode,
                         enum answer_kind kind, bool truncated, uint32_t delay_ms);

/* One JSON object with every counter; extra fields (inflight, tracked attempts) from the caller. */
json_t *stats_json(const struct stats *st, double now_s);

#endif
