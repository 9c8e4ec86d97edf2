/* reports/spread.h - how far repeats of one figure lie apart: min, median, max and the spread as a
 * share of the median (the comparison page, summary figures of repeats). */
#ifndef ALLOCSPIKE_REPORTS_SPREAD_H
#define ALLOCSPIKE_REPORTS_SPREAD_H

#include <stddef.h>

/* Repeats whose spread is over this share of their median do not agree: a change of that size
 * cannot be told from noise. */
#define SPREAD_AGREE_SHARE 0.10

struct spread {
	double min, median, max;
	double share; /* (max - min) / |median|; NAN with fewer than two values or a zero median */
	size_t n;     /* values used (those not NAN) */
};

/* The spread of the values of x that are not NAN (x is left as it was). */
struct spread spread_of(const double *x, size_t n);

#endif
