/* tests/upstream/test_netem.c - loss and delay: pure in (seed, server, question, attempt), with the
 * configured distribution, and attempts counted per source. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>

#include "netem.h"

static struct netem_config test_config(void)
{
	struct netem_config c = {
	    .seed = 7, .latency = true, .loss = true, .slow_factor = 4, .window_s = 10};
	for (int t = 0; t < TIER_COUNT; t++)
		c.tier[t] = (struct netem_tier){.median_ms = 20, .p99_ms = 200, .loss = 0.05};
	return c;
}

static int test_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void test_distribution_within_tolerance(void **state)
{
	struct netem_config c = test_config();
	struct server s = {.index = 50, .tier = TIER_SLD};
	enum { N = 5000 };
	static uint32_t delays[N];
	int n = 0, drops = 0;
	char name[64];
	for (int i = 0; i < N; i++) {
		struct netem_verdict v;
		snprintf(name, sizeof(name), "host%d.example.com.", i);
		netem_treatment(&c, &s, name, 1, 1, &v);
		if (v.drop)
			drops++;
		else
			delays[n++] = v.delay_ms;
	}
	qsort(delays, (size_t)n, sizeof(delays[0]), test_cmp_u32);
	double median = delays[n / 2], p99 = delays[(int)(n * 0.99)];
	double loss = (double)drops / N;
	printf("median %.1f ms (20), p99 %.1f ms (200), loss %.4f (0.05)\n", median, p99, loss);
	assert_true(median >= 18 && median <= 22);
	assert_true(p99 >= 150 && p99 <= 260);
	assert_true(loss >= 0.04 && loss <= 0.06);
}

static void test_pure_and_attempt_dependent(void **state)
{
	struct netem_config c = test_config();
	struct server s = {.index = 3, .tier = TIER_TLD};
	struct netem_verdict a, b;
	int differ = 0;
	for (uint32_t attempt = 1; attempt <= 50; attempt++) {
		netem_treatment(&c, &s, "www.example.com.", 1, attempt, &a);
		netem_treatment(&c, &s, "www.example.com.", 1, attempt, &b);
		assert_int_equal(a.drop, b.drop);
		assert_int_equal(a.delay_ms, b.delay_ms);
		netem_treatment(&c, &s, "www.example.com.", 1, attempt + 1, &b);
		differ += a.delay_ms != b.delay_ms || a.drop != b.drop;
	}
	assert_true(differ > 40); /* a retry is a new draw */
	struct server dead = {.index = 4, .tier = TIER_SLD, .dead = true};
	netem_treatment(&c, &dead, "www.example.com.", 1, 1, &a);
	assert_true(a.drop);
	c.loss = false;
	netem_treatment(&c, &dead, "www.example.com.", 1, 1, &a);
	assert_false(a.drop);
	struct server slow = {.index = 4, .tier = TIER_SLD, .slow = true};
	struct server fast = {.index = 4, .tier = TIER_SLD};
	netem_treatment(&c, &slow, "x.example.com.", 1, 1, &a);
	netem_treatment(&c, &fast, "x.example.com.", 1, 1, &b);
	assert_true(a.delay_ms >= 4 * b.delay_ms - 2 && a.delay_ms <= 4 * b.delay_ms + 2);
}

static void test_attempts_per_source(void **state)
{
	struct netem_config c = test_config();
	struct netem *n = netem_new(&c);
	struct server s = {.index = 9, .tier = TIER_SLD};
	struct netem_verdict v1[20], v2[20];
	char name[64];
	/* two sources send the same sequence (with repeats), interleaved: identical treatment */
	for (int i = 0; i < 20; i++) {
		snprintf(name, sizeof(name), "q%d.example.com.", i % 7);
		netem_decide(n, 0x7f000101, &s, name, 1, 1.0 + i * 0.01, &v1[i]);
		netem_decide(n, 0x7f000102, &s, name, 1, 1.5 + i * 0.02, &v2[i]);
	}
	for (int i = 0; i < 20; i++) {
		assert_int_equal(v1[i].attempt, v2[i].attempt);
		assert_int_equal(v1[i].attempt, (uint32_t)(i / 7 + 1));
		assert_int_equal(v1[i].drop, v2[i].drop);
		assert_int_equal(v1[i].delay_ms, v2[i].delay_ms);
	}
	/* after the window without repeats, the count starts again */
	netem_decide(n, 0x7f000101, &s, "q0.example.com.", 1, 30.0, &v1[0]);
	assert_int_equal(v1[0].attempt, 1);
	/* many questions: the table grows and keeps counting */
	for (int i = 0; i < 20000; i++) {
		snprintf(name, sizeof(name), "n%d.example.com.", i);
		netem_decide(n, 0x7f000101, &s, name, 1, 31.0, &v1[0]);
	}
	netem_decide(n, 0x7f000101, &s, "n5.example.com.", 1, 31.5, &v1[0]);
	assert_int_equal(v1[0].attempt, 2);
	netem_free(n);
}

static void test_parse_tier(void **state)
{
	struct netem_config c = test_config();
	char err[256];
	assert_true(netem_parse_tier(&c, "root:5:50:0.01", err, sizeof(err)));
	assert_true(c.tier[TIER_ROOT].median_ms == 5 && c.tier[TIER_ROOT].loss == 0.01);
	assert_false(netem_parse_tier(&c, "leaf:5:50:0.01", err, sizeof(err)));
	assert_false(netem_parse_tier(&c, "sld:50:5:0.01", err, sizeof(err)));
	assert_false(netem_parse_tier(&c, "sld:5:50", err, sizeof(err)));
	assert_string_equal(err, "--tier 'sld:5:50': expected NAME:MEDIAN_MS:P99_MS:LOSS (e.g. "
	                         "root:8:80:0.01)");
	assert_false(netem_parse_tier(&c, "sld:5:50:0.01:7", err, sizeof(err)));
	/* the fields by the command lines' one grammar (docs/cli.md): no exponent, NaN or sign */
	assert_false(netem_parse_tier(&c, "root:1e1:50:0.01", err, sizeof(err)));
	assert_string_equal(err, "--tier 'root:1e1:50:0.01': MEDIAN_MS: '1e1' is not a duration "
	                         "(e.g. 20s, 1.5m, 500ms)");
	assert_false(netem_parse_tier(&c, "root:nan:50:0.01", err, sizeof(err)));
	assert_false(netem_parse_tier(&c, "root:5:50:nan", err, sizeof(err)));
	assert_string_equal(err,
	                    "--tier 'root:5:50:nan': LOSS: 'nan' is not a number (e.g. 0.5, 20)");
	assert_false(netem_parse_tier(&c, "root:5:+50:0.01", err, sizeof(err)));
	assert_false(netem_parse_tier(&c, "root:5:50:1.5", err, sizeof(err)));
	assert_string_equal(err, "--tier 'root:5:50:1.5': LOSS: '1.5' is out of range (0 to 1)");
	assert_false(netem_parse_tier(&c, "root:5:61s:0.01", err, sizeof(err)));
	assert_false(netem_parse_tier(&c, "root: 5:50:0.01", err, sizeof(err)));
	assert_false(netem_parse_tier(&c, "sld:50:5:0.01", err, sizeof(err)));
	assert_string_equal(err, "--tier 'sld:50:5:0.01': P99_MS is below MEDIAN_MS");
	/* milliseconds as in --latency-ms, a unit allowed */
	assert_true(netem_parse_tier(&c, "tld:0.5s:2s:0", err, sizeof(err)));
	assert_true(c.tier[TIER_TLD].median_ms == 500 && c.tier[TIER_TLD].p99_ms == 2000 &&
	            c.tier[TIER_TLD].loss == 0);
	assert_true(netem_parse_tier(&c, "sld:.5:8:1", err, sizeof(err)));
	assert_true(c.tier[TIER_SLD].median_ms == 0.5 && c.tier[TIER_SLD].loss == 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_distribution_within_tolerance),
	    cmocka_unit_test(test_pure_and_attempt_dependent),
	    cmocka_unit_test(test_attempts_per_source),
	    cmocka_unit_test(test_parse_tier),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
