/* querydata/generate.h - the embedded default: a query file of any length from a seed. */
#ifndef ALLOCSPIKE_QUERYDATA_GENERATE_H
#define ALLOCSPIKE_QUERYDATA_GENERATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Writes count queries in dnsperf format to out; the same seed and count give the same bytes. */
bool generate_write(uint64_t seed, uint64_t count, FILE *out, char *err, size_t err_size);

#endif
