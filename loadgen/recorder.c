/* loadgen/recorder.c - every interval: traffic counters, /proc samples and resolver stats to the
 * run folder. */
#include "recorder.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control_client.h"
#include "harness_saturation.h"
#include "monotonic.h"
#include "phase_writer.h"
#include "progress.h"
#include "threads.h"

/* Behind the schedule by more than this: a shortfall (event and stderr); caught up below the
 * second. Short stalls (a busy core for a few ms) are caught up in batches and not reported. */
#define RECORDER_BEHIND_S 0.1
#define RECORDER_CAUGHT_UP_S 0.01
#define RECORDER_CONTROL_TIMEOUT_MS 200
/* phases.csv is rewritten whole, so a schedule of thousands of phases makes each rewrite longer:
 * one waits until this many times its last rewrite's duration has passed (never, for schedules of
 * tens of phases: a rewrite takes well under a millisecond). */
#define RECORDER_PHASES_SPACING 100
/* Reads of a target's counters and histogram before taking them as they are (at saturation an
 * answer lands every few microseconds; a read takes about as long). */
#define RECORDER_SNAPSHOT_TRIES 64

struct recorder_state {
	double t_prev;
	size_t next_phase;
	bool behind;
	uint64_t tick;
	double cpu_prev, cpu_prev_t; /* cpu_prev NAN until the first reading */
	bool saturated;
	uint64_t sent_prev;
	uint64_t send_errors_seen;
	bool phases_due;       /* a phase began since phases.csv was last rewritten */
	uint64_t phases_after; /* monotonic: not rewritten again before */
};

static double recorder_t(const struct recorder *r, uint64_t ns)
{
	return ((double)ns - (double)r->pacer->start_ns) / 1e9;
}

static void recorder_event(struct recorder *r, double t, const char *variant, const char *event,
                           json_t *extra)
{
	runfolder_writer_event(r->writer, t, variant, event, extra);
}

/* Phase events for every phase that began by t (several when phases are shorter than a tick),
 * and phases.csv rewritten once they did: the instance that ended is complete but for the
 * answers still awaited. */
static void recorder_phases(struct recorder *r, struct recorder_state *st, double t)
{
	const struct schedule *s = r->schedule;
	size_t before = st->next_phase;
	while (st->next_phase < s->count && s->phases[st->next_phase].start_s <= t &&
	       s->phases[st->next_phase].start_s < r->pacer->end_s) {
		const struct schedule_phase *ph = &s->phases[st->next_phase++];
		recorder_event(r, ph->start_s, "_loadgen", "phase",
		               json_pack("{s:s,s:i}", "phase", schedule_kind_name(ph->kind),
		                         "spike", (int)ph->spike));
	}
	st->phases_due |= st->next_phase != before;
	uint64_t now = monotonic_ns();
	if (st->phases_due && now >= st->phases_after) {
		phase_writer_write(r->writer, r->pacer, t);
		st->phases_due = false;
		st->phases_after = now + (monotonic_ns() - now) * RECORDER_PHASES_SPACING;
	}
}

static double q_ms(const struct latency_hist *h, double q)
{
	double ns = latency_hist_quantile(h, q);
	return ns < 0 ? NAN : ns / 1e6;
}

static void recorder_traffic(struct recorder *r, struct recorder_source *src,
                             struct timeline_row *row, double dt)
{
	struct counters now;
	struct pacer_target *t = src->target;
	struct latency_hist *snap = malloc(2 * sizeof(*snap));
	/* The receiving thread counts an answer, then its latency: a snapshot taken between the
	 * two would put the answer in this interval's count and the next one's histogram (a
	 * shard's interval_hist.csv must add up to its timeline). So the two are read again until
	 * they hold the same answers; an answer takes well under a read's time, so this ends. */
	for (unsigned tries = 0; tries < RECORDER_SNAPSHOT_TRIES; tries++) {
		counters_snapshot(&t->counters, &now);
		if (!snap)
			break;
		latency_hist_snapshot(&t->counters.latency, &snap[0]);
		if (snap[0].count == now.answered)
			break;
	}
	if (snap) {
		latency_hist_diff(&snap[0], src->prev_hist, &snap[1]);
		row->cells[TIMELINE_COL_lat_p50_ms] = q_ms(&snap[1], 0.5);
		row->cells[TIMELINE_COL_lat_p90_ms] = q_ms(&snap[1], 0.9);
		row->cells[TIMELINE_COL_lat_p99_ms] = q_ms(&snap[1], 0.99);
		if (r->interval_hists)
			interval_hist_log_rows(r->interval_hists, row->t_s, src->name, row->phase,
			                       row->spike, &snap[1]);
		memcpy(src->prev_hist, &snap[0], sizeof(*snap));
		free(snap);
	}
	const struct counters *p = &src->prev;
	row->cells[TIMELINE_COL_sent] = (double)(now.sent - p->sent);
	row->cells[TIMELINE_COL_answered] = (double)(now.answered - p->answered);
	row->cells[TIMELINE_COL_timeouts] = (double)(now.timeouts - p->timeouts);
	row->cells[TIMELINE_COL_noerror] = (double)(now.noerror - p->noerror);
	row->cells[TIMELINE_COL_nxdomain] = (double)(now.nxdomain - p->nxdomain);
	row->cells[TIMELINE_COL_servfail] = (double)(now.servfail - p->servfail);
	row->cells[TIMELINE_COL_rcode_other] = (double)(now.rcode_other - p->rcode_other);
	row->cells[TIMELINE_COL_late_or_foreign] =
	    (double)(now.late_or_foreign - p->late_or_foreign);
	src->answered_qps = dt > 0 ? (double)(now.answered - p->answered) / dt : 0;
	src->prev = now;
}

static void recorder_process(struct recorder *r, struct recorder_source *src,
                             struct timeline_row *row, bool slow, double t)
{
	struct proc_sample ps;
	if (proc_watch_sample(&src->proc, slow, &ps) == PROC_SAMPLE_GONE) {
		if (!src->gone) {
			src->gone = true;
			src->rss_kb = -1;
			if (src->target) /* stop sending to it; the others go on */
				__atomic_store_n(&src->target->gone, 1, __ATOMIC_RELAXED);
			recorder_event(r, t, src->name, "gone",
			               json_pack("{s:i}", "pid", (int)src->proc.pid));
			fprintf(stderr, "allocspike-loadgen: %s (pid %ld) is gone at t=%.3f s\n",
			        src->name, (long)src->proc.pid, t);
		}
		return;
	}
	src->rss_kb = ps.rss_kb;
	if (ps.rss_kb >= 0)
		row->cells[TIMELINE_COL_rss_kb] = (double)ps.rss_kb;
	if (ps.anon_kb >= 0)
		row->cells[TIMELINE_COL_anon_kb] = (double)ps.anon_kb;
	if (ps.hwm_kb >= 0)
		row->cells[TIMELINE_COL_hwm_kb] = (double)ps.hwm_kb;
	if (ps.pss_kb >= 0)
		row->cells[TIMELINE_COL_pss_kb] = (double)ps.pss_kb;
	row->cells[TIMELINE_COL_cpu_user_s] = ps.cpu_user_s;
	row->cells[TIMELINE_COL_cpu_sys_s] = ps.cpu_sys_s;
}

static void recorder_control(struct recorder *r, struct recorder_source *src,
                             struct timeline_row *row, double t)
{
	struct control_stats cs;
	char err[256];
	if (!control_stats(src->control, RECORDER_CONTROL_TIMEOUT_MS, &cs, err, sizeof(err))) {
		if (!src->control_failed && !src->gone)
			fprintf(stderr, "allocspike-loadgen: %s stats at t=%.3f s: %s\n", src->name,
			        t, err);
		src->control_failed = true;
		return;
	}
	src->control_failed = false;
	src->server = cs;
	src->server_read = true;
	row->cells[TIMELINE_COL_cache_entries] = cs.cache_entries;
	row->cells[TIMELINE_COL_cache_bytes] = cs.cache_bytes;
	row->cells[TIMELINE_COL_inflight] = cs.inflight;
	row->cells[TIMELINE_COL_upstream_queries] = cs.upstream_queries;
	row->cells[TIMELINE_COL_alloc_allocated_bytes] = cs.alloc_allocated_bytes;
	row->cells[TIMELINE_COL_alloc_resident_bytes] = cs.alloc_resident_bytes;
	row->cells[TIMELINE_COL_live_bytes] = cs.live_bytes;
	row->cells[TIMELINE_COL_alloc_heap_bytes] = cs.alloc_heap_bytes;
	row->cells[TIMELINE_COL_alloc_free_trimmable_bytes] = cs.alloc_free_trimmable_bytes;
	row->cells[TIMELINE_COL_alloc_free_fragmented_bytes] = cs.alloc_free_fragmented_bytes;
	row->cells[TIMELINE_COL_alloc_unmapped_bytes] = cs.alloc_unmapped_bytes;
	row->cells[TIMELINE_COL_request_list_current] = cs.request_list_current;
	row->cells[TIMELINE_COL_request_list_exceeded] = cs.request_list_exceeded;
	row->cells[TIMELINE_COL_request_list_overwritten] = cs.request_list_overwritten;
	row->cells[TIMELINE_COL_inflight_max] = cs.inflight_max;
	row->cells[TIMELINE_COL_live_bytes_max] = cs.live_bytes_max;
}

/* Shortfall: the generator is behind its schedule or a socket refused queries. Never silent. */
static void recorder_shortfall(struct recorder *r, struct recorder_state *st, double t_now)
{
	struct pacer *p = r->pacer;
	uint64_t next_k = __atomic_load_n(&p->next_k, __ATOMIC_RELAXED);
	double behind = 0;
	if (__atomic_load_n(&p->state, __ATOMIC_RELAXED) == PACER_SENDING && next_k < p->total) {
		double t_next = schedule_time_of(r->schedule, next_k);
		if (t_next < t_now)
			behind = t_now - t_next;
	}
	if (behind > r->max_behind_s)
		r->max_behind_s = behind;
	if (!st->behind && behind > RECORDER_BEHIND_S) {
		st->behind = true;
		r->shortfalls++;
		uint64_t due = schedule_due(r->schedule, t_now < p->end_s ? t_now : p->end_s);
		recorder_event(r, t_now, "_loadgen", "shortfall",
		               json_pack("{s:f,s:I,s:I}", "behind_s", behind, "due",
		                         (json_int_t)due, "sent", (json_int_t)next_k));
		fprintf(stderr,
		        "allocspike-loadgen: shortfall at t=%.3f s: %.3f s behind the schedule "
		        "(%llu of %llu queries sent)\n",
		        t_now, behind, (unsigned long long)next_k, (unsigned long long)due);
	} else if (st->behind && behind < RECORDER_CAUGHT_UP_S) {
		st->behind = false;
		recorder_event(r, t_now, "_loadgen", "caught_up", NULL);
	}
	uint64_t errors = 0;
	for (unsigned i = 0; i < p->count; i++)
		errors += counters_read(&p->targets[i].counters.send_errors);
	if (errors > st->send_errors_seen) {
		r->shortfalls++;
		recorder_event(
		    r, t_now, "_loadgen", "send_errors",
		    json_pack("{s:I}", "queries", (json_int_t)(errors - st->send_errors_seen)));
		fprintf(stderr,
		        "allocspike-loadgen: shortfall at t=%.3f s: %llu queries refused by "
		        "the sockets\n",
		        t_now, (unsigned long long)(errors - st->send_errors_seen));
		st->send_errors_seen = errors;
	}
}

/* The generator's own CPU share over each second: a saturated harness makes every curve suspect. */
static void recorder_saturation(struct recorder *r, struct recorder_state *st,
                                const struct timeline_row *row, double t)
{
	double cpu = row->cells[TIMELINE_COL_cpu_user_s] + row->cells[TIMELINE_COL_cpu_sys_s];
	if (isnan(cpu))
		return;
	/* The first reading starts the first window: the CPU spent before the schedule began
	 * (reading a query file of a million lines takes a third of a second here) is not the
	 * traffic's. */
	if (isnan(st->cpu_prev)) {
		st->cpu_prev = cpu;
		st->cpu_prev_t = t;
		return;
	}
	if (t - st->cpu_prev_t < HARNESS_WINDOW_S)
		return;
	double share = (cpu - st->cpu_prev) / (t - st->cpu_prev_t);
	st->cpu_prev = cpu;
	st->cpu_prev_t = t;
	if (!st->saturated && harness_saturated(share)) {
		st->saturated = true;
		recorder_event(r, t, "_loadgen", "harness_saturated",
		               json_pack("{s:f}", "cpu_share", round(share * 1000) / 1000));
	} else if (st->saturated && share < HARNESS_SATURATED_CORES * 0.8) {
		st->saturated = false;
	}
}

/* A write to the run folder failed (a full disk): the writer appends nothing more to that file.
 * Said once, as an event if events.jsonl still takes one, and the run stops: what it would do
 * next could not be recorded. The exit status tells (main). */
static void recorder_write_failure(struct recorder *r, double t)
{
	const char *failure = runfolder_writer_failure(r->writer);
	if (!failure || r->write_failed)
		return;
	r->write_failed = true;
	fprintf(stderr,
	        "allocspike-loadgen: writing the run folder failed at t=%.3f s: %s; stopping\n", t,
	        failure);
	recorder_event(r, t, "_loadgen", "write_failed", json_pack("{s:s}", "error", failure));
	__atomic_store_n(r->pacer->stop, 1, __ATOMIC_RELAXED);
}

static void recorder_row(struct recorder *r, struct recorder_state *st, double t, bool last)
{
	const struct schedule *s = r->schedule;
	struct pacer *p = r->pacer;
	double dt = t - st->t_prev;
	bool slow = last || st->tick % r->slow_every == 0;
	/* the phase the interval ended in; past the end, the last one */
	double t_in = t - 1e-9 < p->end_s ? t - 1e-9 : p->end_s - 1e-9;
	const struct schedule_phase *ph = schedule_phase_at(s, t_in);
	double a = st->t_prev < p->end_s ? st->t_prev : p->end_s, b = t < p->end_s ? t : p->end_s;
	/* a shard is offered its own share of the interval's queries */
	uint64_t offered = client_model_owned(p->clients ? p->clients : p->shard,
	                                      schedule_due(s, a), schedule_due(s, b));
	struct progress_target ptargets[64];
	unsigned np = 0;
	for (unsigned i = 0; i < r->count; i++) {
		struct recorder_source *src = &r->sources[i];
		struct timeline_row row = {.t_s = t,
		                           .variant = src->name,
		                           .phase = schedule_kind_name(ph->kind),
		                           .spike = ph->spike};
		timeline_row_clear(&row);
		if (src->target) {
			row.cells[TIMELINE_COL_offered] = (double)offered;
			recorder_traffic(r, src, &row, dt);
		}
		if (src->has_process)
			recorder_process(r, src, &row, slow, t);
		src->server_read = false;
		if (src->control && src->control[0] && slow && !src->gone)
			recorder_control(r, src, &row, t);
		if (src->target && r->transports)
			transport_log_rows(r->transports, &src->transports, t, src->name,
			                   src->target, src->server_read ? &src->server : NULL);
		if (strcmp(src->name, "_loadgen") == 0)
			recorder_saturation(r, st, &row, t);
		runfolder_writer_row(r->writer, &row);
		if (np < 64)
			ptargets[np++] = (struct progress_target){
			    .name = src->name,
			    .answered_qps = src->target ? src->answered_qps : -1,
			    .rss_kb = src->has_process ? src->rss_kb : -1};
	}
	runfolder_writer_flush(r->writer);
	if (r->interval_hists)
		interval_hist_log_flush(r->interval_hists);
	if (r->transports)
		transport_log_flush(r->transports);
	recorder_write_failure(r, t);
	uint64_t next_k = __atomic_load_n(&p->next_k, __ATOMIC_RELAXED);
	if (r->progress && st->tick % 5 == 0 && !last) { /* a last, partial interval: no rates */
		struct progress_view v = {.t_s = t,
		                          .duration_s = p->end_s,
		                          .phase = schedule_kind_name(ph->kind),
		                          .spike = ph->spike,
		                          .offered_qps = dt > 0 ? (double)offered / dt : 0,
		                          .sent_qps =
		                              dt > 0 ? (double)(next_k - st->sent_prev) / dt : 0,
		                          .targets = ptargets,
		                          .count = np};
		progress_show(&v);
	}
	st->sent_prev = next_k;
	st->t_prev = t;
}

static void *recorder_main(void *arg)
{
	struct recorder *r = arg;
	struct pacer *p = r->pacer;
	struct recorder_state st = {.t_prev = 0, .cpu_prev = NAN};
	for (unsigned i = 0; i < r->count; i++) {
		struct recorder_source *src = &r->sources[i];
		if (src->target)
			latency_hist_snapshot(&src->target->counters.latency, src->prev_hist);
		if (src->target && r->transports &&
		    !transport_log_prev_init(&src->transports, src->target))
			fprintf(stderr,
			        "allocspike-loadgen: out of memory: no transports.csv rows "
			        "for %s\n",
			        src->name);
	}
	recorder_phases(r, &st, 0); /* the phase that starts the schedule */
	for (st.tick = 1;; st.tick++) {
		uint64_t deadline = p->start_ns + st.tick * r->interval_ns;
		struct timespec ts = {.tv_sec = (time_t)(deadline / 1000000000),
		                      .tv_nsec = (long)(deadline % 1000000000)};
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		recorder_phases(r, &st, recorder_t(r, deadline));
		bool done = __atomic_load_n(&p->state, __ATOMIC_ACQUIRE) == PACER_DONE;
		if (done) {
			/* the last, partial interval ends when the pacer did */
			uint64_t end = __atomic_load_n(&p->done_ns, __ATOMIC_RELAXED);
			double t = recorder_t(r, end < deadline ? end : deadline);
			/* after the previous row also as printed (to the millisecond) */
			recorder_row(r, &st, t >= st.t_prev + 0.001 ? t : st.t_prev + 0.001, true);
			break;
		}
		recorder_shortfall(r, &st, recorder_t(r, monotonic_ns()));
		recorder_row(r, &st, recorder_t(r, deadline), false);
	}
	if (r->progress)
		progress_end();
	return NULL;
}

bool recorder_start(struct recorder *r, char *err, size_t err_size)
{
	if (r->slow_every == 0)
		r->slow_every = 1;
	for (unsigned i = 0; i < r->count; i++) {
		r->sources[i].prev_hist = calloc(1, sizeof(struct latency_hist));
		r->sources[i].rss_kb = -1;
		if (!r->sources[i].prev_hist) {
			snprintf(err, err_size, "out of memory");
			return false;
		}
	}
	int rc = threads_start(&r->thread, recorder_main, r);
	if (rc != 0) {
		snprintf(err, err_size, "recorder thread: %s", strerror(rc));
		return false;
	}
	return true;
}

void recorder_join(struct recorder *r)
{
	pthread_join(r->thread, NULL);
	for (unsigned i = 0; i < r->count; i++) {
		free(r->sources[i].prev_hist);
		r->sources[i].prev_hist = NULL;
		transport_log_prev_free(&r->sources[i].transports);
	}
}
