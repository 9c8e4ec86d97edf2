/* loadgen/pacer.c - the open-loop clock: sends every query at its scheduled time to every target.
 */
#include "pacer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monotonic.h"

/* The longest a wait may last: how quickly a stop request and timeouts are noticed. */
#define PACER_MAX_WAIT_NS 5000000
/* Below this a wait costs more than it saves (the kernel's timer slack is ~50 us): spin instead. */
#define PACER_MIN_WAIT_NS 20000
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

static void pacer_publish(uint64_t *field, uint64_t v)
{
	__atomic_store_n(field, v, __ATOMIC_RELAXED);
}

/* Sends queries [from, from + n) to every target still there, at the same instant. */
static void pacer_send(struct pacer *p, uint64_t from, unsigned n)
{
	uint64_t now = monotonic_ns();
	for (unsigned i = 0; i < p->count; i++) {
		struct pacer_target *t = &p->targets[i];
		if (__atomic_load_n(&t->gone, __ATOMIC_RELAXED))
			continue;
		sender_send(&t->sender, p->queries, &t->matcher, from, n, now);
	}
}

static void pacer_expire(struct pacer *p, uint64_t now)
{
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

bool pacer_run(struct pacer *p)
{
	uint64_t k = 0;
	const double start = (double)p->start_ns;
	__atomic_store_n(&p->state, PACER_WAITING, __ATOMIC_RELAXED);
	/* before the start only wait (answers cannot come yet) */
	for (uint64_t now; !*p->stop && (now = monotonic_ns()) < p->start_ns;)
		receiver_poll(&p->receiver, (int64_t)(p->start_ns - now) < PACER_MAX_WAIT_NS
		                                ? (int64_t)(p->start_ns - now)
		                                : PACER_MAX_WAIT_NS);
	__atomic_store_n(&p->state, PACER_SENDING, __ATOMIC_RELAXED);
	while (!*p->stop && k < p->total) {
		uint64_t now = monotonic_ns();
		double t = ((double)now - start) / 1e9;
		if (t > p->end_s + PACER_GRACE_S)
			break;
		uint64_t due = schedule_due(p->schedule, t < p->end_s ? t : p->end_s);
		if (due > p->total)
			due = p->total;
		if (k < due) {
			/* behind (or just due): catch up a batch at a time, answers read between */
			unsigned n = due - k > p->batch_max ? p->batch_max : (unsigned)(due - k);
			pacer_send(p, k, n);
			k += n;
			pacer_publish(&p->next_k, k);
			receiver_poll(&p->receiver, 0);
			pacer_expire(p, now);
			continue;
		}
		pacer_expire(p, now);
		double next = start + schedule_time_of(p->schedule, k) * 1e9;
		int64_t wait = (int64_t)(next - (double)monotonic_ns());
		if (wait > PACER_MAX_WAIT_NS)
			wait = PACER_MAX_WAIT_NS;
		receiver_poll(&p->receiver, wait > PACER_MIN_WAIT_NS ? wait : 0);
	}
	uint64_t stopped = monotonic_ns();
	pacer_publish(&p->stop_ns, stopped);
	__atomic_store_n(&p->state, PACER_DRAINING, __ATOMIC_RELAXED);
	/* the answers still due: until all came or the last query timed out */
	while (!*p->stop && !pacer_idle(p)) {
		uint64_t now = monotonic_ns();
		pacer_expire(p, now);
		if (now > stopped + p->timeout_ns)
			break;
		receiver_poll(&p->receiver, PACER_MAX_WAIT_NS);
	}
	pacer_expire(p, monotonic_ns());
	pacer_publish(&p->done_ns, monotonic_ns());
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
