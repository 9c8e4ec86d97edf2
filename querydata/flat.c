/* querydata/flat.c - the flat world's query mix: pool names by Zipf rank, fresh names, NXDOMAIN. */
#include "flat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flat_world.h"
#include "model.h"
#include "rng.h"

/* Queries for names outside the TLDs: 20%, what allocspike-upstream serves the DNS-OARC sample as
 * NXDOMAIN (20.6%, upstream/README.md) and within the 10-30% recursive resolvers receive (Gao et
 * al., IEEE/ACM ToN 2016). */
#define FLAT_MIX_NXDOMAIN 0.20
/* The pool's exponent: the sample's Zipf fit over ranks 1-1,000 (1.083, querydata/README.md). */
#define FLAT_MIX_ZIPF 1.08

void flat_mix_defaults(struct flat_mix *m)
{
	m->tlds = FLAT_TLDS_DEFAULT;
	/* the sample's 3,109 names seen more than once are the pool; the queries of names seen
	 * once (57%) are the fresh and the NXDOMAIN ones together */
	m->pool = model_popular_ranks;
	m->zipf = FLAT_MIX_ZIPF;
	m->nxdomain_share = FLAT_MIX_NXDOMAIN;
	m->fresh_share = model_once_query_share - FLAT_MIX_NXDOMAIN;
}

/* Types asked under the TLDs: A, AAAA and MX in the sample's proportions (68.25 : 7.92 : 8.43,
 * its PTR share left out: the flat world has no reverse zones) scaled to 92%, and TXT 5% and NS
 * 3%, a chosen share so that every type of the wildcard is asked. */
static const double flat_type_weights[] = {0.742, 0.086, 0.092, 0.05, 0.03};
static const char *const flat_type_names[] = {"A", "AAAA", "MX", "TXT", "NS"};
#define FLAT_TYPES (sizeof(flat_type_weights) / sizeof(flat_type_weights[0]))

/* len random lower-case letters into buf. */
static size_t flat_letters(struct rng *r, size_t len, char *buf)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (char)('a' + rng_below(r, 26));
	return len;
}

/* A label of 5-12 letters (a chosen length: the sample's labels left of the TLD have their median
 * in this range). */
static size_t flat_label(struct rng *r, char *buf)
{
	return flat_letters(r, 5 + rng_below(r, 8), buf);
}

static size_t flat_tld(struct rng *r, unsigned tlds, char *buf, size_t size)
{
	int n = flat_tld_label(1 + (unsigned)rng_below(r, tlds), buf, size);
	return (size_t)n;
}

/* Rank r's name, the same in every query: "<label><r>.tld<k>." (the rank makes it unique). */
static size_t flat_pool_name(uint64_t seed, unsigned tlds, uint64_t rank, char *buf)
{
	struct rng r;
	rng_seed(&r, rng_mix(seed ^ 0x706f6f6cULL) + rank);
	size_t n = flat_label(&r, buf);
	n += (size_t)snprintf(buf + n, 32, "%llu.", (unsigned long long)rank);
	n += flat_tld(&r, tlds, buf + n, 16);
	buf[n++] = '.';
	buf[n] = '\0';
	return n;
}

/* A fresh name, two labels below a TLD: 26^10 or more names, so none repeats in practice. */
static size_t flat_fresh_name(struct rng *r, unsigned tlds, char *buf)
{
	size_t n = flat_label(r, buf);
	buf[n++] = '.';
	n += flat_label(r, buf + n);
	buf[n++] = '.';
	n += flat_tld(r, tlds, buf + n, 16);
	buf[n++] = '.';
	buf[n] = '\0';
	return n;
}

/* A name outside the TLDs: one random label of 7-15 letters, the shape of Chromium's
 * intranet-redirect probes that make much of the root's NXDOMAIN traffic (Verisign and APNIC,
 * 2020); without digits it is never "tld<k>". */
static size_t flat_nxdomain_name(struct rng *r, char *buf)
{
	size_t n = flat_letters(r, 7 + rng_below(r, 9), buf);
	buf[n++] = '.';
	buf[n] = '\0';
	return n;
}

bool flat_mix_write(const struct flat_mix *m, uint64_t seed, uint64_t count, FILE *out, char *err,
                    size_t err_size)
{
	/* cumulative Zipf weights of the pool's ranks, searched by bisection */
	double *cum = malloc((size_t)m->pool * sizeof(*cum));
	if (!cum) {
		snprintf(err, err_size, "out of memory for a pool of %llu names",
		         (unsigned long long)m->pool);
		return false;
	}
	double total = 0;
	for (uint64_t i = 0; i < m->pool; i++) {
		total += pow((double)(i + 1), -m->zipf);
		cum[i] = total;
	}
	struct rng r;
	rng_seed(&r, seed);
	char name[128];
	for (uint64_t q = 0; q < count; q++) {
		double u = rng_uniform(&r);
		const char *type = "A"; /* a name outside the TLDs: A, as the probes ask */
		if (u < m->nxdomain_share) {
			flat_nxdomain_name(&r, name);
		} else {
			if (u < m->nxdomain_share + m->fresh_share) {
				flat_fresh_name(&r, m->tlds, name);
			} else {
				double x = rng_uniform(&r) * total;
				uint64_t lo = 0, hi = m->pool - 1;
				while (lo < hi) {
					uint64_t mid = lo + (hi - lo) / 2;
					if (cum[mid] <= x)
						lo = mid + 1;
					else
						hi = mid;
				}
				flat_pool_name(seed, m->tlds, lo + 1, name);
			}
			type = flat_type_names[rng_pick(&r, flat_type_weights, FLAT_TYPES)];
		}
		if (fprintf(out, "%s\t%s\n", name, type) < 0)
			break;
	}
	free(cum);
	if (ferror(out)) {
		snprintf(err, err_size, "write error");
		return false;
	}
	return true;
}
