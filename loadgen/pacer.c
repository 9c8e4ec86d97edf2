/* loadgen/pacer.c - the open-loop clock: sends every query at its scheduled time to every target.
 */
#include "pacer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monotonic.h"

/* The longest a sleep may last: how quickly a stop request and timeouts are noticed. */
#define PACER_MAX_WAIT_NS 5000000
/* At most one sending round per quantum: long enough for PACER_ROUND_QUERIES at the current rate,
 * within [PACER_QUANTUM_MIN_NS, PACER_QUANTUM_MAX_NS]. Below 1000 queries per second each query
 * leaves at its own instant; above, queries leave in batches at most a quantum late, which costs
 * far fewer wake-ups and system calls per query. Answers are read at each round, timed by the
 * kernel, so batching does not change the latencies measured. */
#define PACER_ROUND_QUERIES 32
#define PACER_QUANTUM_MIN_NS 100000
#define PACER_QUANTUM_MAX_NS 1000000
/* A generator that fell behind catches up at most this long past the schedule's end; what is
 * still unsent then is a shortfall (reported), so every run ends on time. */
#define PACER_GRACE_S 0.5

bool pacer_init(struct pacer *p, char *err, size_t err_size, unsigned ports)
{
	if (!receiver_init(&p->receiver, p->count * ports, err, err_size))
		return false;
	for (unsigned i = 0; i < p->count; i++) {
		struct pacer_target *t = &p->targets[i];
		latency_hist_init(&t->counters.latency);
		if (!matcher_init(&t->matcher, ports, p->timeout_ns, &t->counters)) {
			snprintf(err, err_size, "target %s: out of memory", t->spec.name);
			return false;
		}
		if (!sender_open(&t->sender, &t->spec, ports, p->batch_max, err, err_size))
			return false;
		for (unsigned port = 0; port < ports; port++)
			if (!receiver_add(&p->receiver, t->sender.fds[port], port, &t->matcher, err,
			                  err_size))
				return false;
	}
	return true;
}

/* Sends queries [from, from + n) to every target still there, at the same instant. */
static void pacer_send(struct pacer *p, uint64_t from, unsigned n)
{
	uint64_t now = realtime_ns();
	for (unsigned i = 0; i < p->count; i++) {
		struct pacer_target *t = &p->targets[i];
		if (__atomic_load_n(&t->gone, __ATOMIC_RELAXED))
			continue;
		sender_send(&t->sender, p->queries, &t->matcher, from, n, now);
	}
}

static void pacer_expire(struct pacer *p)
{
	uint64_t now = realtime_ns();
	for (unsigned i = 0; i < p->count; i++)
		matcher_expire(&p->targets[i].matcher, now);
}

static bool pacer_idle(const struct pacer *p)
{
	for (unsigned i = 0; i < p->count; i++)
		if (p->targets[i].matcher.outstanding)
			return false;
	return true;
}

/* Sleeps until the monotonic instant (a signal ends the sleep early: the caller checks stop). */
static void pacer_sleep_until(uint64_t deadline)
{
	struct timespec ts = {.tv_sec = (time_t)(deadline / 1000000000),
	                      .tv_nsec = (long)(deadline % 1000000000)};
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

bool pacer_run(struct pacer *p)
{
	uint64_t k = 0;
	const double start = (double)p->start_ns;
	__atomic_store_n(&p->state, PACER_WAITING, __ATOMIC_RELAXED);
	while (!*p->stop && monotonic_ns() < p->start_ns)
		pacer_sleep_until(p->start_ns);
	__atomic_store_n(&p->state, PACER_SENDING, __ATOMIC_RELAXED);
	while (!*p->stop && k < p->total) {
		uint64_t now = monotonic_ns();
		double t = ((double)now - start) / 1e9;
		if (t > p->end_s + PACER_GRACE_S)
			break;
		receiver_poll(&p->receiver, 0);
		uint64_t due = schedule_due(p->schedule, t < p->end_s ? t : p->end_s);
		if (due > p->total)
			due = p->total;
		/* what is due, in batches (many when catching up), answers read in between */
		while (k < due && !*p->stop) {
			unsigned n = due - k > p->batch_max ? p->batch_max : (unsigned)(due - k);
			pacer_send(p, k, n);
			k += n;
			__atomic_store_n(&p->next_k, k, __ATOMIC_RELAXED);
			if (k < due)
				receiver_poll(&p->receiver, 0);
		}
		pacer_expire(p);
		if (k >= p->total)
			break;
		uint64_t next = (uint64_t)(start + schedule_time_of(p->schedule, k) * 1e9);
		double rate = schedule_rate_at(p->schedule, t);
		double quantum = rate > 0 ? PACER_ROUND_QUERIES / rate * 1e9 : PACER_QUANTUM_MAX_NS;
		quantum = quantum < PACER_QUANTUM_MIN_NS   ? PACER_QUANTUM_MIN_NS
		          : quantum > PACER_QUANTUM_MAX_NS ? PACER_QUANTUM_MAX_NS
		                                           : quantum;
		uint64_t earliest = now + (uint64_t)quantum, latest = now + PACER_MAX_WAIT_NS;
		pacer_sleep_until(next < earliest ? earliest : next > latest ? latest : next);
	}
	uint64_t stopped = monotonic_ns();
	__atomic_store_n(&p->stop_ns, stopped, __ATOMIC_RELAXED);
	__atomic_store_n(&p->state, PACER_DRAINING, __ATOMIC_RELAXED);
	/* the answers still due: until all came or the last query timed out */
	while (!*p->stop && !pacer_idle(p) && monotonic_ns() <= stopped + p->timeout_ns) {
		receiver_poll(&p->receiver, PACER_MAX_WAIT_NS);
		pacer_expire(p);
	}
	if (!*p->stop) /* everything sent before stopped has had its full timeout */
		for (unsigned i = 0; i < p->count; i++)
			matcher_expire(&p->targets[i].matcher, UINT64_MAX - p->timeout_ns);
	__atomic_store_n(&p->done_ns, monotonic_ns(), __ATOMIC_RELAXED);
	__atomic_store_n(&p->state, PACER_DONE, __ATOMIC_RELEASE);
	return !*p->stop;
}

void pacer_close(struct pacer *p)
{
	for (unsigned i = 0; i < p->count; i++) {
		sender_close(&p->targets[i].sender);
		matcher_free(&p->targets[i].matcher);
	}
	receiver_close(&p->receiver);
}
