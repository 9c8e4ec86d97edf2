/* reports/findings.h - plain sentences computed from a summary: what the numbers show. */
#ifndef ALLOCSPIKE_REPORTS_FINDINGS_H
#define ALLOCSPIKE_REPORTS_FINDINGS_H

#include <jansson.h>

#include "model.h"

/* A JSON array of sentences (strings) about the run in summary and its spikes in model (thresholds
 * in reports/README.md). */
json_t *findings_build(const json_t *summary, const struct model *model);

#endif
