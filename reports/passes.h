/* reports/passes.h - summary.json from a run folder: every pass over the model, in one fixed
 * order (reports/README.md "Layers"). */
#ifndef ALLOCSPIKE_REPORTS_PASSES_H
#define ALLOCSPIKE_REPORTS_PASSES_H

#include <jansson.h>

#include "runfolder_reader.h"

/* The summary of a run (layout and every figure documented in reports/README.md): the figures of
 * its rows, then each pass in order, each reading only what the passes before it set. */
json_t *passes_run(const struct runfolder *rf);

#endif
