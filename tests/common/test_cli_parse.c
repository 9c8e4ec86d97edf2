/* tests/common/test_cli_parse.c - the command lines' grammar: counts, numbers, sizes, durations,
 * table-driven over accepted and refused input, with the messages a user reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli_parse.h"

struct duration_case {
	const char *text;
	double bare_unit;
	bool ok;
	double seconds;   /* when ok */
	const char *said; /* part of the message when refused */
};

static void test_durations(void **state)
{
	static const struct duration_case cases[] = {
	    {"20s", CLI_UNIT_REQUIRED, true, 20, NULL},
	    {"1.5m", CLI_UNIT_REQUIRED, true, 90, NULL},
	    {"500ms", CLI_UNIT_REQUIRED, true, 0.5, NULL},
	    {"2h", CLI_UNIT_REQUIRED, true, 7200, NULL},
	    {".5s", CLI_UNIT_REQUIRED, true, 0.5, NULL},
	    {"5.s", CLI_UNIT_REQUIRED, true, 5, NULL},
	    {"20", CLI_UNIT_REQUIRED, false, 0, "'20' needs a unit: ms, s, m or h (e.g. 20s)"},
	    {"20", 1, true, 20, NULL},
	    {"250", 0.001, true, 0.25, NULL},
	    {"2s", 0.001, true, 2, NULL},
	    {"10x", CLI_UNIT_REQUIRED, false, 0, "'10x' is not a duration (e.g. 20s, 1.5m, 500ms)"},
	    {"5min", CLI_UNIT_REQUIRED, false, 0, "is not a duration"},
	    {"5sec", 1, false, 0, "is not a duration"},
	    {"-5s", CLI_UNIT_REQUIRED, false, 0, "is not a duration"},
	    {"1e3s", CLI_UNIT_REQUIRED, false, 0, "is not a duration"},
	    {"inf", 1, false, 0, "is not a duration"},
	    {"", 1, false, 0, "is not a duration"},
	    {"s", 1, false, 0, "is not a duration"},
	    {"20 s", CLI_UNIT_REQUIRED, false, 0, "is not a duration"},
	    {"0s", CLI_UNIT_REQUIRED, false, 0, "out of range (0.001s to 604800s)"},
	    {"8d", CLI_UNIT_REQUIRED, false, 0, "is not a duration"},
	    {"169h", CLI_UNIT_REQUIRED, false, 0, "out of range"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct duration_case *c = &cases[i];
		char err[256] = "";
		double s = -1;
		bool ok = cli_parse_duration("--spike-len", c->text, c->bare_unit, 0.001, 604800,
		                             &s, err, sizeof(err));
		if (ok != c->ok)
			fail_msg("'%s' (bare unit %g): expected %s, got %s (%s)", c->text,
			         c->bare_unit, c->ok ? "accepted" : "refused",
			         ok ? "accepted" : "refused", err);
		if (ok) {
			assert_true(fabs(s - c->seconds) < 1e-9);
		} else {
			if (!strstr(err, c->said) || strncmp(err, "--spike-len: ", 13) != 0)
				fail_msg("'%s': message \"%s\" lacks \"%s\"", c->text, err,
				         c->said);
			assert_true(s == -1); /* nothing written on failure */
		}
	}
}

static void test_sizes(void **state)
{
	static const struct {
		const char *text;
		bool ok;
		unsigned long long bytes;
	} cases[] = {
	    {"4096", true, 4096},
	    {"4M", true, 4 << 20},
	    {"4m", true, 4 << 20},
	    {"512k", true, 512 << 10},
	    {"512K", true, 512 << 10},
	    {"512KiB", true, 512 << 10},
	    {"512KB", true, 512 << 10},
	    {"1G", true, 1ULL << 30},
	    {"1GiB", true, 1ULL << 30},
	    {"4.5k", true, 4608},
	    {"64MiB", true, 64 << 20},
	    {"lots", false, 0},
	    {"4X", false, 0},
	    {"4Mi", false, 0},
	    {"-4M", false, 0},
	    {"4 M", false, 0},
	    {"", false, 0},
	    {"1k", false, 0}, /* < min */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[256] = "";
		unsigned long long b = 0;
		bool ok = cli_parse_size("--cache-size", cases[i].text, 4096, 1ULL << 40, &b, err,
		                         sizeof(err));
		if (ok != cases[i].ok)
			fail_msg("size '%s': expected %s (%s)", cases[i].text,
			         cases[i].ok ? "accepted" : "refused", err);
		if (ok)
			assert_int_equal(b, cases[i].bytes);
	}
	char err[256];
	unsigned long long b;
	assert_false(cli_parse_size("--cache-size", "lots", 0, 100, &b, err, sizeof(err)));
	assert_string_equal(err, "--cache-size: 'lots' is not a size (e.g. 4M, 512k, 1GiB)");
}

static void test_counts_and_numbers(void **state)
{
	char err[256];
	unsigned long long n;
	assert_true(cli_parse_count("--spikes", "8", 1, 1000, &n, err, sizeof(err)));
	assert_int_equal(n, 8);
	assert_false(cli_parse_count("--spikes", "8.5", 1, 1000, &n, err, sizeof(err)));
	assert_string_equal(err, "--spikes: '8.5' is not a whole number (e.g. 10)");
	assert_false(cli_parse_count("--spikes", "-1", 1, 1000, &n, err, sizeof(err)));
	assert_false(cli_parse_count("--spikes", "", 1, 1000, &n, err, sizeof(err)));
	assert_false(cli_parse_count("--spikes", "0", 1, 1000, &n, err, sizeof(err)));
	assert_string_equal(err, "--spikes: '0' is out of range (1 to 1000)");
	assert_false(
	    cli_parse_count("--seed", "99999999999999999999999", 0, ~0ULL, &n, err, sizeof(err)));
	assert_true(
	    cli_parse_count("--seed", "18446744073709551615", 0, ~0ULL, &n, err, sizeof(err)));
	assert_true(n == ~0ULL);

	double x;
	assert_true(cli_parse_number("--loss", "0.03", 0, 1, &x, err, sizeof(err)));
	assert_true(fabs(x - 0.03) < 1e-12);
	assert_true(cli_parse_number("--loss", ".5", 0, 1, &x, err, sizeof(err)));
	assert_false(cli_parse_number("--loss", "1.5", 0, 1, &x, err, sizeof(err)));
	assert_string_equal(err, "--loss: '1.5' is out of range (0 to 1)");
	/* the limits as a reader writes them, never "1e+07" */
	assert_false(cli_parse_number("--rate", "20000000", 0.5, 1e7, &x, err, sizeof(err)));
	assert_string_equal(err, "--rate: '20000000' is out of range (0.5 to 10000000)");
	static const char *const not_numbers[] = {"nan", "inf", "0x10", "1e2", "-0.1", "1,5", "."};
	for (size_t i = 0; i < sizeof(not_numbers) / sizeof(not_numbers[0]); i++) {
		if (cli_parse_number("--loss", not_numbers[i], -1, 1e9, &x, err, sizeof(err)))
			fail_msg("'%s' taken as a number", not_numbers[i]);
		assert_non_null(strstr(err, "is not a number"));
	}
}

/* The schedule's ramp "100..200" must not read "100." as the number. */
static void test_scanners(void **state)
{
	double v, unit;
	assert_int_equal(cli_scan_number("100..200", &v), 3);
	assert_true(v == 100);
	assert_int_equal(cli_scan_number("1.5m", &v), 3);
	assert_int_equal(cli_scan_number(".x", &v), 0);
	assert_int_equal(cli_scan_duration_unit("ms@5", &unit), 2);
	assert_true(unit == 0.001);
	assert_int_equal(cli_scan_duration_unit("m@5", &unit), 1);
	assert_true(unit == 60);
	assert_int_equal(cli_scan_duration_unit("min", &unit), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_durations),
	    cmocka_unit_test(test_sizes),
	    cmocka_unit_test(test_counts_and_numbers),
	    cmocka_unit_test(test_scanners),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
