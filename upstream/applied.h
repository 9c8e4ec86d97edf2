/* upstream/applied.h - what loss and delay were applied: per query, and per second and tier. */
#ifndef ALLOCSPIKE_UPSTREAM_APPLIED_H
#define ALLOCSPIKE_UPSTREAM_APPLIED_H

#include "latency_hist.h"
#include "netem.h"
#include "servers.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct applied_second {
	uint64_t queries, dropped;
	struct latency_hist delay; /* of the answered ones */
};

struct applied {
	FILE *log;     /* one line per UDP query, or NULL */
	FILE *summary; /* one line per second and tier, or NULL */
	double start_s;
	long second; /* the second being summed, -1 before the first query */
	struct applied_second tier[TIER_COUNT];
};

/* Opens the files that are not NULL and writes their header lines; false with err filled. */
bool applied_open(struct applied *a, const char *log_path, const char *summary_path, double start_s,
                  char *err, size_t err_size);

/* Records the treatment of one UDP query. */
void applied_note(struct applied *a, double now_s, uint32_t source, uint16_t port,
                  const struct server *s, const char *qname, uint16_t qtype,
                  const struct netem_verdict *v);

/* Writes the summary of seconds that are over and flushes both files (called every second). */
void applied_flush(struct applied *a, double now_s);

/* Writes what is left and closes. */
void applied_close(struct applied *a, double now_s);

#endif
