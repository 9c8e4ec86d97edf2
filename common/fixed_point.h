/* common/fixed_point.h - a number for a reader: printf's "%.Ng" significant digits, trailing zeros
 * dropped, but never its exponent form ("1800", not "1.8e+03"; "0.00001", not "1e-05"). Every
 * number a reader sees (the report's page and summary.md, the programs' messages) that is not
 * given a fixed number of decimals goes through it. */
#ifndef ALLOCSPIKE_COMMON_FIXED_POINT_H
#define ALLOCSPIKE_COMMON_FIXED_POINT_H

#include <stddef.h>

/* v rounded to `significant` digits (1 or more) in fixed-point notation, into buf; returns buf.
 * Digits past the 15th decimal place are dropped (1e-20 is "0"); NaN and infinities as printf
 * writes them. */
const char *fixed_point(char *buf, size_t size, double v, int significant);

#endif
