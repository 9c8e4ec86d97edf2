/* reports/traffic.c - traffic per query by send phase, and true latency quantiles per phase
 * (reports/README.md "traffic_by_send"). */
#include "traffic.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "model.h"
#include "summary_json.h"

const char *const traffic_phases[TRAFFIC_PHASE_COUNT] = {"spike", "recovery", "baseline"};

/* The counts a phase (or an instance) is reported with, and where each comes from in phases.csv
 * and in timeline.csv (the fallback: timeline.csv has no "pending"). */
static const struct {
	const char *key;
	enum phases_column phases_col;
	int timeline_col; /* enum timeline_column, -1 when timeline.csv has no such count */
} COUNTS[] = {
    {"sent", PHASES_COL_sent, TIMELINE_COL_sent},
    {"answered", PHASES_COL_answered, TIMELINE_COL_answered},
    {"lost", PHASES_COL_timeouts, TIMELINE_COL_timeouts},
    {"late", PHASES_COL_late_or_foreign, TIMELINE_COL_late_or_foreign},
    {"pending", PHASES_COL_pending, -1},
    {"noerror", PHASES_COL_noerror, TIMELINE_COL_noerror},
    {"nxdomain", PHASES_COL_nxdomain, TIMELINE_COL_nxdomain},
    {"servfail", PHASES_COL_servfail, TIMELINE_COL_servfail},
    {"rcode_other", PHASES_COL_rcode_other, TIMELINE_COL_rcode_other},
};
#define N_COUNTS (sizeof(COUNTS) / sizeof(*COUNTS))

/* An instance's own latency quantiles as the generator wrote them. */
static const struct {
	const char *key;
	enum phases_column col;
	double q; /* for quantiles from the merged histogram; 1 = the largest bucket */
} QUANTILES[] = {
    {"lat_p50_ms", PHASES_COL_lat_p50_ms, 0.50}, {"lat_p90_ms", PHASES_COL_lat_p90_ms, 0.90},
    {"lat_p99_ms", PHASES_COL_lat_p99_ms, 0.99}, {"lat_p999_ms", PHASES_COL_lat_p999_ms, 0.999},
    {"lat_max_ms", PHASES_COL_lat_max_ms, 1.0},
};
#define N_QUANTILES (sizeof(QUANTILES) / sizeof(*QUANTILES))

#define jnum summary_json_number

/* Adds v to a sum that stays NAN until a value is seen. */
static void add(double *sum, double v)
{
	if (!isnan(v))
		*sum = isnan(*sum) ? v : *sum + v;
}

/* A count's share of the queries sent, NAN when none was sent. */
static double share_of_sent(double count, double sent)
{
	return sent > 0 ? count / sent : NAN;
}

static void set_counts(json_t *o, const double *sum)
{
	for (size_t c = 0; c < N_COUNTS; c++)
		json_object_set_new(o, COUNTS[c].key, jnum(sum[c]));
	json_object_set_new(o, "answered_share", jnum(share_of_sent(sum[1], sum[0])));
	json_object_set_new(o, "lost_share", jnum(share_of_sent(sum[2], sum[0])));
}

void traffic_set_spike_answered(const struct runfolder *rf, int target, struct model_variant *mv)
{
	for (size_t i = 0; i < rf->n_phase_rows; i++) {
		const struct runfolder_instance_row *r = &rf->phase_rows[i];
		if (r->target != target || strcmp(r->phase, "spike") != 0)
			continue;
		long k = model_spike_index(mv, r->spike);
		if (k >= 0)
			mv->spikes[k].answered_share =
			    share_of_sent(r->v[PHASES_COL_answered], r->v[PHASES_COL_sent]);
	}
}

bool traffic_phase_hist(const struct runfolder *rf, int target, const char *phase,
                        struct latency_hist *out)
{
	latency_hist_init(out);
	for (size_t i = 0; i < rf->n_hist_rows; i++) {
		const struct runfolder_instance_row *r = &rf->hist_rows[i];
		double upper_us = r->v[HIST_COL_upper_us], count = r->v[HIST_COL_count];
		if (r->target != target || strcmp(r->phase, phase) != 0 || isnan(upper_us) ||
		    isnan(count) || count <= 0 || upper_us <= 0)
			continue;
		/* the bucket whose upper edge this is holds the nanosecond just below the edge */
		uint64_t upper_ns = (uint64_t)llround(upper_us * 1000.0);
		unsigned b = latency_hist_bucket(upper_ns > 0 ? upper_ns - 1 : 0);
		out->buckets[b] += (uint64_t)count;
		out->count += (uint64_t)count;
	}
	return out->count > 0;
}

static void set_quantiles(json_t *o, const struct runfolder *rf, int target, const char *phase)
{
	struct latency_hist h;
	bool have = traffic_phase_hist(rf, target, phase, &h);
	for (size_t q = 0; q < N_QUANTILES; q++)
		json_object_set_new(
		    o, QUANTILES[q].key,
		    jnum(have ? latency_hist_quantile(&h, QUANTILES[q].q) / 1e6 : NAN));
	json_object_set_new(o, "latency_answers", jnum(have ? (double)h.count : NAN));
}

static json_t *from_phases_csv(const struct runfolder *rf, int target)
{
	json_t *phases = json_object(), *instances = json_array();
	for (size_t p = 0; p < TRAFFIC_PHASE_COUNT; p++) {
		double sum[N_COUNTS];
		size_t seen = 0;
		for (size_t c = 0; c < N_COUNTS; c++)
			sum[c] = NAN;
		for (size_t i = 0; i < rf->n_phase_rows; i++) {
			const struct runfolder_instance_row *r = &rf->phase_rows[i];
			if (r->target != target || strcmp(r->phase, traffic_phases[p]) != 0)
				continue;
			seen++;
			for (size_t c = 0; c < N_COUNTS; c++)
				add(&sum[c], r->v[COUNTS[c].phases_col]);
		}
		if (!seen)
			continue;
		json_t *o = json_object();
		json_object_set_new(o, "instances", json_integer((json_int_t)seen));
		set_counts(o, sum);
		set_quantiles(o, rf, target, traffic_phases[p]);
		json_object_set_new(phases, traffic_phases[p], o);
	}
	for (size_t i = 0; i < rf->n_phase_rows; i++) {
		const struct runfolder_instance_row *r = &rf->phase_rows[i];
		if (r->target != target)
			continue;
		json_t *o = json_object();
		json_object_set_new(o, "phase", json_string(r->phase));
		json_object_set_new(o, "spike", json_integer(r->spike));
		double sum[N_COUNTS];
		for (size_t c = 0; c < N_COUNTS; c++)
			sum[c] = r->v[COUNTS[c].phases_col];
		set_counts(o, sum);
		for (size_t q = 0; q < N_QUANTILES; q++)
			json_object_set_new(o, QUANTILES[q].key, jnum(r->v[QUANTILES[q].col]));
		json_array_append_new(instances, o);
	}
	json_t *t = json_object();
	json_object_set_new(t, "source", json_string("phases.csv"));
	json_object_set_new(t, "counted_by", json_string("send"));
	json_object_set_new(t, "phases", phases);
	json_object_set_new(t, "instances", instances);
	return t;
}

/* An older run folder: the timeline's per-interval counts, by the interval each answer or
 * timeout happened in (an answer to a spike's query that arrives in the recovery counts there). */
static json_t *from_timeline(const struct runfolder *rf, int target)
{
	json_t *phases = json_object();
	for (size_t p = 0; p < TRAFFIC_PHASE_COUNT; p++) {
		double sum[N_COUNTS];
		size_t seen = 0;
		for (size_t c = 0; c < N_COUNTS; c++)
			sum[c] = NAN;
		for (size_t i = 0; i < rf->n_rows; i++) {
			const struct runfolder_row *r = &rf->rows[i];
			if (r->target != target || strcmp(r->phase, traffic_phases[p]) != 0)
				continue;
			seen++;
			for (size_t c = 0; c < N_COUNTS; c++)
				if (COUNTS[c].timeline_col >= 0)
					add(&sum[c], r->v[COUNTS[c].timeline_col]);
		}
		if (!seen)
			continue;
		json_t *o = json_object();
		json_object_set_new(o, "intervals", json_integer((json_int_t)seen));
		set_counts(o, sum);
		for (size_t q = 0; q < N_QUANTILES; q++)
			json_object_set_new(o, QUANTILES[q].key, json_null());
		json_object_set_new(phases, traffic_phases[p], o);
	}
	json_t *t = json_object();
	json_object_set_new(t, "source", json_string("timeline.csv"));
	json_object_set_new(t, "counted_by", json_string("receive"));
	json_object_set_new(t, "phases", phases);
	json_object_set_new(t, "instances", json_array());
	return t;
}

json_t *traffic_by_send(const struct runfolder *rf, int target)
{
	return rf->has_phases ? from_phases_csv(rf, target) : from_timeline(rf, target);
}

void traffic_set_baseline_share(json_t *variant)
{
	json_t *t = json_object_get(variant, "traffic_by_send");
	const json_t *phases = json_object_get(t, "phases");
	double sent = 0, answered = 0;
	for (size_t p = 0; p < TRAFFIC_PHASE_COUNT; p++) {
		if (strcmp(traffic_phases[p], "spike") == 0)
			continue;
		const json_t *o = json_object_get(phases, traffic_phases[p]);
		const json_t *s = json_object_get(o, "sent"), *a = json_object_get(o, "answered");
		if (json_is_number(s) && json_is_number(a)) {
			sent += json_number_value(s);
			answered += json_number_value(a);
		}
	}
	json_object_set_new(t, "baseline_answered_share", jnum(sent > 0 ? answered / sent : NAN));
}
