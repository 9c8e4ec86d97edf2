/* reports/pileup.c - per-spike figures of repeats moved along their fitted line to one pile-up. */
#include "pileup.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "spread.h"

static double *doubles(size_t n)
{
	double *v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		abort();
	return v;
}

void pileup_build(struct pileup *p, const double *x, const double *y, size_t n_runs,
                  size_t n_spikes)
{
	size_t n = n_runs * n_spikes;
	p->n_runs = n_runs;
	p->n_spikes = n_spikes;
	p->median_x = doubles(n_spikes);
	p->at_median = doubles(n);
	/* a point counts only with both coordinates (fit_line skips a NAN y only) */
	double *y_paired = doubles(n), *x_paired = doubles(n), *column = doubles(n_runs);
	for (size_t i = 0; i < n; i++) {
		bool both = !isnan(x[i]) && !isnan(y[i]);
		x_paired[i] = both ? x[i] : 0;
		y_paired[i] = both ? y[i] : NAN;
	}
	p->fit = fit_line(x_paired, y_paired, n);
	for (size_t k = 0; k < n_spikes; k++) {
		for (size_t r = 0; r < n_runs; r++)
			column[r] = x[r * n_spikes + k];
		p->median_x[k] = spread_of(column, n_runs).median;
		for (size_t r = 0; r < n_runs; r++) {
			size_t i = r * n_spikes + k;
			double move = p->median_x[k] - x[i];
			/* at the median already: nothing to move, line or not */
			p->at_median[i] = y_paired[i] + (move == 0 ? 0 : p->fit.slope * move);
		}
	}
	free(y_paired);
	free(x_paired);
	free(column);
}

void pileup_free(struct pileup *p)
{
	free(p->median_x);
	free(p->at_median);
	p->median_x = p->at_median = NULL;
}
