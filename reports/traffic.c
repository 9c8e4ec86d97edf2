/* reports/traffic.c - traffic per query by send phase, and true latency quantiles per phase
 * (reports/README.md "traffic_by_send"). */
#include "traffic.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* The counts a phase (or an instance) is reported with (their place in struct
 * model_send_traffic), and where each comes from in phases.csv and in timeline.csv (the fallback:
 * timeline.csv has no "pending"). */
#define AT(name) offsetof(struct model_send_traffic, name)
static const struct {
	size_t at;
	enum phases_column phases_col;
	int timeline_col; /* enum timeline_column, -1 when timeline.csv has no such count */
} COUNTS[] = {
    {AT(sent), PHASES_COL_sent, TIMELINE_COL_sent},
    {AT(answered), PHASES_COL_answered, TIMELINE_COL_answered},
    {AT(lost), PHASES_COL_timeouts, TIMELINE_COL_timeouts},
    {AT(late), PHASES_COL_late_or_foreign, TIMELINE_COL_late_or_foreign},
    {AT(pending), PHASES_COL_pending, -1},
    {AT(noerror), PHASES_COL_noerror, TIMELINE_COL_noerror},
    {AT(nxdomain), PHASES_COL_nxdomain, TIMELINE_COL_nxdomain},
    {AT(servfail), PHASES_COL_servfail, TIMELINE_COL_servfail},
    {AT(rcode_other), PHASES_COL_rcode_other, TIMELINE_COL_rcode_other},
};
#define N_COUNTS (sizeof(COUNTS) / sizeof(*COUNTS))

/* An instance's own latency quantiles as the generator wrote them. */
static const struct {
	size_t at;
	enum phases_column col;
	double q; /* for quantiles from the merged histogram; 1 = the largest bucket */
} QUANTILES[] = {
    {AT(lat_p50_ms), PHASES_COL_lat_p50_ms, 0.50}, {AT(lat_p90_ms), PHASES_COL_lat_p90_ms, 0.90},
    {AT(lat_p99_ms), PHASES_COL_lat_p99_ms, 0.99}, {AT(lat_p999_ms), PHASES_COL_lat_p999_ms, 0.999},
    {AT(lat_max_ms), PHASES_COL_lat_max_ms, 1.0},
};
#define N_QUANTILES (sizeof(QUANTILES) / sizeof(*QUANTILES))
#undef AT

static double *figure_at(struct model_send_traffic *t, size_t at)
{
	return (double *)(void *)((char *)t + at);
}

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

/* Every figure NAN (a sum not yet started, a quantile not known). */
static void traffic_clear(struct model_send_traffic *t)
{
#define CLEAR(name) t->name = NAN;
	MODEL_SEND_TRAFFIC_FIGURES(CLEAR, CLEAR, CLEAR)
#undef CLEAR
	t->latency_answers = NAN;
}

static void set_shares(struct model_send_traffic *t)
{
	t->answered_share = share_of_sent(t->answered, t->sent);
	t->lost_share = share_of_sent(t->lost, t->sent);
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

/* A phase's quantiles from its merged histogram, and how many answers it holds. */
static void set_quantiles(struct model_send_traffic *t, const struct runfolder *rf, int target,
                          const char *phase)
{
	struct latency_hist h;
	bool have = traffic_phase_hist(rf, target, phase, &h);
	for (size_t q = 0; q < N_QUANTILES; q++)
		*figure_at(t, QUANTILES[q].at) =
		    have ? latency_hist_quantile(&h, QUANTILES[q].q) / 1e6 : NAN;
	t->latency_answers = have ? (double)h.count : NAN;
}

static void from_phases_csv(const struct runfolder *rf, int target,
                            struct model_traffic_by_send *out)
{
	for (size_t p = 0; p < MODEL_TRAFFIC_PHASE_COUNT; p++) {
		struct model_send_traffic *t = &out->phases[p].t;
		for (size_t i = 0; i < rf->n_phase_rows; i++) {
			const struct runfolder_instance_row *r = &rf->phase_rows[i];
			if (r->target != target || strcmp(r->phase, model_traffic_phases[p]) != 0)
				continue;
			out->phases[p].seen++;
			for (size_t c = 0; c < N_COUNTS; c++)
				add(figure_at(t, COUNTS[c].at), r->v[COUNTS[c].phases_col]);
		}
		if (!out->phases[p].seen)
			continue;
		set_shares(t);
		set_quantiles(t, rf, target, model_traffic_phases[p]);
	}
	for (size_t i = 0; i < rf->n_phase_rows; i++)
		out->n_instances += rf->phase_rows[i].target == target;
	out->instances = calloc(out->n_instances ? out->n_instances : 1, sizeof(*out->instances));
	if (!out->instances)
		abort();
	size_t k = 0;
	for (size_t i = 0; i < rf->n_phase_rows; i++) {
		const struct runfolder_instance_row *r = &rf->phase_rows[i];
		if (r->target != target)
			continue;
		struct model_send_instance *in = &out->instances[k++];
		in->phase = strdup(r->phase);
		if (!in->phase)
			abort();
		in->spike = r->spike;
		traffic_clear(&in->t);
		for (size_t c = 0; c < N_COUNTS; c++)
			*figure_at(&in->t, COUNTS[c].at) = r->v[COUNTS[c].phases_col];
		set_shares(&in->t);
		for (size_t q = 0; q < N_QUANTILES; q++)
			*figure_at(&in->t, QUANTILES[q].at) = r->v[QUANTILES[q].col];
	}
}

/* An older run folder: the timeline's per-interval counts, by the interval each answer or
 * timeout happened in (an answer to a spike's query that arrives in the recovery counts there). */
static void from_timeline(const struct runfolder *rf, int target, struct model_traffic_by_send *out)
{
	for (size_t p = 0; p < MODEL_TRAFFIC_PHASE_COUNT; p++) {
		struct model_send_traffic *t = &out->phases[p].t;
		for (size_t i = 0; i < rf->n_rows; i++) {
			const struct runfolder_row *r = &rf->rows[i];
			if (r->target != target || strcmp(r->phase, model_traffic_phases[p]) != 0)
				continue;
			out->phases[p].seen++;
			for (size_t c = 0; c < N_COUNTS; c++)
				if (COUNTS[c].timeline_col >= 0)
					add(figure_at(t, COUNTS[c].at),
					    r->v[COUNTS[c].timeline_col]);
		}
		set_shares(t);
	}
}

/* The answered share of the queries sent at the baseline rate: every phase but the spike's. */
static double baseline_answered_share(const struct model_traffic_by_send *t)
{
	double sent = 0, answered = 0;
	for (size_t p = 0; p < MODEL_TRAFFIC_PHASE_COUNT; p++) {
		const struct model_send_traffic *o = &t->phases[p].t;
		if (p == MODEL_TRAFFIC_SPIKE || !t->phases[p].seen)
			continue;
		if (!isnan(o->sent) && !isnan(o->answered)) {
			sent += o->sent;
			answered += o->answered;
		}
	}
	return sent > 0 ? answered / sent : NAN;
}

void traffic_by_send(const struct runfolder *rf, int target, struct model_traffic_by_send *out)
{
	*out = (struct model_traffic_by_send){.from_phases_csv = rf->has_phases};
	for (size_t p = 0; p < MODEL_TRAFFIC_PHASE_COUNT; p++)
		traffic_clear(&out->phases[p].t);
	if (rf->has_phases)
		from_phases_csv(rf, target, out);
	else
		from_timeline(rf, target, out);
	out->baseline_answered_share = baseline_answered_share(out);
}
