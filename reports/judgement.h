/* reports/judgement.h - the thresholds the report's words judge a figure by, and the words they
 * share: one definition each, used by the figures that count against them (spike_shape.c), the
 * findings, the verdict and compare (reports/README.md "Layers"). */
#ifndef ALLOCSPIKE_REPORTS_JUDGEMENT_H
#define ALLOCSPIKE_REPORTS_JUDGEMENT_H

#include <stddef.h>

struct strbuf;

/* A spike "gave back" what it freed when at least this share of its growth went back to the
 * system; the verdict and the findings count the spikes that did (give_back_per_spike). */
#define RETURNED_SHARE 0.5
/* The one threshold for "level": peaks "climbed" (or "fell"), what the spikes left "climbs" (or
 * "falls", or "stepped" at one spike) when the growth is at least this many MB per spike; less is
 * "level". README.md quotes it. */
#define CLIMB_MB_PER_SPIKE 0.5
/* A trend over fewer spikes after the first is a line through noise: each spike's value is shown
 * instead. */
#define TREND_MIN_SPIKES 4
/* Memory moves by this much between two samples of a quiet process (pages touched, a cache entry
 * expiring): a spike that grew less has no meaningful given-back share, and a share outside
 * [0, 100 %] by less than this many kB (a level that ended a few pages below where the spike
 * began) is clamped without a word, since the words would then change from run to run. */
#define SHARE_MIN_GROWTH_KB 1024.0

/* The one per-spike rate of a quantity (MB per spike): the robust (Theil-Sen) slope of mb over
 * spike from the second spike on, the first being an allocator settling that the report states as
 * a step of its own; NAN with fewer than TREND_MIN_SPIKES spikes after the first. Every
 * "..._growth_mb_per_spike" and "trend_mb_per_spike" figure is this. */
double judgement_spike_trend(const double *spike, const double *mb, size_t n);

/* "returned" or "kept", by the share of a spike's memory given back (RETURNED_SHARE). */
const char *judgement_of_share(double share);

/* "climbs", "falls" or "level", by a trend in MB per spike (CLIMB_MB_PER_SPIKE). */
const char *judgement_of_trend(double mb_per_spike);

/* A range of shares as the verdict and the findings write it: "12-97 %", or "12 %" when both
 * round alike. */
void judgement_share_range(struct strbuf *b, double lo, double hi);

#endif
