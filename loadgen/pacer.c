/* loadgen/pacer.c - the open-loop clock: sends every query at its scheduled time to every target,
 * on a libevent loop that also takes the answers in. */
#include "pacer.h"

#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monotonic.h"

/* The longest the timer waits: how quickly a stop request and timeouts are noticed. */
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

static void pacer_on_tick(evutil_socket_t fd, short what, void *arg);

/* The target's TCP and DoT clients, and the retry of truncated answers through them. */
static bool pacer_init_tcp(struct pacer *p, struct pacer_target *t, char *err, size_t err_size)
{
	struct tcp_shared shared = {.base = p->base,
	                            .target = &t->spec,
	                            .matcher = &t->matcher,
	                            .queries = p->queries,
	                            .idle_ns = p->tcp_idle_ns,
	                            .timeout_ns = p->timeout_ns};
	if (!tcp_clients_init(&t->tcp, &shared, p->clients, p->tls, err, err_size))
		return false;
	if (p->tc_retry) {
		t->matcher.retry_truncated = tcp_clients_retry;
		t->matcher.retry_arg = &t->tcp;
	}
	return true;
}

bool pacer_init(struct pacer *p, char *err, size_t err_size, unsigned ports)
{
	struct event_config *cfg = event_config_new();
	if (cfg) {
		/* fine-grained timers (a quantum is 100 us to 1 ms); only the pacing thread uses
		 * the base, so it needs no locks */
		event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER | EVENT_BASE_FLAG_NOLOCK);
		p->base = event_base_new_with_config(cfg);
		event_config_free(cfg);
	}
	p->tick = p->base ? evtimer_new(p->base, pacer_on_tick, p) : NULL;
	if (!p->tick) {
		snprintf(err, err_size, "cannot start the event loop (libevent)");
		return false;
	}
	if (!receiver_init(&p->receiver, p->base, p->count * ports, err, err_size))
		return false;
	for (unsigned i = 0; i < p->count; i++) {
		struct pacer_target *t = &p->targets[i];
		latency_hist_init(&t->counters.latency);
		t->tallies = calloc(p->plan->count ? p->plan->count : 1, sizeof(*t->tallies));
		if (!t->tallies || !matcher_init(&t->matcher, ports, p->timeout_ns, &t->counters)) {
			snprintf(err, err_size, "target %s: out of memory", t->spec.name);
			return false;
		}
		t->matcher.tallies = t->tallies;
		if (!sender_open(&t->sender, &t->spec, ports, p->batch_max, err, err_size))
			return false;
		for (unsigned port = 0; port < ports; port++)
			if (!receiver_add(&p->receiver, t->sender.fds[port], port, &t->matcher, err,
			                  err_size))
				return false;
		if (p->clients && !pacer_init_tcp(p, t, err, err_size))
			return false;
	}
	return true;
}

/* The phase instance queries sent now count in: that of the phase running (the last one begun
 * before the end while catching up past it). */
static uint32_t pacer_instance(struct pacer *p)
{
	const struct schedule *s = p->schedule;
	double t = ((double)monotonic_ns() - (double)p->start_ns) / 1e9;
	while (p->phase + 1 < s->count && s->phases[p->phase + 1].start_s <= t &&
	       s->phases[p->phase + 1].start_s < p->end_s)
		p->phase++;
	return p->plan->of_phase[p->phase];
}

/* Sends queries [from, from + n) to every target still there, at the same instant. */
static void pacer_send(struct pacer *p, uint64_t from, unsigned n)
{
	uint64_t now = realtime_ns();
	uint32_t instance = pacer_instance(p);
	const struct client_model *who = p->clients ? p->clients : p->shard;
	bool any = false;
	for (unsigned i = 0; i < p->count; i++) {
		struct pacer_target *t = &p->targets[i];
		if (__atomic_load_n(&t->gone, __ATOMIC_RELAXED))
			continue;
		t->matcher.instance_now = instance;
		uint64_t before = t->counters.sent;
		sender_send(&t->sender, p->queries, &t->matcher, who, from, n, now);
		if (p->clients && (p->clients->tcp || p->clients->dot))
			tcp_clients_send(&t->tcp, from, n, now);
		any = any || t->counters.sent != before;
	}
	/* the shards' first sends, compared across generators started at one --start-at */
	if (any && !p->first_send_realtime_ns)
		p->first_send_realtime_ns = now;
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

static bool pacer_stopped(const struct pacer *p)
{
	return __atomic_load_n(p->stop, __ATOMIC_RELAXED) != 0;
}

/* The pacing timer fires next at the monotonic instant deadline, or within PACER_MAX_WAIT_NS
 * (how quickly a stop request is noticed). */
static void pacer_arm(struct pacer *p, uint64_t deadline)
{
	event_base_update_cache_time(p->base); /* the callback's own time counts */
	uint64_t now = monotonic_ns();
	uint64_t wait = deadline > now ? deadline - now : 0;
	if (wait > PACER_MAX_WAIT_NS)
		wait = PACER_MAX_WAIT_NS;
	struct timeval tv = {.tv_sec = 0, .tv_usec = (suseconds_t)(wait / 1000)};
	evtimer_add(p->tick, &tv);
}

static void pacer_finish(struct pacer *p)
{
	if (!pacer_stopped(p)) /* everything sent before stopped has had its full timeout */
		for (unsigned i = 0; i < p->count; i++)
			matcher_expire(&p->targets[i].matcher, UINT64_MAX - p->timeout_ns);
	__atomic_store_n(&p->done_ns, monotonic_ns(), __ATOMIC_RELAXED);
	__atomic_store_n(&p->state, PACER_DONE, __ATOMIC_RELEASE);
	event_base_loopbreak(p->base);
}

static void pacer_stop_sending(struct pacer *p, uint64_t now)
{
	__atomic_store_n(&p->stop_ns, now, __ATOMIC_RELAXED);
	__atomic_store_n(&p->state, PACER_DRAINING, __ATOMIC_RELAXED);
	receiver_watch(&p->receiver, true); /* the last answers, as they come */
}

/* Queries due t seconds after the start (at most the total): the schedule's, or the replay's. */
static uint64_t pacer_due(const struct pacer *p, double t)
{
	if (t > p->end_s)
		t = p->end_s;
	uint64_t due =
	    p->replay ? replay_due(p->replay, (uint64_t)(t * 1e9)) : schedule_due(p->schedule, t);
	return due > p->total ? p->total : due;
}

/* The monotonic instant query k is due. */
static uint64_t pacer_time_of(const struct pacer *p, uint64_t k)
{
	if (p->replay)
		return p->start_ns + p->replay->at_ns[k];
	return (uint64_t)((double)p->start_ns + schedule_time_of(p->schedule, k) * 1e9);
}

/* One sending round: the answers that arrived since the last one, then what is due, in batches
 * (many when catching up, answers read in between), then the timer set for the next query, at
 * most one round per quantum. While sending, the sockets' read events are off: answers wait in
 * the sockets, timed by the kernel, instead of waking the loop between rounds (measured: that
 * doubled the loop's wake-ups and cost 10-20 % more CPU per query at 100k queries per second). */
static void pacer_round(struct pacer *p, uint64_t now)
{
	const double start = (double)p->start_ns;
	double t = ((double)now - start) / 1e9;
	if (t > p->end_s + PACER_GRACE_S) {
		pacer_stop_sending(p, now);
		return;
	}
	receiver_drain_all(&p->receiver);
	uint64_t due = pacer_due(p, t);
	while (p->k < due && !pacer_stopped(p)) {
		unsigned n = due - p->k > p->batch_max ? p->batch_max : (unsigned)(due - p->k);
		if (!querystream_wait(p->queries, p->k + n)) { /* a streamed file failed */
			__atomic_store_n(p->stop, 1, __ATOMIC_RELAXED);
			break;
		}
		pacer_send(p, p->k, n);
		p->k += n;
		querystream_release(p->queries, p->k);
		__atomic_store_n(&p->next_k, p->k, __ATOMIC_RELAXED);
		if (p->k < due)
			receiver_drain_all(&p->receiver);
	}
	pacer_expire(p);
	if (p->k >= p->total) {
		pacer_stop_sending(p, monotonic_ns());
		return;
	}
	uint64_t next = pacer_time_of(p, p->k);
	/* a replay's rate changes from query to query: its queries leave at their own instants */
	double rate = p->replay ? 0 : schedule_rate_at(p->schedule, t);
	double quantum = rate > 0    ? PACER_ROUND_QUERIES / rate * 1e9
	                 : p->replay ? PACER_QUANTUM_MIN_NS
	                             : PACER_QUANTUM_MAX_NS;
	quantum = quantum < PACER_QUANTUM_MIN_NS   ? PACER_QUANTUM_MIN_NS
	          : quantum > PACER_QUANTUM_MAX_NS ? PACER_QUANTUM_MAX_NS
	                                           : quantum;
	uint64_t earliest = now + (uint64_t)quantum;
	pacer_arm(p, next < earliest ? earliest : next);
}

static void pacer_on_tick(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	struct pacer *p = arg;
	uint64_t now = monotonic_ns();
	if (pacer_stopped(p)) {
		if (p->state != PACER_DRAINING)
			pacer_stop_sending(p, now);
		pacer_finish(p);
		return;
	}
	if (p->state == PACER_WAITING) {
		if (now < p->start_ns) {
			pacer_arm(p, p->start_ns);
			return;
		}
		__atomic_store_n(&p->state, PACER_SENDING, __ATOMIC_RELAXED);
	}
	if (p->state == PACER_SENDING) {
		pacer_round(p, now);
		if (p->state == PACER_SENDING)
			return;
	}
	/* draining: the answers still due, until all came or the last query timed out */
	pacer_expire(p);
	if (pacer_idle(p) || monotonic_ns() > p->stop_ns + p->timeout_ns)
		pacer_finish(p);
	else
		pacer_arm(p, monotonic_ns() + PACER_MAX_WAIT_NS);
}

bool pacer_run(struct pacer *p)
{
	p->k = 0;
	__atomic_store_n(&p->state, PACER_WAITING, __ATOMIC_RELAXED);
	pacer_arm(p, p->start_ns);
	event_base_dispatch(p->base);
	return !pacer_stopped(p);
}

void pacer_close(struct pacer *p)
{
	for (unsigned i = 0; i < p->count; i++) {
		sender_close(&p->targets[i].sender);
		tcp_clients_close(&p->targets[i].tcp);
		matcher_free(&p->targets[i].matcher);
		free(p->targets[i].tallies);
		p->targets[i].tallies = NULL;
	}
	receiver_close(&p->receiver);
	if (p->tick)
		event_free(p->tick);
	if (p->base)
		event_base_free(p->base);
	p->tick = NULL;
	p->base = NULL;
}
