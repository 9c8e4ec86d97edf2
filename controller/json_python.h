/* controller/json_python.h - a JSON value written byte for byte as Python's
 * json.dumps(value, separators=(",", ":")) writes it: the records scenarios' Python tools once
 * wrote keep their bytes now that the controller writes them (poll-sizes). */
#ifndef ALLOCSPIKE_CONTROLLER_JSON_PYTHON_H
#define ALLOCSPIKE_CONTROLLER_JSON_PYTHON_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* value (NULL: null) written to out: keys in their order, reals in their shortest form that reads
 * back as the same number (an integral one with ".0", exponents as "1e+16"), strings ASCII-only.
 * False when writing failed. */
bool json_python_write(FILE *out, const json_t *value);

/* x as Python's repr(float) writes it, into buf (at least 32 bytes). */
void json_python_real(double x, char *buf, size_t size);

#endif
