/* reports/fit.c - ordinary least squares of y over x, and the Theil-Sen slope. */
#include "fit.h"

#include <math.h>
#include <stdlib.h>

#include "spread.h"

struct line_fit fit_line(const double *x, const double *y, size_t n)
{
	struct line_fit f = {NAN, NAN, NAN, 0};
	double sx = 0, sy = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(y[i])) {
			sx += x[i];
			sy += y[i];
			f.points++;
		}
	if (f.points < 2)
		return f;
	double m = (double)f.points, mx = sx / m, my = sy / m, sxx = 0, sxy = 0, syy = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(y[i])) {
			sxx += (x[i] - mx) * (x[i] - mx);
			sxy += (x[i] - mx) * (y[i] - my);
			syy += (y[i] - my) * (y[i] - my);
		}
	if (!(sxx > 0))
		return f;
	f.slope = sxy / sxx;
	f.intercept = my - f.slope * mx;
	f.r2 = syy > 0 ? sxy * sxy / (sxx * syy) : NAN;
	return f;
}

double fit_theil_sen(const double *x, const double *y, size_t n)
{
	/* Every pair is n^2/2 slopes: a run folder of 40,000 spikes would take gigabytes. Past
	 * FIT_THEIL_SEN_MAX_POINTS, evenly spaced points stand for the series. */
	size_t stride = n > FIT_THEIL_SEN_MAX_POINTS
	                    ? (n + FIT_THEIL_SEN_MAX_POINTS - 1) / FIT_THEIL_SEN_MAX_POINTS
	                    : 1;
	size_t used = (n + stride - 1) / stride;
	double *slopes = malloc((used > 1 ? used * (used - 1) / 2 : 1) * sizeof(*slopes));
	if (!slopes)
		abort();
	size_t m = 0;
	for (size_t i = 0; i < n; i += stride)
		for (size_t k = i + stride; k < n; k += stride)
			if (!isnan(y[i]) && !isnan(y[k]) && x[k] != x[i])
				slopes[m++] = (y[k] - y[i]) / (x[k] - x[i]);
	double median = spread_of(slopes, m).median;
	free(slopes);
	return median;
}
