/* tests/common/test_identifier.c - the one character set of names used as identifiers: what
 * variants.tsv, run.json and timeline.csv may name, and what each refusal says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "identifier.h"

static void test_names_of_the_project_pass(void **state)
{
	(void)state;
	static const char *const ok[] = {"glibc",          "musl",      "kresd-jemalloc-decay0",
	                                 "_loadgen",       "_upstream", "libtcmalloc_minimal.so.4",
	                                 "named-glibc-1t", "a",         "A.b_c-9"};
	for (size_t i = 0; i < sizeof(ok) / sizeof(*ok); i++)
		assert_true(identifier_valid(ok[i], NULL, 0));
	char longest[IDENTIFIER_MAX_LEN + 1];
	memset(longest, 'x', IDENTIFIER_MAX_LEN);
	longest[IDENTIFIER_MAX_LEN] = 0;
	assert_true(identifier_valid(longest, NULL, 0));
}

static void test_every_other_byte_is_refused(void **state)
{
	(void)state;
	char why[128];
	for (int c = 1; c < 256; c++) {
		char name[4] = {'a', (char)c, 'b', 0};
		bool allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		               (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
		why[0] = 0;
		assert_int_equal(identifier_valid(name, why, sizeof(why)), allowed);
		if (allowed)
			continue;
		assert_non_null(strstr(why, "position 2"));
		/* the message never carries the byte itself unless it is printable */
		for (const char *p = why; *p; p++)
			assert_true((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f);
	}
}

static void test_shapes_refused(void **state)
{
	(void)state;
	char why[128];
	assert_false(identifier_valid("", why, sizeof(why)));
	assert_string_equal(why, "empty name");
	assert_false(identifier_valid(NULL, why, sizeof(why)));
	assert_false(identifier_valid("..", why, sizeof(why)));
	assert_false(identifier_valid(".hidden", why, sizeof(why)));
	assert_false(identifier_valid("-rf", why, sizeof(why)));
	assert_false(identifier_valid("../x", why, sizeof(why)));
	assert_false(identifier_valid("a/b", why, sizeof(why)));
	char too_long[IDENTIFIER_MAX_LEN + 2];
	memset(too_long, 'x', IDENTIFIER_MAX_LEN + 1);
	too_long[IDENTIFIER_MAX_LEN + 1] = 0;
	assert_false(identifier_valid(too_long, why, sizeof(why)));
	assert_non_null(strstr(why, "at most 64"));
}

/* A run folder's name made a run id (controller/run_words.c): every byte outside the set becomes
 * '_', the rest are kept, and the result passes. */
static void test_sanitize_keeps_the_set_and_replaces_the_rest(void **state)
{
	(void)state;
	char id[] = "run-my run:2026/12\x01\xc3\xa9.x_y-z";
	identifier_sanitize(id);
	assert_string_equal(id, "run-my_run_2026_12___.x_y-z");
	assert_true(identifier_valid(id, NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names_of_the_project_pass),
	    cmocka_unit_test(test_sanitize_keeps_the_set_and_replaces_the_rest),
	    cmocka_unit_test(test_every_other_byte_is_refused),
	    cmocka_unit_test(test_shapes_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
