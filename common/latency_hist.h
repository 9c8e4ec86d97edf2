/* common/latency_hist.h - latency histogram with log-linear buckets (about 3% wide), reported as
 * quantiles. */
#ifndef ALLOCSPIKE_LATENCY_HIST_H
#define ALLOCSPIKE_LATENCY_HIST_H

#include <stdint.h>

/* Values are nanoseconds. Below 32 ns every value has its own bucket; above, each power of two is
 * split into 32 buckets, up to 2^40 ns (about 18 minutes); larger values land in the last one.
 * A bucket is at most 1/32 of its lower edge wide, so a quantile reported as its bucket's middle
 * is within 1/64 (1.6 %) of the true value (docs/run-folder.md, latency_hist.csv). */
#define LATENCY_HIST_SUB 32
#define LATENCY_HIST_MAX_POW 40
#define LATENCY_HIST_BUCKETS (LATENCY_HIST_SUB + (LATENCY_HIST_MAX_POW - 5) * LATENCY_HIST_SUB)

struct latency_hist {
	/* Written by one thread (latency_hist_add); another may copy them at any time with
	 * latency_hist_snapshot, since each count is read and written as one atomic word. */
	uint64_t buckets[LATENCY_HIST_BUCKETS];
	uint64_t count;
	/* Only for the owning thread (the closing summary). */
	uint64_t min_ns, max_ns;
	double sum_ns, sum_sq_ns;
};

void latency_hist_init(struct latency_hist *h);
void latency_hist_add(struct latency_hist *h, uint64_t ns);

/* Copies the bucket counts of h (which another thread may be adding to) into out. */
void latency_hist_snapshot(const struct latency_hist *h, struct latency_hist *out);

/* out = now - before, bucket by bucket: the values added between two snapshots. */
void latency_hist_diff(const struct latency_hist *now, const struct latency_hist *before,
                       struct latency_hist *out);

void latency_hist_merge(struct latency_hist *into, const struct latency_hist *from);

/* The q-quantile (0 <= q <= 1) in nanoseconds, the middle of its bucket; -1 when empty. */
double latency_hist_quantile(const struct latency_hist *h, double q);

/* Mean and standard deviation from the owner's sums; 0 when empty. */
double latency_hist_mean(const struct latency_hist *h);
double latency_hist_stddev(const struct latency_hist *h);

/* Bucket index of a value and the [low, high) range of a bucket (for tests and reports). */
unsigned latency_hist_bucket(uint64_t ns);
void latency_hist_bucket_range(unsigned index, uint64_t *low, uint64_t *high);

#endif
