/* loadgen/transport_log.h - transports.csv: per target, per interval and per transport (UDP, TCP,
 * DoT), the queries, answers and latency, and the connections opened, failed, reset and open
 * (docs/run-folder.md). Written only when some client keeps a connection. */
#ifndef ALLOCSPIKE_LOADGEN_TRANSPORT_LOG_H
#define ALLOCSPIKE_LOADGEN_TRANSPORT_LOG_H

#include <stdbool.h>
#include <stddef.h>

#include "control_client.h"
#include "pacer.h"

/* transports.csv's header line, without the newline. */
extern const char transport_log_header[];

/* One target's readings at the previous interval's end (differences are taken from them). */
struct transport_log_prev {
	struct tcp_counters stream[2]; /* TCP, DoT: the counters, not the histograms */
	double udp_sent, udp_answered; /* the target's less the streams' */
	struct latency_hist *hist;     /* [3]: the target's (every transport), TCP's, DoT's */
};

struct transport_log {
	int fd; /* -1: not written (no folder, no connections, or a failed write) */
	char path[4200];
	char *text; /* the interval's rows, written with one write(2) */
	size_t len, cap;
	bool failed;          /* said once */
	bool short_of_memory; /* the row being formatted is dropped */
};

/* Opens dir/transports.csv for appending (the header when new or empty) when some client of
 * model keeps a connection; a file with another header is refused. dir NULL: nothing written. */
bool transport_log_open(struct transport_log *log, const char *dir,
                        const struct client_model *model, char *err, size_t err_size);

/* The starting readings of target t (its histograms as they are now); false when out of memory. */
bool transport_log_prev_init(struct transport_log_prev *prev, const struct pacer_target *t);
void transport_log_prev_free(struct transport_log_prev *prev);

/* Rows of target t (named name) for the interval ending at t_s: one per transport it has
 * clients of. server: the resolver's stats read this interval, NULL when not. */
void transport_log_rows(struct transport_log *log, struct transport_log_prev *prev, double t_s,
                        const char *name, const struct pacer_target *t,
                        const struct control_stats *server);

/* Writes the interval's rows; false (and said on stderr once) when the write failed. */
bool transport_log_flush(struct transport_log *log);

void transport_log_close(struct transport_log *log);

#endif
