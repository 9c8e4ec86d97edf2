/* reports/fit.c - ordinary least squares of y over x. */
#include "fit.h"

#include <math.h>

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
