/* querydata/flat.h - the query mix for the flat reference world (allocspike-upstream --world flat):
 * a Zipf-popular pool of names under its TLDs, fresh names under them, names outside them. */
#ifndef ALLOCSPIKE_QUERYDATA_FLAT_H
#define ALLOCSPIKE_QUERYDATA_FLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct flat_mix {
	unsigned tlds;      /* names go under tld1. .. tld<tlds>. */
	uint64_t pool;      /* names in the popular pool */
	double zipf;        /* the pool's Zipf exponent: rank r is asked in proportion to r^-zipf */
	double fresh_share; /* queries for a name under a TLD never asked before */
	double nxdomain_share; /* queries for a name outside the TLDs (NXDOMAIN from the root) */
};

#define FLAT_MIX_POOL_MAX 1000000
#define FLAT_MIX_ZIPF_MAX 3.0

/* The defaults, from the DNS-OARC sample the embedded default models (docs/query-files.md, "The
 * flat world's mix", gives each source). */
void flat_mix_defaults(struct flat_mix *m);

/* Writes count queries of mix m in dnsperf format to out, the same bytes for the same seed;
 * false with the reason in err (a write error). The pool share is what the others leave. */
bool flat_mix_write(const struct flat_mix *m, uint64_t seed, uint64_t count, FILE *out, char *err,
                    size_t err_size);

#endif
