/* loadgen/interval_hist_log.h - interval_hist.csv: each interval's latency histogram per target,
 * written by a shard (--shard with --out) so that allocspike-report merge can compute the merged
 * timeline's quantiles from the shards' added histograms (docs/run-folder.md, "Fragments and
 * merge"). */
#ifndef ALLOCSPIKE_LOADGEN_INTERVAL_HIST_LOG_H
#define ALLOCSPIKE_LOADGEN_INTERVAL_HIST_LOG_H

#include <stdbool.h>
#include <stddef.h>

#include "latency_hist.h"

struct interval_hist_log {
	int fd; /* -1: not written (no shard, or a write failed) */
	char path[4224];
	char *text; /* the interval's rows, written with one write(2) */
	size_t len, cap;
	bool failed; /* a write failed: the fragment is incomplete */
};

/* Creates DIR/interval_hist.csv with its header (dir NULL: nothing is written). */
bool interval_hist_log_open(struct interval_hist_log *log, const char *dir, char *err,
                            size_t err_size);

/* The non-empty buckets of one target's interval ending at t_s (its timeline row's phase). */
void interval_hist_log_rows(struct interval_hist_log *log, double t_s, const char *variant,
                            const char *phase, unsigned spike, const struct latency_hist *h);

/* Writes the interval's rows; on failure says so on stderr once and writes nothing more. */
void interval_hist_log_flush(struct interval_hist_log *log);

void interval_hist_log_close(struct interval_hist_log *log);

#endif
