/* loadgen/recorder.h - every interval: traffic counters, /proc samples and resolver stats to the
 * run folder. */
#ifndef ALLOCSPIKE_LOADGEN_RECORDER_H
#define ALLOCSPIKE_LOADGEN_RECORDER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "counters.h"
#include "pacer.h"
#include "proc_sample.h"
#include "runfolder_writer.h"
#include "interval_hist_log.h"
#include "transport_log.h"

/* One timeline row per interval: a traffic target (with or without a process), the generator
 * itself (_loadgen) or a watched process (_upstream). */
struct recorder_source {
	const char *name;
	struct pacer_target *target; /* NULL: process columns only */
	bool has_process;
	struct proc_watch proc;
	bool gone;
	const char *control; /* "" or NULL: none */
	bool control_failed; /* reported once */
	struct counters prev;
	struct latency_hist *prev_hist;
	long rss_kb; /* last seen, for the progress line */
	double answered_qps;
	struct transport_log_prev transports; /* a target's, when transports.csv is written */
	struct control_stats server;          /* the resolver's stats ... */
	bool server_read;                     /* ... when read this interval */
};

struct recorder {
	struct pacer *pacer;
	const struct schedule *schedule;
	struct runfolder_writer *writer;
	struct transport_log *transports;         /* transports.csv; NULL: not written */
	struct interval_hist_log *interval_hists; /* a shard's interval_hist.csv; NULL: none */
	struct recorder_source *sources;
	unsigned count;
	uint64_t interval_ns;
	unsigned slow_every; /* smaps_rollup and control stats every this many intervals */
	bool progress;
	pthread_t thread;
	/* what the summary wants to know */
	double max_behind_s;
	unsigned shortfalls;
	bool write_failed; /* the run folder could not be written: the run stopped */
};

/* Starts the recording thread (it runs until the pacer is done). */
bool recorder_start(struct recorder *r, char *err, size_t err_size);

/* Waits for the thread to write its last row. */
void recorder_join(struct recorder *r);

#endif
