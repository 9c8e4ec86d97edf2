/* reports/figures.h - the first pass over a run: summary.json's figures read off the run folder's
 * rows and events. */
#ifndef ALLOCSPIKE_REPORTS_FIGURES_H
#define ALLOCSPIKE_REPORTS_FIGURES_H

#include <jansson.h>

#include "model.h"
#include "runfolder_reader.h"

/* The summary object with the figures of the rows and events: format, run, interval_s, phases,
 * spike_count, variant_order, variants (memory, spikes, attribution, CPU, traffic, crashes) and
 * harness (layout and every figure documented in reports/README.md). Numbers that cannot be
 * computed from what was recorded are JSON null. The later passes add to it (passes.c). The
 * spikes' figures are also set in model (model.h), which the caller frees with model_free. */
json_t *figures_build(const struct runfolder *rf, struct model *model);

#endif
