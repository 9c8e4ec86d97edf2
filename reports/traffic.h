/* reports/traffic.h - traffic figures per query, counted in the phase each query was sent in
 * (phases.csv), with true latency quantiles from the merged histograms (latency_hist.csv). */
#ifndef ALLOCSPIKE_REPORTS_TRAFFIC_H
#define ALLOCSPIKE_REPORTS_TRAFFIC_H

#include <stdbool.h>

#include "latency_hist.h"
#include "model.h"
#include "runfolder_reader.h"

/* What a latency bucket's width means for a quantile, for the page and summary.md. */
#define TRAFFIC_LATENCY_PRECISION                                                                  \
	"latency buckets are 1/64 to 1/32 of a power of two wide (common/latency_hist.c), so a "   \
	"quantile, the middle of its bucket, is within 1.6 % of the true value"

/* The variant's traffic by send phase (model.h, summary.json traffic_by_send; reports/README.md):
 * per phase and per phase instance sent, answered, lost, late, pending and rcodes, and latency
 * quantiles, and the answered share at the baseline rate. From phases.csv when the run has it,
 * else summed from timeline.csv by the interval each answer arrived in. */
void traffic_by_send(const struct runfolder *rf, int target, struct model_traffic_by_send *out);

/* Each spike's answered_share in mv (model.h): of the queries sent in it, from phases.csv (the
 * instances of traffic_by_send); left NAN without. */
void traffic_set_spike_answered(const struct runfolder *rf, int target, struct model_variant *mv);

/* The variant's latency histogram of one phase (all its instances merged) from latency_hist.csv;
 * false when the run has none for it. */
bool traffic_phase_hist(const struct runfolder *rf, int target, const char *phase,
                        struct latency_hist *out);

#endif
