/* reports/gate.h - the regression gate: evaluates a --fail-if expression over a run's figures. */
#ifndef ALLOCSPIKE_REPORTS_GATE_H
#define ALLOCSPIKE_REPORTS_GATE_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

enum gate_result { GATE_ERROR = -1, GATE_FALSE = 0, GATE_TRUE = 1 };

/* The limits of an expression (docs/check.md, "Limits"): its length in bytes, and how deep
 * parentheses, function calls and the unary operators ('!', 'not', '-') may nest. Beyond either
 * gate_eval is an error naming the column, never a crash. */
enum { GATE_MAX_EXPR_LEN = 4096, GATE_MAX_DEPTH = 64 };

/* Evaluates expr (syntax in docs/check.md) against summary, over every variant of its
 * variant_order however many there are. GATE_TRUE means the failure
 * condition holds: the comparisons that made it hold are written to out, one a line, naming the
 * figure, the variant and the value. GATE_ERROR: err says what and where: the column, then expr on
 * its own line with a caret under the fault, and for an unknown name the closest known one ("did
 * you mean ..."). */
enum gate_result gate_eval(const json_t *summary, const char *expr, FILE *out, char *err,
                           size_t err_size);

/* Prints every figure a condition can test, one a line: those of every variant (spikes by number),
 * then those of the whole run; '#' lines say how to use them. */
void gate_list(const json_t *summary, FILE *out);

#endif
