/* tests/common/test_latency_hist.c - the latency histogram: buckets, quantiles, snapshots and
 * diffs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "latency_hist.h"

static struct latency_hist h, h2, d;

/* Within the bucket width (1/32 of the value) of what was put in. */
static void assert_near(double got, double want)
{
	if (fabs(got - want) > want / 32 + 1)
		fail_msg("got %.1f, want %.1f", got, want);
}

static void test_buckets_cover_values(void **state)
{
	uint64_t values[] = {0, 1, 31, 32, 33, 63, 64, 1000, 123456, 999999999, 1ULL << 39};
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		unsigned b = latency_hist_bucket(values[i]);
		uint64_t lo, hi;
		latency_hist_bucket_range(b, &lo, &hi);
		if (values[i] < lo || values[i] >= hi)
			fail_msg("%llu in bucket %u [%llu, %llu)", (unsigned long long)values[i], b,
			         (unsigned long long)lo, (unsigned long long)hi);
		assert_true(hi - lo <= lo / 32 + 1);
	}
	/* buckets are contiguous */
	for (unsigned b = 0; b + 1 < LATENCY_HIST_BUCKETS; b++) {
		uint64_t lo, hi, lo2, hi2;
		latency_hist_bucket_range(b, &lo, &hi);
		latency_hist_bucket_range(b + 1, &lo2, &hi2);
		assert_true(hi == lo2);
	}
	assert_int_equal(latency_hist_bucket(UINT64_MAX), LATENCY_HIST_BUCKETS - 1);
}

static void test_quantiles_uniform(void **state)
{
	latency_hist_init(&h);
	assert_true(latency_hist_quantile(&h, 0.5) < 0);
	/* 1..10000 microseconds */
	for (uint64_t us = 1; us <= 10000; us++)
		latency_hist_add(&h, us * 1000);
	assert_int_equal(h.count, 10000);
	assert_near(latency_hist_quantile(&h, 0.5), 5000e3);
	assert_near(latency_hist_quantile(&h, 0.9), 9000e3);
	assert_near(latency_hist_quantile(&h, 0.99), 9900e3);
	assert_near(latency_hist_quantile(&h, 1.0), 10000e3);
	assert_near(latency_hist_quantile(&h, 0.0), 1e3);
	assert_near(latency_hist_mean(&h), 5000.5e3);
	assert_true(h.min_ns == 1000 && h.max_ns == 10000000);
	/* standard deviation of 1..N is about N / sqrt(12) */
	assert_near(latency_hist_stddev(&h), 10000e3 / sqrt(12));
}

/* The stated precision (docs/run-folder.md): a quantile, its bucket's middle, is within 1/64 of
 * the value, from nanoseconds to minutes. */
static void test_quantile_precision(void **state)
{
	for (double v = 1; v < 1e12; v *= 1.0137) {
		latency_hist_init(&h);
		latency_hist_add(&h, (uint64_t)v);
		double got = latency_hist_quantile(&h, 0.5), want = (double)(uint64_t)v;
		if (fabs(got - want) > want / 64)
			fail_msg("value %.0f ns reported as %.1f", want, got);
	}
}

static void test_quantiles_skewed(void **state)
{
	latency_hist_init(&h);
	for (int i = 0; i < 980; i++)
		latency_hist_add(&h, 50000); /* 50 us */
	for (int i = 0; i < 20; i++)
		latency_hist_add(&h, 2000000000); /* 2 s timeouts-to-be */
	assert_near(latency_hist_quantile(&h, 0.5), 50000);
	assert_near(latency_hist_quantile(&h, 0.98), 50000);
	assert_near(latency_hist_quantile(&h, 0.99), 2e9);
}

static void test_snapshot_diff_merge(void **state)
{
	latency_hist_init(&h);
	for (int i = 0; i < 100; i++)
		latency_hist_add(&h, 1000);
	latency_hist_snapshot(&h, &h2);
	assert_int_equal(h2.count, 100);
	for (int i = 0; i < 50; i++)
		latency_hist_add(&h, 1000000);
	struct latency_hist *now = malloc(sizeof(*now));
	latency_hist_snapshot(&h, now);
	latency_hist_diff(now, &h2, &d);
	assert_int_equal(d.count, 50);
	assert_near(latency_hist_quantile(&d, 0.01), 1000000);
	latency_hist_merge(&d, &h2);
	assert_int_equal(d.count, 150);
	assert_near(latency_hist_quantile(&d, 0.5), 1000);
	free(now);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_buckets_cover_values), cmocka_unit_test(test_quantiles_uniform),
	    cmocka_unit_test(test_quantiles_skewed),     cmocka_unit_test(test_quantile_precision),
	    cmocka_unit_test(test_snapshot_diff_merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
