/* reports/judgement.c - the thresholds the report's words judge a figure by, and the words they
 * share. */
#include "judgement.h"

#include <math.h>

#include "fit.h"
#include "strbuf.h"

const char *judgement_of_share(double share)
{
	return share >= RETURNED_SHARE ? "returned" : "kept";
}

const char *judgement_of_trend(double mb_per_spike)
{
	return mb_per_spike >= CLIMB_MB_PER_SPIKE    ? "climbs"
	       : mb_per_spike <= -CLIMB_MB_PER_SPIKE ? "falls"
	                                             : "level";
}

void judgement_share_range(struct strbuf *b, double lo, double hi)
{
	if (lround(100 * lo) == lround(100 * hi))
		strbuf_printf(b, "%.0f %%", 100 * lo);
	else
		strbuf_printf(b, "%.0f-%.0f %%", 100 * lo, 100 * hi);
}

double judgement_spike_trend(const double *spike, const double *mb, size_t n)
{
	return n >= 1 + TREND_MIN_SPIKES ? fit_theil_sen(spike + 1, mb + 1, n - 1) : NAN;
}
