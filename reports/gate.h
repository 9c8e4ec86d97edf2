/* reports/gate.h - the regression gate: evaluates a --fail-if expression over a run's figures. */
#ifndef ALLOCSPIKE_REPORTS_GATE_H
#define ALLOCSPIKE_REPORTS_GATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum gate_result { GATE_ERROR = -1, GATE_FALSE = 0, GATE_TRUE = 1 };

/* The limits of an expression (docs/check.md, "Limits"): its length in bytes, and how deep
 * parentheses, function calls and the unary operators ('!', 'not', '-') may nest. Beyond either
 * gate_eval is an error naming the column, never a crash. */
enum { GATE_MAX_EXPR_LEN = 4096, GATE_MAX_DEPTH = 64 };

/* How a condition is evaluated. */
struct gate_options {
	/* the baseline's figures, which `baseline.NAME` reads (its variants matched to the run's by
	 * name); NULL: a `baseline.` name is an error */
	const json_t *baseline;
	/* a figure that is n/a (null or missing) for a variant leaves that variant out, and a
	 * condition no variant can decide passes as n/a; without it such a condition fails */
	bool allow_missing;
};

/* What one condition came to. */
struct gate_outcome {
	enum gate_result result;
	bool undecided; /* GATE_FALSE only because every figure it needs is n/a (allow_missing) */
	/* each figure the condition read, once, with its value per variant, on one line and
	 * escaped for a terminal: "peak_growth_mb_per_spike: alpha=1 beta=n/a; spike_count=3" */
	char *values;
	/* GATE_TRUE: why, one indented line each: every comparison that held (the figure, the
	 * variant, the values) and every figure that was n/a for a variant */
	char *why;
	/* GATE_ERROR: the column, then the expression on its own line with a caret under the fault,
	 * and for an unknown name the closest known one ("did you mean ...") */
	char err[2048];
};

/* Evaluates expr (syntax in docs/check.md) against summary, over every variant of its
 * variant_order however many there are. GATE_TRUE means the failure condition holds, or that a
 * figure it reads is n/a for some variant (unless opt->allow_missing). opt may be NULL (no
 * baseline, n/a fails). The outcome's texts are the caller's to release (gate_outcome_free). */
enum gate_result gate_eval(const json_t *summary, const char *expr, const struct gate_options *opt,
                           struct gate_outcome *out);
void gate_outcome_free(struct gate_outcome *out);

/* Prints every figure a condition can test, one a line: those of every variant (spikes by number),
 * then those of the whole run; '#' lines say how to use them. */
void gate_list(const json_t *summary, FILE *out);

#endif
