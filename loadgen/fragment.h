/* loadgen/fragment.h - fragment.json: which shard of which stream a run folder holds, and whether
 * its generator finished (docs/run-folder.md, "Fragments"), for allocspike-report merge. */
#ifndef ALLOCSPIKE_LOADGEN_FRAGMENT_H
#define ALLOCSPIKE_LOADGEN_FRAGMENT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "querystream.h"

struct fragment {
	char path[4224]; /* DIR/fragment.json; "" when the run writes no fragment */
	json_t *doc;
};

/* A digest of the stream's questions in order (FNV-1a over each query's question hash), so that
 * shards of different query files do not merge; 0 for a streamed file (not held in memory). */
uint64_t fragment_queries_digest(const struct querystream *qs);

/* An instant on CLOCK_REALTIME as text to the ns ("1796300000.250000000"): fragment.json's
 * start_realtime and the generator's started event (docs/run-folder.md). */
#define FRAGMENT_REALTIME_TEXT 32
void fragment_realtime_text(uint64_t realtime_ns, char text[FRAGMENT_REALTIME_TEXT]);

/* Writes DIR/fragment.json with status "running": shard (0-based) of shards, the stream's
 * identity (stream: the schedule, query file, clients and targets; taken over) and the instant the
 * schedule starts (CLOCK_REALTIME, ns). A shard killed later leaves it so: "running". dir NULL:
 * nothing is written. */
bool fragment_begin(struct fragment *f, const char *dir, unsigned shard, unsigned shards,
                    json_t *stream, uint64_t start_realtime_ns, char *err, size_t err_size);

/* Rewrites it with the end: status ("completed", "interrupted", "failed"), the exit status, the
 * first send's instant and the planned one of that shard's first query. */
bool fragment_end(struct fragment *f, const char *status, int exit_code,
                  uint64_t first_send_realtime_ns, double first_planned_s, char *err,
                  size_t err_size);

void fragment_free(struct fragment *f);

#endif
