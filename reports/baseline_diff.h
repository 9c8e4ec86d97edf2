/* reports/baseline_diff.h - each headline figure of new runs against a baseline, a difference
 * inside the run-to-run spread marked "no change" (compare.json, docs/compare.md). */
#ifndef ALLOCSPIKE_REPORTS_BASELINE_DIFF_H
#define ALLOCSPIKE_REPORTS_BASELINE_DIFF_H

#include <jansson.h>
#include <stddef.h>

/* One side of the comparison: a path as given and the summaries of the runs it names (one run,
 * or the repeats of a folder of repeats). */
struct diff_side {
	const char *label;
	const char *const *dirs;
	const json_t *const *summaries;
	size_t n;
};

/* compare.json: per variant (names: over all runs, in order) and figure, the baseline's value,
 * each new side's value, the difference and whether it is a change. Caller owns it. */
json_t *baseline_diff_build(const struct diff_side *baseline, const struct diff_side *sides,
                            size_t n_sides, const json_t *names);

#endif
