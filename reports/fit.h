/* reports/fit.h - the least-squares line: memory per request in flight (scale.c), held memory
 * along the pile-up (pileup.c); and the robust slope, every per-spike rate (judgement.c). */
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

/* The Theil-Sen slope: the median of the slopes of every pair of points with distinct x whose y
 * are not NAN. One outlier (a step) moves it little, where it tilts the least-squares line. NAN
 * without such a pair. A longer series than FIT_THEIL_SEN_MAX_POINTS is thinned to evenly spaced
 * points (the pairs grow with the square of the points). */
#define FIT_THEIL_SEN_MAX_POINTS 256
double fit_theil_sen(const double *x, const double *y, size_t n);

#endif
