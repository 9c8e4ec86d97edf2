/* reports/findings.h - plain sentences computed from a summary: what the numbers show. */
#ifndef ALLOCSPIKE_REPORTS_FINDINGS_H
#define ALLOCSPIKE_REPORTS_FINDINGS_H

#include <jansson.h>

/* A spike "gave back" what it freed when at least this share of its growth went back to the
 * system; the verdict and the findings count the spikes that did (give_back_per_spike). */
#define RETURNED_SHARE 0.5
/* The one threshold for "level": peaks "climbed" (or "fell"), what the spikes left "climbs" (or
 * "falls", or "stepped" at one spike) when the growth is at least this many MB per spike; less is
 * "level". */
#define CLIMB_MB_PER_SPIKE 0.5

/* "returned" or "kept", by the share of a spike's memory given back: the one threshold. */
const char *findings_verdict_of(double share);

struct strbuf;
/* A range of shares as the verdict and the findings write it: "12-97 %", or "12 %" when both
 * round alike. */
void findings_share_range(struct strbuf *b, double lo, double hi);

/* A JSON array of sentences (strings) about the run in summary (thresholds in reports/README.md).
 */
json_t *findings_build(const json_t *summary);

#endif
