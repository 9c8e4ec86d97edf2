/* reports/figures.c - the first pass: the figures read off a run folder's rows and events (the
 * run, its phases, per variant its memory, spikes, attribution, CPU and traffic, the harness). */
#include "figures.h"

#include "attribution.h"
#include "harness_saturation.h"
#include "judgement.h"
#include "machine_busy.h"
#include "model.h"
#include "schedule.h"
#include "spread.h"
#include "summary_json.h"
#include "timeline_rows.h"
#include "traffic.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KB_PER_MB 1024.0

static json_t *jnum(double v)
{
	return summary_json_number(v);
}

/* The times of the generator's phase events, ascending: where phases start. */
struct phase_starts {
	double *t;
	size_t n;
};

static struct phase_starts phase_starts_of(const struct runfolder *rf)
{
	struct phase_starts p = {malloc((rf->n_events ? rf->n_events : 1) * sizeof(*p.t)), 0};
	for (size_t i = 0; p.t && i < rf->n_events; i++)
		if (strcmp(rf->events[i].event, "phase") == 0)
			p.t[p.n++] = rf->events[i].t_s;
	if (p.t)
		qsort(p.t, p.n, sizeof(*p.t), spread_cmp_double);
	return p;
}

/* The columns whose last value before a row series_of keeps at hand. */
enum last_slot { LAST_ANON, LAST_RSS, LAST_CACHE, LAST_SLOTS };
static const enum timeline_column last_columns[LAST_SLOTS] = {
    TIMELINE_COL_anon_kb, TIMELINE_COL_rss_kb, TIMELINE_COL_cache_bytes};

/* The rows of every target, in file order, grouped by target in one pass: target t's are
 * r[start[t]] to r[start[t + 1] - 1]. So the series of all variants cost the rows once. */
struct rows_by_target {
	const struct runfolder_row **r;
	size_t *start;
};

static struct rows_by_target rows_by_target_of(const struct runfolder *rf)
{
	struct rows_by_target by = {calloc(rf->n_rows ? rf->n_rows : 1, sizeof(*by.r)),
	                            calloc(rf->n_targets + 2, sizeof(*by.start))};
	if (!by.r || !by.start) {
		free(by.r);
		free(by.start);
		return (struct rows_by_target){NULL, NULL};
	}
	for (size_t i = 0; i < rf->n_rows; i++)
		by.start[rf->rows[i].target + 2]++;
	for (size_t t = 0; t < rf->n_targets; t++)
		by.start[t + 2] += by.start[t + 1];
	/* by.start[t + 1] is now where target t's rows begin; filling moves it to their end */
	for (size_t i = 0; i < rf->n_rows; i++)
		by.r[by.start[rf->rows[i].target + 1]++] = &rf->rows[i];
	return by;
}

/* The rows of one target, in file order (pointers into rf->rows). For each row i, what the
 * figures of each spike look up from the start of the run: 1 + the index of the last row at or
 * before i with a value in each of last_columns (with an attributed sample: last_attr), 0 for
 * none; the highest alloc_heap_bytes so far (NAN for none). So each spike costs its own rows,
 * not a scan back over the run: the figures are linear in rows and spikes together. */
struct series {
	const struct runfolder_row **r; /* into a struct rows_by_target */
	size_t n;
	const struct phase_starts *phases;
	size_t *last_with[LAST_SLOTS];
	size_t *last_attr;
	double *heap_max;
};

static void series_free(struct series *s)
{
	for (int k = 0; k < LAST_SLOTS; k++)
		free(s->last_with[k]);
	free(s->last_attr);
	free(s->heap_max);
}

/* The series of target (-1: none, no rows); s.r is NULL when memory ran out. */
static struct series series_of(const struct rows_by_target *by, int target,
                               const struct phase_starts *phases)
{
	struct series s = {.phases = phases};
	if (!by->r)
		return s;
	s.r = by->r;
	if (target >= 0) {
		s.r = by->r + by->start[target];
		s.n = by->start[target + 1] - by->start[target];
	}
	size_t m = s.n ? s.n : 1;
	bool ok = s.r != NULL;
	for (int k = 0; k < LAST_SLOTS; k++)
		ok = (s.last_with[k] = malloc(m * sizeof(size_t))) && ok;
	ok = (s.last_attr = malloc(m * sizeof(size_t))) && ok;
	ok = (s.heap_max = malloc(m * sizeof(double))) && ok;
	if (!ok) {
		series_free(&s);
		return (struct series){.phases = phases};
	}
	struct attr_split unused;
	for (size_t i = 0; i < s.n; i++) {
		const struct runfolder_row *r = s.r[i];
		for (int k = 0; k < LAST_SLOTS; k++) {
			size_t before = i ? s.last_with[k][i - 1] : 0;
			s.last_with[k][i] = isnan(r->v[last_columns[k]]) ? before : i + 1;
		}
		size_t attr_before = i ? s.last_attr[i - 1] : 0;
		s.last_attr[i] = attr_split_row(r, &unused) ? i + 1 : attr_before;
		double heap = r->v[TIMELINE_COL_alloc_heap_bytes];
		double heap_before = i ? s.heap_max[i - 1] : NAN;
		s.heap_max[i] = isnan(heap_before) || heap > heap_before ? heap : heap_before;
	}
	return s;
}

struct weighted {
	double v, w;
};

static int weighted_cmp(const void *a, const void *b)
{
	double x = ((const struct weighted *)a)->v, y = ((const struct weighted *)b)->v;
	return (x > y) - (x < y);
}

/* The answered-weighted median of the intervals' quantile: the value below which half of the
 * answers' intervals lie. */
static double weighted_median(struct weighted *w, size_t n)
{
	double total = 0;
	for (size_t i = 0; i < n; i++)
		total += w[i].w;
	if (n == 0 || total <= 0)
		return NAN;
	qsort(w, n, sizeof(*w), weighted_cmp);
	double acc = 0;
	for (size_t i = 0; i < n; i++) {
		acc += w[i].w;
		if (acc >= total / 2)
			return w[i].v;
	}
	return w[n - 1].v;
}

static bool in_group(const char *phase, const char *group)
{
	if (strcmp(group, "spike") == 0)
		return strcmp(phase, "spike") == 0;
	/* "baseline": every phase at the baseline rate. */
	return strcmp(phase, "baseline") == 0 || strcmp(phase, "recovery") == 0;
}

/* The traffic of a group of phases by the interval its answers arrived in (spike_traffic,
 * baseline_traffic). */
static struct model_arrival_traffic traffic_figures(const struct series *s, const char *group)
{
	double offered = 0, answered = 0, timeouts = 0, p99_max = NAN;
	size_t n = 0;
	struct weighted *q[3];
	for (int k = 0; k < 3; k++)
		q[k] = calloc(s->n ? s->n : 1, sizeof(**q));
	size_t nq[3] = {0, 0, 0};
	static const enum timeline_column qcol[3] = {
	    TIMELINE_COL_lat_p50_ms, TIMELINE_COL_lat_p90_ms, TIMELINE_COL_lat_p99_ms};
	for (size_t i = 0; i < s->n; i++) {
		const struct runfolder_row *r = s->r[i];
		if (!in_group(r->phase, group))
			continue;
		n++;
		double a = r->v[TIMELINE_COL_answered];
		if (!isnan(r->v[TIMELINE_COL_offered]))
			offered += r->v[TIMELINE_COL_offered];
		if (!isnan(a))
			answered += a;
		if (!isnan(r->v[TIMELINE_COL_timeouts]))
			timeouts += r->v[TIMELINE_COL_timeouts];
		for (int k = 0; k < 3; k++) {
			double v = r->v[qcol[k]];
			if (isnan(v) || isnan(a) || a <= 0 || !q[k])
				continue;
			q[k][nq[k]++] = (struct weighted){v, a};
			if (k == 2 && (isnan(p99_max) || v > p99_max))
				p99_max = v;
		}
	}
	struct model_arrival_traffic t = {
	    .intervals = n,
	    .offered = n ? offered : NAN,
	    .answered = n ? answered : NAN,
	    .timeouts = n ? timeouts : NAN,
	    /* by the interval answers arrived in: a spike's late answers count in its recovery, so
	     * this can pass 1 (the one answered share is by send phase, traffic_by_send) */
	    .answered_per_offered_by_arrival = offered > 0 ? answered / offered : NAN,
	    .lat_p50_ms_of_intervals = weighted_median(q[0], nq[0]),
	    .lat_p90_ms_of_intervals = weighted_median(q[1], nq[1]),
	    .lat_p99_ms_of_intervals = weighted_median(q[2], nq[2]),
	    .lat_p99_max_ms = p99_max,
	};
	for (int k = 0; k < 3; k++)
		free(q[k]);
	return t;
}

/* Last non-NAN value of col among rows [from, to), and the row it came from. */
static double last_value(const struct series *s, size_t from, size_t to, enum timeline_column col,
                         const struct runfolder_row **at)
{
	for (int k = 0; k < LAST_SLOTS; k++) {
		if (last_columns[k] != col)
			continue;
		size_t j = to > from ? s->last_with[k][to - 1] : 0;
		if (j <= from)
			return NAN;
		if (at)
			*at = s->r[j - 1];
		return s->r[j - 1]->v[col];
	}
	for (size_t i = to; i-- > from;)
		if (!isnan(s->r[i]->v[col])) {
			if (at)
				*at = s->r[i];
			return s->r[i]->v[col];
		}
	return NAN;
}

static double max_value(const struct series *s, size_t from, size_t to, enum timeline_column col,
                        const struct runfolder_row **at)
{
	double best = NAN;
	for (size_t i = from; i < to; i++) {
		double v = s->r[i]->v[col];
		if (!isnan(v) && (isnan(best) || v > best)) {
			best = v;
			if (at)
				*at = s->r[i];
		}
	}
	return best;
}

/* The spike numbers that have at least one "spike" row in any target, ascending (num), and each
 * number's place among them (index, -1 for none) up to the highest (max). */
struct spike_list {
	int *num;
	size_t n;
	long *index;
	int max;
};

/* The reader keeps spike numbers within RUNFOLDER_MAX_SPIKE, which bounds these tables. */
static struct spike_list spike_numbers(const struct runfolder *rf)
{
	struct spike_list l = {NULL, 0, NULL, 0};
	for (size_t i = 0; i < rf->n_rows; i++)
		if (strcmp(rf->rows[i].phase, "spike") == 0 && rf->rows[i].spike > l.max)
			l.max = rf->rows[i].spike;
	l.num = calloc((size_t)l.max + 1, sizeof(*l.num));
	l.index = malloc(((size_t)l.max + 1) * sizeof(*l.index));
	if (!l.num || !l.index) {
		free(l.num);
		free(l.index);
		return (struct spike_list){NULL, 0, NULL, -1};
	}
	for (int k = 0; k <= l.max; k++)
		l.index[k] = -1;
	for (size_t i = 0; i < rf->n_rows; i++)
		if (strcmp(rf->rows[i].phase, "spike") == 0 && rf->rows[i].spike > 0)
			l.index[rf->rows[i].spike] = -2; /* seen */
	for (int k = 1; k <= l.max; k++)
		if (l.index[k] == -2) {
			l.index[k] = (long)l.n;
			l.num[l.n++] = k;
		}
	return l;
}

/* A row's most requests in flight: the high-water mark since the previous stats read where the
 * run recorded it (a burst's top falls between two reads), else the sampled count (older runs,
 * daemons). */
static double row_peak_inflight(const struct runfolder_row *r)
{
	double max = r->v[TIMELINE_COL_inflight_max];
	return isnan(max) ? r->v[TIMELINE_COL_inflight] : max;
}

/* Which attributed sample of a stretch of rows attr_pick takes. */
enum attr_pick_by {
	PICK_LAST,         /* the last one */
	PICK_MAX_HEAP,     /* the first at the allocator's highest footprint */
	PICK_MAX_LIVE,     /* the first with the most live bytes: the spike's peak */
	PICK_MAX_INFLIGHT, /* the first with the most requests in flight */
};

/* The attributed sample of rows [from, to) of a series picked by how; -1 if no row has live
 * bytes and the allocator's heap (and, for PICK_MAX_INFLIGHT, requests in flight). */
static long attr_pick(const struct series *s, size_t from, size_t to, enum attr_pick_by how,
                      struct attr_split *out)
{
	long best = -1;
	double best_v = NAN;
	struct attr_split cur;
	if (how == PICK_LAST) {
		size_t j = to > from ? s->last_attr[to - 1] : 0;
		if (j <= from)
			return -1;
		attr_split_row(s->r[j - 1], out);
		return (long)(j - 1);
	}
	for (size_t i = from; i < to; i++) {
		if (!attr_split_row(s->r[i], &cur))
			continue;
		double v = how == PICK_MAX_HEAP       ? cur.heap_kb
		           : how == PICK_MAX_LIVE     ? cur.part_kb[ATTR_LIVE]
		           : how == PICK_MAX_INFLIGHT ? row_peak_inflight(s->r[i])
		                                      : 0;
		if (isnan(v))
			continue;
		if (best < 0 || how == PICK_LAST || v > best_v) {
			best = (long)i;
			best_v = v;
			*out = cur;
		}
	}
	return best;
}

/* Requests in flight (or their growth) under this many are too few to divide by. */
#define SUMMARY_MIN_INFLIGHT 10

/* Held memory is normalised per this many requests in flight. */
#define INFLIGHT_UNIT 1000.0

/* kb of allocator-held memory in MB per INFLIGHT_UNIT requests in flight, NAN when too few. */
static double held_mb_per_inflight(double kb, double inflight)
{
	return inflight >= SUMMARY_MIN_INFLIGHT ? kb / KB_PER_MB / (inflight / INFLIGHT_UNIT) : NAN;
}

/* Whether a phase starts at t (within half the timeline's millisecond): the generator's phase
 * events. */
static bool phase_starts_at(const struct phase_starts *p, double t)
{
	size_t lo = 0, hi = p->n; /* the first at or after t - 0.0005 */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->t[mid] < t - 0.0005)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->n && p->t[lo] <= t + 0.0005;
}

/* The end of rows [from, to) for the state at the end of their phase. A row's memory and control
 * samples are taken at its time, after the interval its traffic counts: a last row on the
 * boundary of the next phase already holds that phase's first requests (a spike's first few
 * milliseconds: hundreds of requests, megabytes of live memory moved). Its state is left out;
 * the row before is one sample earlier in the same phase. */
static size_t state_end(const struct series *s, size_t from, size_t to)
{
	return to - from > 1 && phase_starts_at(s->phases, s->r[to - 1]->t_s) ? to - 1 : to;
}

/* The attributed figures of one spike (README.md): live and allocator-held memory before it, at
 * its peak and at the end of its recovery, what it returned, memory per request in flight. */
static void spike_attribution(struct model_spike *o, const struct series *s, size_t first,
                              size_t last_spike, size_t last)
{
	struct attr_split b, p, h, e, q;
	long bi = attr_pick(s, 0, state_end(s, 0, first), PICK_LAST, &b);
	/* The peak is the most live memory: once a footprint stops growing (it kept an earlier
	 * spike's), its highest point is any row of the plateau, recovery rows too. */
	long pi = attr_pick(s, first, last + 1, PICK_MAX_LIVE, &p);
	long hi = attr_pick(s, first, last + 1, PICK_MAX_HEAP, &h);
	long ei = last > last_spike
	              ? attr_pick(s, last_spike + 1, state_end(s, last_spike + 1, last + 1),
	                          PICK_LAST, &e)
	              : -1;
	long qi = attr_pick(s, first, last + 1, PICK_MAX_INFLIGHT, &q);
	double nan = NAN;
	double before_live = bi >= 0 ? b.part_kb[ATTR_LIVE] : nan;
	double before_held = bi >= 0 ? b.held_kb : nan;
	double peak_live = pi >= 0 ? p.part_kb[ATTR_LIVE] : nan;
	double peak_held = pi >= 0 ? p.held_kb : nan;
	double end_live = ei >= 0 ? e.part_kb[ATTR_LIVE] : nan;
	double end_held = ei >= 0 ? e.held_kb : nan;
	o->before_live_above_heap = bi >= 0 && b.live_above_heap;
	o->end_live_above_heap = ei >= 0 && e.live_above_heap;
	o->before_live_kb = before_live;
	o->before_held_kb = before_held;
	o->peak_live_kb = peak_live;
	o->peak_held_kb = peak_held;
	o->peak_attributed_t_s = pi >= 0 ? s->r[pi]->t_s : nan;
	o->peak_live_not_resident_kb = pi >= 0 ? p.live_not_resident_kb : nan;
	o->end_live_kb = end_live;
	o->end_held_kb = end_held;
	o->end_live_not_resident_kb = ei >= 0 ? e.live_not_resident_kb : nan;
	bool split = ei >= 0 && e.split;
	o->end_trimmable_kb = split ? e.part_kb[ATTR_TRIMMABLE] : nan;
	o->end_fragmented_kb = split ? e.part_kb[ATTR_FRAGMENTED] : nan;
	o->end_allocator_other_kb = split ? e.part_kb[ATTR_OTHER] : nan;
	o->end_not_resident_kb = split ? e.not_resident_kb : nan;
	o->end_unmapped_kb = ei >= 0 ? e.unmapped_kb : nan;
	o->end_outside_kb = ei >= 0 ? e.part_kb[ATTR_OUTSIDE] : nan;
	o->live_growth_kb = end_live - before_live;
	o->held_growth_kb = end_held - before_held;
	double before_cache =
	    bi >= 0 ? last_value(s, 0, (size_t)bi + 1, TIMELINE_COL_cache_bytes, NULL) : nan;
	double end_cache =
	    ei >= 0 ? last_value(s, 0, (size_t)ei + 1, TIMELINE_COL_cache_bytes, NULL) : nan;
	o->cache_growth_kb = (end_cache - before_cache) / 1024.0;
	/* What left the allocator's resident footprint from the peak to the end of the recovery;
	 * with the growth it kept, it makes up the allocator's part of the spike. */
	double returned = hi >= 0 && ei >= 0 ? h.heap_kb - e.heap_kb : nan;
	double kept = end_held - before_held;
	o->returned_kb = returned;
	o->unmapped_growth_kb = hi >= 0 && ei >= 0 ? e.unmapped_kb - h.unmapped_kb : nan;
	/* What left the footprint went back to the system only as far as anon RSS fell over the
	 * same stretch; the rest the allocator reused (its held memory fell into live allocations,
	 * RSS did not). */
	double rss_fell = hi >= 0 && ei >= 0 ? s->r[hi]->v[TIMELINE_COL_anon_kb] -
	                                           s->r[ei]->v[TIMELINE_COL_anon_kb]
	                                     : nan;
	double to_system = fmin(fmax(returned, 0), fmax(rss_fell, 0));
	double reused = fmax(returned, 0) - to_system;
	o->returned_to_system_kb = isnan(returned) ? nan : to_system;
	o->reused_kb = isnan(returned) ? nan : reused;
	double part = returned + kept;
	bool shared = !isnan(part) && part >= SHARE_MIN_GROWTH_KB;
	model_set_share(&o->held_released_share, &o->held_released_share_raw,
	                shared ? returned / part : NAN);
	model_set_share(&o->held_returned_share, &o->held_returned_share_raw,
	                shared ? to_system / part : NAN);
	model_set_share(&o->held_reused_share, &o->held_reused_share_raw,
	                shared ? reused / part : NAN);
	/* Memory per request in flight: at the most requests in flight, the live growth that is
	 * not the cache's, over the growth of requests in flight. */
	double inflight_b = bi >= 0 ? s->r[bi]->v[TIMELINE_COL_inflight] : nan;
	double inflight_p = qi >= 0 ? row_peak_inflight(s->r[qi]) : nan;
	o->before_inflight = inflight_b;
	o->peak_inflight = inflight_p;
	o->peak_inflight_t_s = qi >= 0 ? s->r[qi]->t_s : nan;
	double per_request = NAN;
	/* Live bytes and requests in flight from the same kind of figure: both high-water marks of
	 * the interval before the row where it has both, else both samples. */
	double live_p = qi >= 0 ? q.part_kb[ATTR_LIVE] : nan;
	double inflight_pair = qi >= 0 ? s->r[qi]->v[TIMELINE_COL_inflight] : nan;
	if (qi >= 0 && !isnan(s->r[qi]->v[TIMELINE_COL_inflight_max]) &&
	    !isnan(s->r[qi]->v[TIMELINE_COL_live_bytes_max])) {
		live_p = s->r[qi]->v[TIMELINE_COL_live_bytes_max] / 1024.0;
		inflight_pair = s->r[qi]->v[TIMELINE_COL_inflight_max];
	}
	if (inflight_pair - inflight_b >= SUMMARY_MIN_INFLIGHT) {
		double peak_cache =
		    last_value(s, 0, (size_t)qi + 1, TIMELINE_COL_cache_bytes, NULL);
		double cache_kb = isnan(peak_cache) || isnan(before_cache)
		                      ? 0
		                      : (peak_cache - before_cache) / 1024.0;
		per_request =
		    (live_p - before_live - cache_kb) * 1024.0 / (inflight_pair - inflight_b);
	}
	o->live_bytes_per_inflight = per_request;
	/* What an allocator keeps after a recovery follows the highest footprint it was driven to
	 * so far (by the requests piled up at the highest peak, which CPU scheduling moves from run
	 * to run): the held memory as a share of it. */
	double highest_heap = s->heap_max[last] / 1024.0;
	o->highest_heap_kb = highest_heap;
	o->end_held_share_of_highest_heap = highest_heap > 0 ? end_held / highest_heap : NAN;
}

/* Where each spike's rows are in a series (indexes into it; s->n when none). */
struct spike_rows {
	size_t first, last_spike, last;
};

/* Per-spike figures (README.md) into out, one per spike number (spikes->n). */
static void spike_figures(const struct series *s, const struct spike_list *spikes,
                          double interval_s, struct model_spike *out)
{
	for (size_t k = 0; k < spikes->n; k++)
		model_spike_init(&out[k], spikes->num[k]);
	/* The spike's rows run from its first "spike" row to the last row with its number: found
	 * for every spike in one pass over the rows. */
	struct spike_rows *at = malloc((spikes->n ? spikes->n : 1) * sizeof(*at));
	if (!at)
		return;
	for (size_t k = 0; k < spikes->n; k++)
		at[k] = (struct spike_rows){s->n, s->n, s->n};
	for (size_t i = 0; i < s->n; i++) {
		const struct runfolder_row *r = s->r[i];
		if (r->spike > spikes->max || spikes->index[r->spike] < 0 ||
		    timeline_rows_phase_is_preamble(r->phase))
			continue;
		struct spike_rows *a = &at[spikes->index[r->spike]];
		if (strcmp(r->phase, "spike") == 0) {
			if (a->first == s->n)
				a->first = i;
			a->last_spike = i;
		}
		if (a->first != s->n)
			a->last = i;
	}
	for (size_t k = 0; k < spikes->n; k++) {
		size_t first = at[k].first, last_spike = at[k].last_spike, last = at[k].last;
		struct model_spike *o = &out[k];
		if (first == s->n) /* this target has no row of that spike (not running then) */
			continue;
		o->ran = true;
		const struct runfolder_row *peak_at = NULL, *end_at = NULL, *before_at = NULL;
		double before =
		    last_value(s, 0, state_end(s, 0, first), TIMELINE_COL_anon_kb, &before_at);
		double peak = max_value(s, first, last + 1, TIMELINE_COL_anon_kb, &peak_at);
		double peak_rss = max_value(s, first, last + 1, TIMELINE_COL_rss_kb, NULL);
		/* The end of the recovery: only rows after the spike phase count, so a run stopped
		 * during a spike has no end value for it. */
		double end = NAN, end_rss = NAN;
		if (last > last_spike) {
			size_t end_to = state_end(s, last_spike + 1, last + 1);
			end = last_value(s, last_spike + 1, end_to, TIMELINE_COL_anon_kb, &end_at);
			end_rss = last_value(s, last_spike + 1, end_to, TIMELINE_COL_rss_kb, NULL);
		}
		double from_s = first > 0 ? s->r[first - 1]->t_s : s->r[first]->t_s - interval_s;
		o->from_s = from_s;
		o->to_s = s->r[last_spike]->t_s;
		o->before_anon_kb = before;
		/* the level before the spike on the beyond-cache basis (verdict.c: what it left) */
		double before_cache = before_at ? before_at->v[TIMELINE_COL_cache_bytes] : NAN;
		o->before_beyond_cache_kb =
		    isnan(before_cache) ? NAN : before - before_cache / 1024.0;
		o->peak_anon_kb = peak;
		o->peak_t_s = peak_at ? peak_at->t_s : NAN;
		o->peak_rss_kb = peak_rss;
		o->end_anon_kb = end;
		o->end_rss_kb = end_rss;
		o->end_t_s = end_at ? end_at->t_s : NAN;
		/* A spike that added almost nothing gives a ratio of noise (thousands of percent):
		 * the share is only stated for growth of at least SHARE_MIN_GROWTH_KB. */
		double share = NAN;
		if (!isnan(before) && !isnan(peak) && !isnan(end) &&
		    peak - before >= SHARE_MIN_GROWTH_KB)
			share = (peak - end) / (peak - before);
		model_set_share(&o->given_back_share, &o->given_back_share_raw, share);
		double cache = end_at ? end_at->v[TIMELINE_COL_cache_bytes] : NAN;
		o->end_beyond_cache_kb = isnan(cache) ? NAN : end - cache / 1024.0;
		spike_attribution(o, s, first, last_spike, last);
	}
	free(at);
}

/* The per-spike rate of a spike figure (MODEL_SPIKE_FIGURE) in MB (judgement_spike_trend) into
 * *slope unless slope is NULL (the peaks': peaks_shape states their rate, spike_shape.c), and its
 * last minus its first value into *total. */
static void set_growth(double *slope, double *total, const struct model_variant *mv, size_t figure)
{
	size_t n = mv->n_spikes, avail = 0;
	double *x = calloc(n ? n : 1, sizeof(*x)), *y = calloc(n ? n : 1, sizeof(*y));
	double first = NAN, last = NAN;
	for (size_t i = 0; x && y && i < n; i++) {
		x[i] = mv->spikes[i].number;
		y[i] = model_spike_figure(&mv->spikes[i], figure) / KB_PER_MB;
		if (!isnan(y[i])) {
			if (isnan(first))
				first = y[i];
			last = y[i];
			avail++;
		}
	}
	if (slope)
		*slope = x && y ? judgement_spike_trend(x, y, n) : NAN;
	*total = avail >= 2 ? last - first : NAN;
	free(x);
	free(y);
}

enum spikes_reduce { REDUCE_MEAN, REDUCE_SUM, REDUCE_MAX };

/* The mean, sum or maximum of a spike figure over the spikes that have it (NAN if none has). */
static double spikes_reduce(const struct model_variant *mv, size_t figure, enum spikes_reduce how)
{
	double sum = 0, m = 0, max = NAN;
	for (size_t i = 0; i < mv->n_spikes; i++) {
		double x = model_spike_figure(&mv->spikes[i], figure);
		if (isnan(x))
			continue;
		sum += x;
		m++;
		if (isnan(max) || x > max)
			max = x;
	}
	if (m == 0)
		return NAN;
	return how == REDUCE_MEAN ? sum / m : how == REDUCE_SUM ? sum : max;
}

/* Per spike, the most requests in flight at any peak so far and the held memory after the
 * recovery per 1,000 of them: an allocator keeps what the highest pile-up made it map, so the
 * held level follows the highest peak so far more than the spike's own. */
static void set_highest_inflight(struct model_variant *mv)
{
	double highest = NAN;
	for (size_t i = 0; i < mv->n_spikes; i++) {
		struct model_spike *sp = &mv->spikes[i];
		double x = sp->peak_inflight;
		if (!isnan(x) && (isnan(highest) || x > highest))
			highest = x;
		sp->highest_inflight = highest;
		sp->end_held_mb_per_1000_highest_inflight =
		    held_mb_per_inflight(sp->end_held_kb, highest);
	}
}

/* The attributed figures of a variant (README.md): growth of live and allocator-held memory over
 * the spikes, and the split of its last attributed sample. */
static void set_attributed(json_t *v, const struct series *s, struct model_variant *mv)
{
	struct attr_split f;
	long fi = attr_pick(s, 0, s->n, PICK_LAST, &f);
	bool split = false;
	struct attr_split any;
	for (size_t i = 0; i < s->n && !split; i++)
		split = attr_split_row(s->r[i], &any) && any.split;
	mv->attributed = fi >= 0;
	json_object_set_new(v, "attribution",
	                    json_string(fi < 0  ? "unavailable"
	                                : split ? "split"
	                                        : "unsplit"));
	set_growth(NULL, &mv->peak_live_growth_first_to_last_mb, mv,
	           MODEL_SPIKE_FIGURE(peak_live_kb));
	set_growth(NULL, &mv->peak_held_growth_first_to_last_mb, mv,
	           MODEL_SPIKE_FIGURE(peak_held_kb));
	set_growth(&mv->recovery_live_growth_mb_per_spike,
	           &mv->recovery_live_growth_first_to_last_mb, mv, MODEL_SPIKE_FIGURE(end_live_kb));
	set_growth(&mv->recovery_held_growth_mb_per_spike,
	           &mv->recovery_held_growth_first_to_last_mb, mv, MODEL_SPIKE_FIGURE(end_held_kb));
	/* Over the spikes that have them; the sums run each from before its spike to the end of
	 * its recovery. */
	static const struct {
		size_t figure, spike_figure;
		enum spikes_reduce how;
	} reduced[] = {
	    {MODEL_VARIANT_FIGURE(mean_held_released_share),
	     MODEL_SPIKE_FIGURE(held_released_share), REDUCE_MEAN},
	    {MODEL_VARIANT_FIGURE(mean_held_returned_share),
	     MODEL_SPIKE_FIGURE(held_returned_share), REDUCE_MEAN},
	    {MODEL_VARIANT_FIGURE(mean_held_reused_share), MODEL_SPIKE_FIGURE(held_reused_share),
	     REDUCE_MEAN},
	    {MODEL_VARIANT_FIGURE(mean_live_bytes_per_inflight),
	     MODEL_SPIKE_FIGURE(live_bytes_per_inflight), REDUCE_MEAN},
	    {MODEL_VARIANT_FIGURE(mean_end_held_share_of_highest_heap),
	     MODEL_SPIKE_FIGURE(end_held_share_of_highest_heap), REDUCE_MEAN},
	    {MODEL_VARIANT_FIGURE(mean_end_held_mb_per_1000_highest_inflight),
	     MODEL_SPIKE_FIGURE(end_held_mb_per_1000_highest_inflight), REDUCE_MEAN},
	    {MODEL_VARIANT_FIGURE(max_held_growth_kb), MODEL_SPIKE_FIGURE(held_growth_kb),
	     REDUCE_MAX},
	    {MODEL_VARIANT_FIGURE(spikes_live_growth_kb), MODEL_SPIKE_FIGURE(live_growth_kb),
	     REDUCE_SUM},
	    {MODEL_VARIANT_FIGURE(spikes_held_growth_kb), MODEL_SPIKE_FIGURE(held_growth_kb),
	     REDUCE_SUM},
	    {MODEL_VARIANT_FIGURE(spikes_cache_growth_kb), MODEL_SPIKE_FIGURE(cache_growth_kb),
	     REDUCE_SUM},
	};
	for (size_t i = 0; i < sizeof(reduced) / sizeof(*reduced); i++)
		model_variant_set_figure(
		    mv, reduced[i].figure,
		    spikes_reduce(mv, reduced[i].spike_figure, reduced[i].how));
	bool has_split = fi >= 0 && f.split;
	mv->final_attributed_t_s = fi >= 0 ? s->r[fi]->t_s : NAN;
	mv->final_live_kb = fi >= 0 ? f.part_kb[ATTR_LIVE] : NAN;
	mv->final_held_kb = fi >= 0 ? f.held_kb : NAN;
	mv->final_live_above_heap = fi >= 0 && f.live_above_heap;
	mv->final_live_not_resident_kb = fi >= 0 ? f.live_not_resident_kb : NAN;
	mv->final_trimmable_kb = has_split ? f.part_kb[ATTR_TRIMMABLE] : NAN;
	mv->final_fragmented_kb = has_split ? f.part_kb[ATTR_FRAGMENTED] : NAN;
	mv->final_allocator_other_kb = has_split ? f.part_kb[ATTR_OTHER] : NAN;
	mv->final_not_resident_kb = has_split ? f.not_resident_kb : NAN;
	mv->final_unmapped_kb = fi >= 0 ? f.unmapped_kb : NAN;
	mv->final_outside_kb = fi >= 0 ? f.part_kb[ATTR_OUTSIDE] : NAN;
	model_variant_json(v, mv, MODEL_VARIANT_ATTRIBUTED);
}

/* Anon RSS and RSS at the end and at their highest, anon RSS at the end of the warm-up. */
static void set_memory(struct model_variant *mv, const struct series *s)
{
	const struct runfolder_row *at = NULL;
	mv->final_anon_kb = last_value(s, 0, s->n, TIMELINE_COL_anon_kb, &at);
	mv->final_rss_kb = last_value(s, 0, s->n, TIMELINE_COL_rss_kb, NULL);
	mv->final_t_s = at ? at->t_s : NAN;
	at = NULL;
	mv->max_anon_kb = max_value(s, 0, s->n, TIMELINE_COL_anon_kb, &at);
	mv->max_anon_t_s = at ? at->t_s : NAN;
	mv->max_rss_kb = max_value(s, 0, s->n, TIMELINE_COL_rss_kb, NULL);
	size_t warm_end = 0;
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->r[i]->phase, "warmup") == 0)
			warm_end = i + 1;
	mv->warmup_end_anon_kb = last_value(s, 0, warm_end, TIMELINE_COL_anon_kb, NULL);
}

/* CPU over the measured window (every row after warm-up and calibration). */
static void set_cpu(struct model_variant *mv, const struct series *s)
{
	size_t first = s->n;
	for (size_t i = 0; i < s->n && first == s->n; i++)
		if (!timeline_rows_phase_is_preamble(s->r[i]->phase))
			first = i;
	double cpu = NAN, answered = NAN;
	if (first < s->n) {
		/* CPU columns are cumulative: the window starts at the end of the row before it (or
		 * at the end of its own first row, whose answers are then left out too). */
		size_t base = first > 0 ? first - 1 : first;
		double c0 = timeline_rows_cpu_s(s->r[base]);
		double c1 = NAN;
		answered = 0;
		for (size_t i = base + 1; i < s->n; i++) {
			if (timeline_rows_phase_is_preamble(s->r[i]->phase))
				continue;
			double c = timeline_rows_cpu_s(s->r[i]);
			if (!isnan(c))
				c1 = c;
			if (!isnan(s->r[i]->v[TIMELINE_COL_answered]))
				answered += s->r[i]->v[TIMELINE_COL_answered];
		}
		cpu = c1 - c0;
	}
	mv->cpu_s = cpu;
	mv->answered = answered;
	mv->cpu_s_per_million_answered = answered > 0 ? cpu / answered * 1e6 : NAN;
}

static void set_memory_ratios(struct model_variant *mv, const struct series *s)
{
	const struct runfolder_row *at = NULL;
	for (size_t i = s->n; i-- > 0 && !at;)
		if (!isnan(s->r[i]->v[TIMELINE_COL_anon_kb]) &&
		    (!isnan(s->r[i]->v[TIMELINE_COL_cache_bytes]) ||
		     !isnan(s->r[i]->v[TIMELINE_COL_alloc_allocated_bytes])))
			at = s->r[i];
	double anon = at ? at->v[TIMELINE_COL_anon_kb] : NAN;
	double cache = at ? at->v[TIMELINE_COL_cache_bytes] : NAN;
	double alloc = at ? at->v[TIMELINE_COL_alloc_allocated_bytes] : NAN;
	mv->ratios_t_s = at ? at->t_s : NAN;
	mv->final_cache_bytes = cache;
	mv->final_alloc_allocated_bytes = alloc;
	mv->anon_over_cache = cache > 0 ? anon * 1024.0 / cache : NAN;
	mv->anon_over_allocated = alloc > 0 ? anon * 1024.0 / alloc : NAN;
	mv->beyond_cache_final_kb = anon - cache / 1024.0;
}

/* SIGINT, SIGKILL, SIGTERM (as a number or a name): how a scenario stops a process. */
static bool signal_is_stop(const json_t *sig)
{
	if (json_is_integer(sig)) {
		json_int_t s = json_integer_value(sig);
		return s == 2 || s == 9 || s == 15;
	}
	const char *n = json_string_value(sig);
	if (!n)
		return false;
	if (strncmp(n, "SIG", 3) == 0)
		n += 3;
	return strcmp(n, "INT") == 0 || strcmp(n, "KILL") == 0 || strcmp(n, "TERM") == 0;
}

static json_t *crash_list(const struct runfolder *rf, const char *name)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < rf->n_events; i++) {
		const struct runfolder_event *e = &rf->events[i];
		if (strcmp(e->variant, name) != 0)
			continue;
		json_t *code = json_object_get(e->obj, "code");
		json_t *sig = json_object_get(e->obj, "signal");
		bool crashed = strcmp(e->event, "gone") == 0 ||
		               (strcmp(e->event, "exited") == 0 &&
		                ((sig && !json_is_null(sig)) ||
		                 (json_is_integer(code) && json_integer_value(code) != 0)));
		/* A process the scenario asked to stop ("requested": true) that ended by the signal
		 * it was sent (TERM, INT, or KILL after the grace time), or with any code, did not
		 * crash; another signal while stopping (SIGSEGV in a destructor) still counts. */
		if (crashed && json_is_true(json_object_get(e->obj, "requested")))
			crashed = sig && !json_is_null(sig) && !signal_is_stop(sig);
		if (!crashed)
			continue;
		json_t *c = json_object();
		json_object_set_new(c, "t_s", jnum(e->t_s));
		json_object_set_new(c, "event", json_string(e->event));
		if (code)
			json_object_set(c, "code", code);
		if (sig)
			json_object_set(c, "signal", sig);
		json_array_append_new(arr, c);
	}
	return arr;
}

static json_t *variant_meta(const struct runfolder *rf, const char *name)
{
	json_t *arr = json_object_get(rf->run, "variants"), *row;
	size_t i;
	json_array_foreach(arr, i, row)
	{
		const char *n = json_string_value(json_object_get(row, "name"));
		if (n && strcmp(n, name) == 0)
			return row;
	}
	return NULL;
}

/* The figures of variant mv->name: its spikes into mv, the rest into the object returned. */
static json_t *variant_figures(const struct runfolder *rf, struct model_variant *mv,
                               const struct rows_by_target *by, const struct spike_list *spikes,
                               const struct phase_starts *phases, double interval_s)
{
	const char *name = mv->name;
	json_t *v = json_object();
	json_t *meta = variant_meta(rf, name);
	static const char *const meta_keys[] = {"kind",    "allocator", "libc",
	                                        "library", "env",       "note"};
	for (size_t i = 0; i < sizeof(meta_keys) / sizeof(*meta_keys); i++) {
		json_t *m = json_object_get(meta, meta_keys[i]);
		json_object_set(v, meta_keys[i], json_is_string(m) ? m : json_null());
	}
	model_variant_set_row(mv, json_string_value(json_object_get(meta, "allocator")),
	                      json_string_value(json_object_get(meta, "env")));
	int target = runfolder_target_index(rf, name);
	struct series s = series_of(by, target, phases);
	mv->intervals = (double)s.n;
	model_variant_json(v, mv, MODEL_VARIANT_ROWS);

	if (s.r) {
		mv->spikes = malloc((spikes->n ? spikes->n : 1) * sizeof(*mv->spikes));
		if (!mv->spikes)
			abort();
		mv->n_spikes = spikes->n;
		spike_figures(&s, spikes, interval_s, mv->spikes);
		traffic_set_spike_answered(rf, target, mv);
		set_highest_inflight(mv);
		json_t *sp = json_array();
		for (size_t k = 0; k < mv->n_spikes; k++)
			json_array_append_new(sp, model_spike_json(&mv->spikes[k]));
		json_object_set_new(v, "spikes", sp);
		set_growth(NULL, &mv->peak_growth_first_to_last_mb, mv,
		           MODEL_SPIKE_FIGURE(peak_anon_kb));
		set_growth(&mv->recovery_growth_mb_per_spike, &mv->recovery_growth_first_to_last_mb,
		           mv, MODEL_SPIKE_FIGURE(end_anon_kb));
		set_growth(&mv->beyond_cache_growth_mb_per_spike,
		           &mv->beyond_cache_growth_first_to_last_mb, mv,
		           MODEL_SPIKE_FIGURE(end_beyond_cache_kb));
		mv->mean_given_back_share =
		    spikes_reduce(mv, MODEL_SPIKE_FIGURE(given_back_share), REDUCE_MEAN);
		model_variant_json(v, mv, MODEL_VARIANT_SPIKES);
		set_attributed(v, &s, mv);
	}

	set_memory(mv, &s);
	set_cpu(mv, &s);
	model_variant_json(v, mv, MODEL_VARIANT_MEMORY);
	mv->spike_traffic = traffic_figures(&s, "spike");
	mv->baseline_traffic = traffic_figures(&s, "baseline");
	traffic_by_send(rf, target, &mv->traffic_by_send);
	json_object_set_new(v, "spike_traffic", model_arrival_traffic_json(&mv->spike_traffic));
	json_object_set_new(v, "baseline_traffic",
	                    model_arrival_traffic_json(&mv->baseline_traffic));
	json_object_set_new(v, "traffic_by_send", model_traffic_by_send_json(&mv->traffic_by_send));
	set_memory_ratios(mv, &s);
	json_t *crashes = crash_list(rf, name);
	mv->crash_count = (double)json_array_size(crashes);
	model_variant_json(v, mv, MODEL_VARIANT_RATIOS);
	json_object_set_new(v, "crashes", crashes);
	series_free(&s);
	return v;
}

/* Consecutive runs of (phase, spike) in the first variant's rows: what the schedule did when. */
static json_t *phase_segments(const struct runfolder *rf, double interval_s)
{
	int target = -1;
	for (size_t i = 0; i < rf->n_targets && target < 0; i++)
		if (!runfolder_is_harness(rf->targets[i]))
			target = (int)i;
	if (target < 0 && rf->n_targets > 0)
		target = 0;
	json_t *arr = json_array();
	json_t *cur = NULL;
	double prev_t = NAN;
	for (size_t i = 0; i < rf->n_rows; i++) {
		const struct runfolder_row *r = &rf->rows[i];
		if (r->target != target)
			continue;
		const char *cphase = cur ? json_string_value(json_object_get(cur, "phase")) : NULL;
		if (!cur || strcmp(cphase, r->phase) != 0 ||
		    json_integer_value(json_object_get(cur, "spike")) != r->spike) {
			cur = json_object();
			json_object_set_new(cur, "phase", json_string(r->phase));
			json_object_set_new(cur, "spike", json_integer(r->spike));
			json_object_set_new(cur, "from_s",
			                    jnum(isnan(prev_t) ? r->t_s - interval_s : prev_t));
			json_array_append_new(arr, cur);
		}
		json_object_set_new(cur, "to_s", jnum(r->t_s));
		prev_t = r->t_s;
	}
	return arr;
}

static json_t *harness_figures(const struct runfolder *rf)
{
	json_t *h = json_object(), *periods = json_array(), *events = json_array(),
	       *peak = json_object();
	double total = 0;
	for (size_t t = 0; t < rf->n_targets; t++) {
		if (!runfolder_is_harness(rf->targets[t]))
			continue;
		json_t *cur = NULL;
		double prev_t = NAN, prev_c = NAN, max_share = NAN;
		for (size_t i = 0; i < rf->n_rows; i++) {
			const struct runfolder_row *r = &rf->rows[i];
			if (r->target != (int)t)
				continue;
			double c = timeline_rows_cpu_s(r);
			double share = NAN;
			/* CPU times tick in 10 ms: over a 100 ms interval one tick is 0.1 core of
			 * noise, so shares are taken over windows of at least HARNESS_WINDOW_S. */
			if (!isnan(c) && !isnan(prev_c) && r->t_s > prev_t &&
			    r->t_s - prev_t < HARNESS_WINDOW_S - 1e-9)
				continue;
			if (!isnan(c) && !isnan(prev_c) && r->t_s > prev_t)
				share = (c - prev_c) / (r->t_s - prev_t);
			if (!isnan(share) && (isnan(max_share) || share > max_share))
				max_share = share;
			if (!isnan(share) && harness_saturated(share)) {
				if (!cur) {
					cur = json_object();
					json_object_set_new(cur, "target",
					                    json_string(rf->targets[t]));
					json_object_set_new(cur, "from_s", jnum(prev_t));
					json_object_set_new(cur, "max_cpu_share", jnum(share));
					json_array_append_new(periods, cur);
				} else if (share > json_number_value(
				                       json_object_get(cur, "max_cpu_share"))) {
					json_object_set_new(cur, "max_cpu_share", jnum(share));
				}
				json_object_set_new(cur, "to_s", jnum(r->t_s));
				total += r->t_s - prev_t;
			} else if (!isnan(c)) {
				cur = NULL;
			}
			if (!isnan(c)) {
				prev_c = c;
				prev_t = r->t_s;
			}
		}
		json_object_set_new(peak, rf->targets[t], jnum(max_share));
	}
	for (size_t i = 0; i < rf->n_events; i++) {
		const struct runfolder_event *e = &rf->events[i];
		if (strcmp(e->event, "harness_saturated") != 0)
			continue;
		json_t *o = json_object();
		json_object_set_new(o, "t_s", jnum(e->t_s));
		json_object_set_new(o, "variant", json_string(e->variant));
		json_t *share = json_object_get(e->obj, "cpu_share");
		json_object_set(o, "cpu_share", share ? share : json_null());
		json_array_append_new(events, o);
	}
	json_object_set_new(h, "threshold_cores", json_real(HARNESS_SATURATED_CORES));
	json_object_set_new(h, "max_cpu_share", peak);
	json_object_set_new(h, "saturated_periods", periods);
	json_object_set_new(h, "saturated_s", jnum(total));
	json_object_set_new(h, "saturated_events", events);
	return h;
}

static json_t *run_figures(const struct runfolder *rf)
{
	json_t *o = json_object();
	json_object_set_new(o, "dir", json_string(rf->dir));
	json_object_set_new(o, "status", json_string(rf->status));
	json_object_set_new(o, "complete", json_boolean(strcmp(rf->status, "completed") == 0));
	static const char *const keys[] = {"scenario", "started", "ended"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
		json_t *k = json_object_get(rf->run, keys[i]);
		json_object_set(o, keys[i], k ? k : json_null());
	}
	json_t *stop = json_null();
	for (size_t i = 0; i < rf->n_events; i++) {
		const char *ev = rf->events[i].event;
		/* a variant that failed to start is validity's variant_not_run, not the run's end
		 */
		if (!runfolder_is_harness(rf->events[i].variant))
			continue;
		if (strcmp(ev, "interrupted") == 0 || strcmp(ev, "failed") == 0) {
			json_decref(stop);
			stop = json_object();
			json_object_set_new(stop, "event", json_string(ev));
			json_object_set_new(stop, "t_s", jnum(rf->events[i].t_s));
			json_t *reason = json_object_get(rf->events[i].obj, "reason");
			json_object_set(stop, "reason", reason ? reason : json_null());
			json_t *sig = json_object_get(rf->events[i].obj, "signal");
			json_object_set(stop, "signal", sig ? sig : json_null());
		}
	}
	json_object_set_new(o, "stop_event", stop);
	json_object_set_new(o, "timeline_truncated", json_boolean(rf->timeline_truncated));
	json_object_set_new(o, "events_truncated", json_boolean(rf->events_truncated));
	json_object_set_new(o, "timeline_rows", json_integer((json_int_t)rf->n_rows));
	double last = NAN;
	for (size_t i = 0; i < rf->n_rows; i++)
		if (isnan(last) || rf->rows[i].t_s > last)
			last = rf->rows[i].t_s;
	json_object_set_new(o, "last_t_s", jnum(last));
	/* What the schedule asked for, to tell a short timeline from a short schedule. */
	double planned = NAN, planned_spikes = NAN;
	const char *text =
	    json_string_value(json_object_get(json_object_get(rf->run, "parameters"), "schedule"));
	struct schedule sched;
	char err[256];
	if (text && text[0] != '@' && schedule_parse(text, &sched, err, sizeof(err))) {
		planned = sched.duration_s;
		planned_spikes = 0;
		for (size_t i = 0; i < sched.count; i++)
			if (sched.phases[i].spike > planned_spikes)
				planned_spikes = sched.phases[i].spike;
		schedule_free(&sched);
	}
	json_object_set_new(o, "schedule_duration_s", jnum(planned));
	json_object_set_new(o, "schedule_spikes", jnum(planned_spikes));
	return o;
}

/* Variants in run.json order, then any other non-harness timeline target. */
static json_t *variant_order(const struct runfolder *rf)
{
	json_t *names = json_array(), *row;
	size_t i;
	json_array_foreach(json_object_get(rf->run, "variants"), i, row)
	{
		const char *n = json_string_value(json_object_get(row, "name"));
		if (n && !runfolder_is_harness(n))
			json_array_append_new(names, json_string(n));
	}
	for (size_t t = 0; t < rf->n_targets; t++) {
		const char *n = rf->targets[t];
		bool known = runfolder_is_harness(n);
		json_t *x;
		json_array_foreach(names, i, x) known =
		    known || strcmp(json_string_value(x), n) == 0;
		if (!known)
			json_array_append_new(names, json_string(n));
	}
	return names;
}

json_t *figures_build(const struct runfolder *rf, struct model *model)
{
	double interval_s = timeline_rows_interval_s(rf);
	struct spike_list spikes = spike_numbers(rf);
	struct phase_starts phases = phase_starts_of(rf);
	struct rows_by_target by = rows_by_target_of(rf);
	json_t *sum = json_object();
	json_object_set_new(sum, "format", json_integer(1));
	json_object_set_new(sum, "run", run_figures(rf));
	json_object_set_new(sum, "interval_s", json_real(interval_s));
	json_object_set_new(sum, "phases", phase_segments(rf, interval_s));
	json_object_set_new(sum, "spike_count", json_integer((json_int_t)spikes.n));
	json_t *order = variant_order(rf), *variants = json_object(), *name;
	*model = (struct model){calloc(json_array_size(order) + 1, sizeof(*model->variants)), 0};
	if (!model->variants)
		abort();
	size_t i;
	json_array_foreach(order, i, name)
	{
		struct model_variant *mv = &model->variants[model->n_variants++];
		model_variant_init(mv, strdup(json_string_value(name)));
		if (!mv->name)
			abort();
		json_object_set_new(variants, mv->name,
		                    variant_figures(rf, mv, &by, &spikes, &phases, interval_s));
	}
	json_object_set_new(sum, "variant_order", order);
	json_object_set_new(sum, "variants", variants);
	json_object_set_new(sum, "harness", harness_figures(rf));
	json_object_set_new(sum, "machine_busy", machine_busy_figures(rf));
	free(spikes.num);
	free(spikes.index);
	free(phases.t);
	free(by.r);
	free(by.start);
	return sum;
}
