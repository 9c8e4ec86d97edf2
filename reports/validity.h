/* reports/validity.h - every reason a run may not show what it claims, each with the knob to turn
 * (summary.json "validity", the box at the top of the page). */
#ifndef ALLOCSPIKE_REPORTS_VALIDITY_H
#define ALLOCSPIKE_REPORTS_VALIDITY_H

#include <jansson.h>

#include "model.h"
#include "runfolder_reader.h"

/* Spikes at more than this multiple of a variant's calibrated capacity measure overload, not
 * spikes. */
#define VALIDITY_MAX_CAPACITY_MULTIPLE 3.0
/* A variant answering less than this share of the queries sent in spikes is far over capacity. */
#define VALIDITY_MIN_SPIKE_ANSWERED_SHARE 0.5
/* A variant answering less than this share of the queries sent in any one spike was over its
 * capacity in that spike, whatever its share over all spikes. */
#define VALIDITY_MIN_EACH_SPIKE_ANSWERED_SHARE 0.95
/* A trend over fewer spikes is a line through two points. */
#define VALIDITY_MIN_SPIKES 3

/* How long the harness was saturated (s), from summary.json "harness": never less than the windows
 * its saturation was measured over (one per harness_saturated event), 0 when it never was. */
double validity_saturated_s(const json_t *harness);

/* {"valid": bool, "reason_count": n, "reasons": [{"code", "text", "knob", "variants"}]} (the
 * variant_not_run reason also "why": {VARIANT: the failed event's reason}, spike_under_answered
 * "spikes": {VARIANT: [{"spike", "answered_share"}]}) from the run folder
 * and its summary (variants and harness already computed). */
json_t *validity_build(const struct runfolder *rf, const json_t *summary, struct model *model);

/* The reason with CODE in summary.json's validity, or NULL when the run has none. */
const json_t *validity_reason(const json_t *summary, const char *code);

/* How many spikes the variant answered under VALIDITY_MIN_EACH_SPIKE_ANSWERED_SHARE of while
 * another variant beside it did not (the reason spike_under_answered: over its capacity in them;
 * a spike every variant lost is the reason spikes_lost_by_all's, the machine's). */
size_t validity_spikes_under_answered(const struct model_variant *mv);

/* Those spikes in words, for the reason's text and the verdict alike: "spike 3 (94.0 %
 * answered)", "spikes 1 (83.6 % answered) and 2 (85.7 % answered)", or, past three, how many and
 * the range: "8 spikes (77.4-94.5 % answered)". */
struct strbuf;
void validity_under_answered_words(struct strbuf *b, const struct model_variant *mv);

#endif
