/* reports/findings.h - plain sentences computed from a summary: what the numbers show. */
#ifndef ALLOCSPIKE_REPORTS_FINDINGS_H
#define ALLOCSPIKE_REPORTS_FINDINGS_H

#include <jansson.h>

/* A variant "returned" its spike memory when it gave back at least this share of each spike's
 * growth on average, and "kept" it below KEPT_SHARE. */
#define RETURNED_SHARE 0.5
#define KEPT_SHARE 0.2
/* The one threshold for "level": peaks "climbed" (or "fell"), what the spikes left "climbs" (or
 * "falls", or "stepped" at one spike) when the growth is at least this many MB per spike; less is
 * "level". */
#define CLIMB_MB_PER_SPIKE 0.5

/* "returned", "kept" or "part", by the share of spike memory given back. */
const char *findings_verdict_of(double share);

/* A JSON array of sentences (strings) about the run in summary (thresholds in reports/README.md).
 */
json_t *findings_build(const json_t *summary);

#endif
