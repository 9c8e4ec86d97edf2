/* reports/baseline_diff_text.h - a comparison with a baseline (baseline_diff.h) as compare.md and
 * as lines for a terminal. */
#ifndef ALLOCSPIKE_REPORTS_BASELINE_DIFF_TEXT_H
#define ALLOCSPIKE_REPORTS_BASELINE_DIFF_TEXT_H

#include <jansson.h>
#include <stdio.h>

/* One sentence: "No change: ..." or "2 of 18 figures changed: glibc held after the spikes +2.1 MB
 * (worse); ...". Caller frees. */
char *baseline_diff_sentence(const json_t *diff);

/* compare.md: the sentence, the rule, then per variant a table: each figure in the baseline, in
 * each new run, and the difference with its judgement. Caller frees. */
char *baseline_diff_markdown(const json_t *diff);

/* The sentence, then a line per variant and figure, escaped for a terminal. */
void baseline_diff_print(const json_t *diff, FILE *f);

#endif
