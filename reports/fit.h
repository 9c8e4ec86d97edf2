/* reports/fit.h - the least-squares line: growth per spike (summary.c), memory per request in
 * flight (scale.c). */
#ifndef ALLOCSPIKE_REPORTS_FIT_H
#define ALLOCSPIKE_REPORTS_FIT_H

#include <stddef.h>

struct line_fit {
	double slope, intercept;
	double r2;     /* share of y's variance the line explains; NAN when y does not vary */
	size_t points; /* pairs used (those whose y is not NAN) */
};

/* Fits y = intercept + slope * x over the pairs whose y is not NAN. Every figure is NAN with
 * fewer than two distinct x. */
struct line_fit fit_line(const double *x, const double *y, size_t n);

#endif
