/* tests/querydata/test_querydata.c - querydata modules: Zipf fit, name shapes, fresh names,
 * generator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extend.h"
#include "generate.h"
#include "hashcount.h"
#include "nameshape.h"
#include "queryfile.h"
#include "rng.h"
#include "stats.h"

static void test_zipf_fit(void **state)
{
	/* exact power laws give back their exponent */
	static uint32_t counts[1000];
	for (size_t i = 0; i < 1000; i++)
		counts[i] = (uint32_t)llround(1e7 * pow((double)(i + 1), -1.08));
	assert_true(fabs(stats_zipf_exponent(counts, 1000, 1000) - 1.08) < 0.001);
	for (size_t i = 0; i < 1000; i++)
		counts[i] = (uint32_t)llround(1e6 * pow((double)(i + 1), -0.7));
	assert_true(fabs(stats_zipf_exponent(counts, 1000, 1000) - 0.7) < 0.001);
	/* only the first max_rank ranks count */
	counts[900] = 1000000;
	assert_true(fabs(stats_zipf_exponent(counts, 1000, 500) - 0.7) < 0.001);
	assert_true(stats_zipf_exponent(counts, 1, 1000) == 0);
}

static void test_nameshape(void **state)
{
#define S(x) x, strlen(x)
	assert_int_equal(nameshape_length(S(".")), 0);
	assert_int_equal(nameshape_length(S("www.example.com.")), 15);
	assert_int_equal(nameshape_length(S("www.example.com")), 15);
	assert_int_equal(nameshape_labels(S(".")), 0);
	assert_int_equal(nameshape_labels(S("wpad.")), 1);
	assert_int_equal(nameshape_labels(S("a\\.b.example.")), 2);
	assert_true(nameshape_is_reverse(S("4.3.2.1.in-addr.arpa.")));
	assert_true(nameshape_is_reverse(S("1.0.IP6.ARPA")));
	assert_false(nameshape_is_reverse(S("notin-addr.arpa.")));
	assert_false(nameshape_is_malformed(S("www.example.com.")));
	assert_false(nameshape_is_malformed(S("_ldap._tcp.example.com.")));
	assert_false(nameshape_is_malformed(S("4.3.2.1.in-addr.arpa.")));
	assert_true(nameshape_is_malformed(S("aoqrf2:by.v75i0e0a.")));
	assert_true(nameshape_is_malformed(S("\\(none\\).")));
	assert_true(nameshape_is_malformed(S("the-stranger-.blogspot.com.")));
	assert_true(nameshape_is_malformed(S("127.0.0.1.")));
	assert_true(nameshape_has_underscore_label(S("_ldap._tcp.example.com.")));
	assert_false(nameshape_has_underscore_label(S("dtx_widget.example.com.")));
#undef S
}

static void test_hashcount(void **state)
{
	struct hashcount h;
	assert_true(hashcount_init(&h, 4));
	char name[32];
	for (int round = 1; round <= 3; round++)
		for (int i = 0; i < 5000; i++) {
			snprintf(name, sizeof(name), "n%d.example.", i);
			assert_int_equal(hashcount_add(&h, hashcount_name_key(name, strlen(name))),
			                 round);
		}
	assert_int_equal(h.used, 5000);
	/* case and the trailing dot do not make another name */
	assert_int_equal(hashcount_get(&h, hashcount_name_key("N7.Example", 10)), 3);
	assert_int_equal(hashcount_get(&h, hashcount_name_key("n7.example.org", 14)), 0);
	hashcount_free(&h);
}

/* A fresh name keeps the form: labels, lengths, character classes, TLD, arpa suffix, _labels. */
static void test_extend_fresh_name(void **state)
{
	uint64_t st = 42;
	char out[600];
	const char *names[] = {"mail.mobilni-telefony.biz.",
	                       "200.246.201.31.in-addr.arpa.",
	                       "r._dns-sd._udp.x\\001h.",
	                       "aoqrf2:by.v75i0e0a.",
	                       "www.eucarvet.eu.",
	                       "Single.",
	                       "_156_03_7.",
	                       "www.youtube."};
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		const char *n = names[k];
		size_t len = extend_fresh_name(n, strlen(n), &st, out, sizeof(out));
		assert_int_equal(len, strlen(out));
		assert_string_not_equal(out, n);
		assert_int_equal(nameshape_labels(out, len), nameshape_labels(n, strlen(n)));
		assert_int_equal(nameshape_is_reverse(out, len),
		                 nameshape_is_reverse(n, strlen(n)));
		assert_int_equal(nameshape_is_malformed(out, len),
		                 nameshape_is_malformed(n, strlen(n)));
		uint8_t wire[256];
		const char *reason;
		assert_true(queryfile_name_to_wire(out, len, wire, &reason) > 0);
		if (!nameshape_is_reverse(n, strlen(n)))
			assert_int_equal(len, strlen(n));
	}
	size_t len = extend_fresh_name(names[0], strlen(names[0]), &st, out, sizeof(out));
	assert_int_equal(out[4], '.');
	assert_int_equal(out[12], '-');
	assert_string_equal(out + len - 5, ".biz.");
	len = extend_fresh_name(names[2], strlen(names[2]), &st, out, sizeof(out));
	assert_memory_equal(out + 1, "._dns-sd._udp.", 14);
	assert_non_null(strstr(out, "\\001"));
	len = extend_fresh_name(names[4], strlen(names[4]), &st, out, sizeof(out));
	assert_memory_equal(out, "www.", 4);
	len = extend_fresh_name(names[1], strlen(names[1]), &st, out, sizeof(out));
	assert_string_equal(out + len - 14, ".in-addr.arpa.");
	unsigned a, b, c, d;
	assert_int_equal(sscanf(out, "%u.%u.%u.%u.", &a, &b, &c, &d), 4);
	assert_true(a < 256 && b < 256 && c < 256 && d < 256);
}

/* The generator: deterministic per seed, every line parses, the count is exact. */
static void test_generate_small(void **state)
{
	char *buf1 = NULL, *buf2 = NULL, *buf3 = NULL;
	size_t len1 = 0, len2 = 0, len3 = 0;
	char err[256];
	FILE *f1 = open_memstream(&buf1, &len1), *f2 = open_memstream(&buf2, &len2),
	     *f3 = open_memstream(&buf3, &len3);
	assert_true(generate_write(5, 3000, f1, err, sizeof(err)));
	assert_true(generate_write(5, 3000, f2, err, sizeof(err)));
	assert_true(generate_write(6, 3000, f3, err, sizeof(err)));
	fclose(f1);
	fclose(f2);
	fclose(f3);
	assert_int_equal(len1, len2);
	assert_memory_equal(buf1, buf2, len1);
	assert_true(len1 != len3 || memcmp(buf1, buf3, len1) != 0);
	size_t lines = 0;
	for (char *line = strtok(buf1, "\n"); line; line = strtok(NULL, "\n")) {
		char *tab = strchr(line, '\t');
		assert_non_null(tab);
		uint16_t t;
		assert_true(queryfile_type_parse(tab + 1, strlen(tab + 1), &t));
		uint8_t wire[256];
		const char *reason;
		assert_true(queryfile_name_to_wire(line, (size_t)(tab - line), wire, &reason) > 0);
		lines++;
	}
	assert_int_equal(lines, 3000);
	free(buf1);
	free(buf2);
	free(buf3);
	/* zero queries is an empty file, not an error */
	char *buf4 = NULL;
	size_t len4 = 0;
	FILE *f4 = open_memstream(&buf4, &len4);
	assert_true(generate_write(1, 0, f4, err, sizeof(err)));
	fclose(f4);
	assert_int_equal(len4, 0);
	free(buf4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_zipf_fit),       cmocka_unit_test(test_nameshape),
	    cmocka_unit_test(test_hashcount),      cmocka_unit_test(test_extend_fresh_name),
	    cmocka_unit_test(test_generate_small),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
