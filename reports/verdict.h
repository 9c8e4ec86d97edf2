/* reports/verdict.h - the top of the page: one computed sentence per variant and the ranking of
 * the memory held after the spikes (summary.json "verdict"). */
#ifndef ALLOCSPIKE_REPORTS_VERDICT_H
#define ALLOCSPIKE_REPORTS_VERDICT_H

#include <jansson.h>
#include <stddef.h>

#include "model.h"

/* {"held_basis", "held_basis_text", "ranking": [{"variant", "spikes_left_mb",
 * "held_before_spikes_mb", "held_after_spikes_mb", "colour"}] least left first, "sentences": [...]
 * in variant order}, from the variants' figures and model (spike_shape_add_variant_figures and
 * validity must be set). */
json_t *verdict_build(const json_t *summary, const struct model *model);

/* One cell of the variant-by-spike grid: "PEAK / END" anon RSS in MB with one decimal ("n/a"
 * for a missing value), into buf. The page and summary.md both print it. */
const char *verdict_grid_cell(const json_t *spike, char *buf, size_t size);

#endif
