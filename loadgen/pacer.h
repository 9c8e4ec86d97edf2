/* loadgen/pacer.h - the open-loop clock: sends every query at its scheduled time to every target,
 * on a libevent loop that also takes the answers in. */
#ifndef ALLOCSPIKE_LOADGEN_PACER_H
#define ALLOCSPIKE_LOADGEN_PACER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "client_model.h"
#include "counters.h"
#include "matcher.h"
#include "phase_tally.h"
#include "querystream.h"
#include "receiver.h"
#include "replay.h"
#include "schedule.h"
#include "sender.h"
#include "targets.h"
#include "tcp_clients.h"

struct pacer_target {
	struct target_spec spec;
	struct sender sender;
	struct matcher matcher;
	struct counters counters;
	struct tcp_clients
	    tcp; /* its TCP and DoT clients' connections (when the pacer has clients) */
	struct phase_tally *tallies; /* per instance of plan: what was sent in it became of */
	int gone; /* set by the recorder once the target's process has ended: sending stops */
};

enum pacer_state { PACER_WAITING, PACER_SENDING, PACER_DRAINING, PACER_DONE };

struct event_base;
struct event;

struct pacer {
	const struct schedule *schedule;
	const struct phase_plan *plan; /* the schedule's phase instances */
	size_t phase;                  /* the schedule phase queries are sent in now */
	struct querystream *queries;
	struct pacer_target *targets;
	unsigned count;
	struct event_base *base; /* the one event loop: the pacing timer and every socket's reads */
	struct event *tick;      /* the pacing timer (libevent's precise timers) */
	struct receiver receiver;
	uint64_t k;        /* the next query to send */
	uint64_t start_ns; /* the monotonic instant the schedule starts */
	double end_s;      /* sending stops here: the schedule's end, or -l */
	uint64_t total;    /* queries to send: schedule_due(end_s) */
	unsigned batch_max;
	uint64_t timeout_ns;
	/* TCP (docs/loadgen.md, "Clients and transports"): NULL when every query goes over UDP and
	 * nothing is retried; otherwise who sends each query, over which transport */
	const struct client_model *clients;
	uint64_t
	    tcp_idle_ns; /* a TCP client closes its connection after this long without queries */
	bool tc_retry;   /* a truncated UDP answer's query goes again over TCP */
	const struct tls_client *tls; /* the DoT clients' credentials; NULL when there are none */
	/* --replay: each query leaves at its own instant in the plan (the schedule then only names
	 * the phase: one baseline as long as the plan), NULL otherwise */
	const struct replay *replay;
	/* --shard with a query file: whose queries this generator sends (client_model_owned), when
	 * clients is NULL (every query over UDP); NULL without --shard */
	const struct client_model *shard;
	volatile sig_atomic_t *stop;
	/* read by the recorder thread (relaxed atomics) */
	uint64_t next_k;                 /* queries handed to the targets so far */
	int state;                       /* enum pacer_state */
	uint64_t stop_ns;                /* when sending ended (monotonic), 0 before */
	uint64_t done_ns;                /* when the pacer returned */
	uint64_t first_send_realtime_ns; /* when the first query left (CLOCK_REALTIME), 0 before */
};

/* Opens the event loop, each target's sockets and the receiver. */
bool pacer_init(struct pacer *p, char *err, size_t err_size, unsigned ports);

/* Runs the event loop: the schedule to its end (or *stop), then the answers still due (up to the
 * timeout). Returns false when interrupted. */
bool pacer_run(struct pacer *p);

void pacer_close(struct pacer *p);

#endif
