/* reports/spread.h - how far repeats of one figure lie apart: min, median, max and the spread as a
 * share of the median (the comparison page, summary figures of repeats). */
#ifndef ALLOCSPIKE_REPORTS_SPREAD_H
#define ALLOCSPIKE_REPORTS_SPREAD_H

#include <stdbool.h>
#include <stddef.h>

/* Repeats whose spread is over this share of their median do not agree: a change of that size
 * cannot be told from noise. */
#define SPREAD_AGREE_SHARE 0.10
/* Held memory whose repeats lie within this many MB agrees whatever its share: the resolution
 * held memory is judged at (the advisor's floor, advisor.c), where a few hundred kB an allocator
 * keeps or not is a large share of nothing. */
#define SPREAD_HELD_FLOOR_MB 1.0
/* Shares (0..1: answered, given back, held of a footprint) agree when they lie within this many
 * percentage points, whatever their ratio. A share is read in points, and a relative rule is
 * loose near 1 and strict near 0: within 10 % it let an answered share of 89 % pass for 98 %
 * (a variant losing one query in nine), while 1 % and 2 % given back were "apart". Two points
 * keeps a move toward validity's 95 % line (5 points under all answered) a change. */
#define SPREAD_SHARE_FLOOR_POINTS 2.0

struct spread {
	double min, median, max;
	double share; /* (max - min) / |median|, 0 when all are equal; NAN with fewer than two
	               * values, or unequal ones around a zero median */
	size_t n;     /* values used (those not NAN) */
};

/* qsort's comparison of doubles, ascending: the one the report's modules sort with. */
int spread_cmp_double(const void *a, const void *b);

/* The spread of the values of x that are not NAN (x is left as it was). */
struct spread spread_of(const double *x, size_t n);

/* Whether repeats agree: spread within SPREAD_AGREE_SHARE, or max - min within floor (in the
 * values' unit; 0 for none: values that are all 0 agree). False with fewer than two values. */
bool spread_agrees(const struct spread *s, double floor);

/* Whether repeats of a share (0..1) agree: max - min within SPREAD_SHARE_FLOOR_POINTS percentage
 * points, with no relative rule. False with fewer than two values. */
bool spread_agrees_share(const struct spread *s);

/* Whether two single figures agree by the rule their repeats would: as a share in points when
 * is_share, else within SPREAD_AGREE_SHARE of their median or floor apart. */
bool spread_pair_agrees(double a, double b, double floor, bool is_share);

#endif
