/* reports/advisor.h - the tuning advisor: which allocator setting keeps memory flat, at what CPU
 * cost, judged against the run-to-run spread (advice.json, reports/README.md "Advisor"). */
#ifndef ALLOCSPIKE_REPORTS_ADVISOR_H
#define ALLOCSPIKE_REPORTS_ADVISOR_H

#include <jansson.h>
#include <stddef.h>

#include "model.h"

struct advisor_options {
	double margin_mb; /* a setting is "within the margin" of the lowest held memory when it */
	double margin_share; /* holds at most lowest + max(margin_mb, margin_share x lowest) */
};

/* The advice over runs of the same settings (repeats): per variant the figures' medians and
 * spreads, per group of settings of one allocator and program the lowest held memory, the
 * cheapest setting within the margin, the settings that did nothing, and one sentence each.
 * summaries[i] is run i's summary.json, run_jsons[i] its run.json (may be NULL), names the
 * variants over all runs in order. Shaped like a summary (variant_order, variants) so that the
 * --fail-if gate reads it. */
json_t *advisor_build(const char *const *dirs, const json_t *const *summaries,
                      const json_t *const *run_jsons, size_t n_runs, const json_t *names,
                      const struct advisor_options *opt);

/* The advisor's figures for this run alone (model.h struct model_advisor: held_after_spikes_mb,
 * held_growth_mb_per_spike, peak_anon_mb, cpu_s_per_million_answered, spike_lat_p99_ms, and
 * held_basis) into each variant of the model, and written to variants.NAME.advisor of its
 * summary, so that check can gate on them. */
void advisor_add_run_figures(json_t *summary, struct model *model);

/* One variant's memory held after the spikes (MB) on the best basis it has by itself: its
 * name in *basis, its place in the advisor's order of bases in *rank (0 = allocator-held, the
 * best) and the growth per spike on that basis; NAN (basis NULL) when it has none. One rule,
 * read from a finished summary's variant object (advisor_variant_held_mb) or from the model
 * (advisor_model_held_mb). */
double advisor_variant_held_mb(const json_t *v, const char **basis, size_t *rank,
                               double *growth_mb_per_spike);
double advisor_model_held_mb(const struct model_variant *mv, const char **basis, size_t *rank,
                             double *growth_mb_per_spike);

#endif
