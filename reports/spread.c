/* reports/spread.c - min, median, max and relative spread of repeats of one figure. */
#include "spread.h"

#include <math.h>
#include <stdlib.h>

int spread_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

struct spread spread_of(const double *x, size_t n)
{
	struct spread s = {NAN, NAN, NAN, NAN, 0};
	double *v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		abort();
	for (size_t i = 0; i < n; i++)
		if (!isnan(x[i]))
			v[s.n++] = x[i];
	if (s.n > 0) {
		qsort(v, s.n, sizeof(*v), spread_cmp_double);
		s.min = v[0];
		s.max = v[s.n - 1];
		s.median = s.n % 2 ? v[s.n / 2] : (v[s.n / 2 - 1] + v[s.n / 2]) / 2;
		if (s.n >= 2 && s.max == s.min)
			s.share = 0; /* equal, even all zero */
		else if (s.n >= 2 && s.median != 0)
			s.share = (s.max - s.min) / fabs(s.median);
	}
	free(v);
	return s;
}

bool spread_agrees(const struct spread *s, double floor)
{
	if (s->n < 2)
		return false;
	return s->share <= SPREAD_AGREE_SHARE || s->max - s->min <= floor;
}

bool spread_agrees_share(const struct spread *s)
{
	/* the small epsilon: points computed from counts (0.98 - 0.96) land a hair above 0.02 */
	return s->n >= 2 && s->max - s->min <= SPREAD_SHARE_FLOOR_POINTS / 100 + 1e-9;
}

bool spread_pair_agrees(double a, double b, double floor, bool is_share)
{
	double pair[2] = {a, b};
	struct spread s = spread_of(pair, 2);
	return is_share ? spread_agrees_share(&s) : spread_agrees(&s, floor);
}
