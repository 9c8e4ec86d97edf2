/* reports/pileup.h - a per-spike figure of repeats moved to one pile-up of requests. What a spike
 * leaves held grows with the requests in flight at the peaks, a fixed part plus a slope (the scale
 * law, scale.c), and how many pile up depends on when each process gets a core, which differs from
 * run to run. The line fitted through every run's spikes moves each run's value along it to the
 * spike's median pile-up over the runs: what is left of the spread is what the pile-up does not
 * explain. */
#ifndef ALLOCSPIKE_REPORTS_PILEUP_H
#define ALLOCSPIKE_REPORTS_PILEUP_H

#include <stddef.h>

#include "fit.h"

struct pileup {
	struct line_fit fit; /* y over x, every run's spikes */
	size_t n_runs, n_spikes;
	double *median_x;  /* [spike]: the median pile-up over the runs */
	double *at_median; /* [run * n_spikes + spike]: y + slope * (median_x - x); NAN where
	                    * either is missing, or where it must move and there is no line */
};

/* From x and y at [run * n_spikes + spike] (NAN where a run lacks the figure). Without a line
 * (fewer than two distinct pile-ups) only values at their spike's median pile-up are kept. */
void pileup_build(struct pileup *p, const double *x, const double *y, size_t n_runs,
                  size_t n_spikes);
void pileup_free(struct pileup *p);

#endif
