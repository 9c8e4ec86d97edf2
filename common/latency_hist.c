/* common/latency_hist.c - latency histogram with log-linear buckets (about 3% wide), reported as
 * quantiles. */
#include "latency_hist.h"

#include <math.h>
#include <string.h>

void latency_hist_init(struct latency_hist *h)
{
	memset(h, 0, sizeof(*h));
}

unsigned latency_hist_bucket(uint64_t ns)
{
	if (ns < LATENCY_HIST_SUB)
		return (unsigned)ns;
	unsigned e = 63 - (unsigned)__builtin_clzll(ns); /* ns >= 32, so e >= 5 */
	if (e >= LATENCY_HIST_MAX_POW)
		return LATENCY_HIST_BUCKETS - 1;
	unsigned sub = (unsigned)(ns >> (e - 5)) & (LATENCY_HIST_SUB - 1);
	return LATENCY_HIST_SUB + (e - 5) * LATENCY_HIST_SUB + sub;
}

void latency_hist_bucket_range(unsigned index, uint64_t *low, uint64_t *high)
{
	if (index < LATENCY_HIST_SUB) {
		*low = index;
		*high = index + 1;
		return;
	}
	unsigned e = (index - LATENCY_HIST_SUB) / LATENCY_HIST_SUB + 5;
	unsigned sub = (index - LATENCY_HIST_SUB) % LATENCY_HIST_SUB;
	*low = ((uint64_t)(LATENCY_HIST_SUB + sub)) << (e - 5);
	*high = *low + (1ULL << (e - 5));
}

/* Single writer: a relaxed load and store (plain moves) instead of a locked add, so a reader in
 * another thread sees whole values without the cost of an atomic read-modify-write per answer. */
static inline void counter_bump(uint64_t *c)
{
	__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
}

void latency_hist_add(struct latency_hist *h, uint64_t ns)
{
	counter_bump(&h->buckets[latency_hist_bucket(ns)]);
	counter_bump(&h->count);
	if (h->count == 1 || ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
	h->sum_ns += (double)ns;
	h->sum_sq_ns += (double)ns * (double)ns;
}

void latency_hist_snapshot(const struct latency_hist *h, struct latency_hist *out)
{
	latency_hist_init(out);
	for (unsigned i = 0; i < LATENCY_HIST_BUCKETS; i++) {
		out->buckets[i] = __atomic_load_n(&h->buckets[i], __ATOMIC_RELAXED);
		out->count += out->buckets[i];
	}
}

void latency_hist_diff(const struct latency_hist *now, const struct latency_hist *before,
                       struct latency_hist *out)
{
	latency_hist_init(out);
	for (unsigned i = 0; i < LATENCY_HIST_BUCKETS; i++) {
		uint64_t d = now->buckets[i] >= before->buckets[i]
		                 ? now->buckets[i] - before->buckets[i]
		                 : 0;
		out->buckets[i] = d;
		out->count += d;
	}
}

void latency_hist_merge(struct latency_hist *into, const struct latency_hist *from)
{
	if (from->count == 0)
		return;
	for (unsigned i = 0; i < LATENCY_HIST_BUCKETS; i++)
		into->buckets[i] += from->buckets[i];
	if (into->count == 0 || from->min_ns < into->min_ns)
		into->min_ns = from->min_ns;
	if (from->max_ns > into->max_ns)
		into->max_ns = from->max_ns;
	into->count += from->count;
	into->sum_ns += from->sum_ns;
	into->sum_sq_ns += from->sum_sq_ns;
}

double latency_hist_quantile(const struct latency_hist *h, double q)
{
	if (h->count == 0)
		return -1;
	if (q < 0)
		q = 0;
	if (q > 1)
		q = 1;
	/* the smallest value with at least ceil(q * count) values at or below it (rank >= 1) */
	uint64_t rank = (uint64_t)ceil(q * (double)h->count);
	if (rank == 0)
		rank = 1;
	uint64_t seen = 0;
	for (unsigned i = 0; i < LATENCY_HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank) {
			uint64_t lo, hi;
			latency_hist_bucket_range(i, &lo, &hi);
			return hi - lo == 1 ? (double)lo : ((double)lo + (double)hi) / 2;
		}
	}
	return -1;
}

double latency_hist_mean(const struct latency_hist *h)
{
	return h->count ? h->sum_ns / (double)h->count : 0;
}

double latency_hist_stddev(const struct latency_hist *h)
{
	if (h->count < 2)
		return 0;
	double n = (double)h->count, mean = h->sum_ns / n;
	double var = (h->sum_sq_ns - n * mean * mean) / (n - 1);
	return var > 0 ? sqrt(var) : 0;
}
