/* tests/common/test_schedule.c - the schedule parser (good and bad input) and its clock math. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "schedule.h"

static void test_parse_example(void **state)
{
	struct schedule s;
	char err[256] = "";
	assert_true(schedule_parse("warmup:60s@300,8*(spike:20s@3000,recovery:40s@300)", &s, err,
	                           sizeof(err)));
	assert_int_equal(s.count, 17);
	assert_int_equal(s.phases[0].kind, SCHEDULE_WARMUP);
	assert_int_equal(s.phases[0].spike, 0);
	assert_int_equal(s.phases[1].kind, SCHEDULE_SPIKE);
	assert_int_equal(s.phases[1].spike, 1);
	assert_int_equal(s.phases[2].kind, SCHEDULE_RECOVERY);
	assert_int_equal(s.phases[2].spike, 1);
	assert_int_equal(s.phases[16].spike, 8);
	assert_true(fabs(s.duration_s - (60 + 8 * 60)) < 1e-9);
	assert_int_equal(schedule_total_queries(&s), 60 * 300 + 8 * (20 * 3000 + 40 * 300));
	assert_true(fabs(s.phases[3].start_s - 120) < 1e-9);
	schedule_free(&s);
}

static void test_parse_units_ramp_zero(void **state)
{
	struct schedule s;
	char err[256] = "";
	assert_true(schedule_parse(" baseline : 500ms @ 100 , calibrate:2m@10..1000,zero:1.5s,"
	                           "zero:1s@0, spike:1h@5",
	                           &s, err, sizeof(err)));
	assert_int_equal(s.count, 5);
	assert_true(fabs(s.phases[0].duration_s - 0.5) < 1e-12);
	assert_true(fabs(s.phases[1].duration_s - 120) < 1e-12);
	assert_true(s.phases[1].rate_from == 10 && s.phases[1].rate_to == 1000);
	assert_true(fabs(s.phases[2].duration_s - 1.5) < 1e-12);
	assert_true(s.phases[2].rate_from == 0 && s.phases[3].rate_to == 0);
	assert_true(fabs(s.phases[4].duration_s - 3600) < 1e-12);
	/* a ramp sends the mean of its two rates over its duration */
	assert_true(fabs(s.total - (50 + 120 * 505.0 + 3600 * 5)) < 1e-6);
	schedule_free(&s);
}

static void test_parse_nested(void **state)
{
	struct schedule s;
	assert_true(schedule_parse("2*(baseline:1s@1,3*(spike:1s@2,recovery:1s@1))", &s, NULL, 0));
	assert_int_equal(s.count, 14);
	assert_int_equal(s.phases[13].spike, 6);
	schedule_free(&s);
}

static void expect_error(const char *text, const char *fragment)
{
	struct schedule s;
	char err[256] = "";
	bool ok = schedule_parse(text, &s, err, sizeof(err));
	if (ok || !strstr(err, fragment))
		fail_msg("'%s': expected an error containing '%s', got %s '%s'", text, fragment,
		         ok ? "success" : "error", err);
}

static void test_parse_clients(void **state)
{
	struct schedule s;
	char err[256] = "";
	assert_true(schedule_parse("baseline:2s@100, 2*(spike:1s@300..400 / clients = 5000,"
	                           "recovery:1s@100)",
	                           &s, err, sizeof(err)));
	assert_int_equal(s.count, 5);
	assert_int_equal(s.phases[0].clients, 0); /* --clients */
	assert_int_equal(s.phases[1].clients, 5000);
	assert_true(s.phases[1].rate_to == 400);
	assert_int_equal(s.phases[2].clients, 0);
	assert_int_equal(s.phases[3].clients, 5000); /* repeated with the group */
	assert_int_equal(s.clients_max, 5000);
	char desc[128];
	schedule_describe(&s, desc, sizeof(desc));
	assert_non_null(strstr(desc, "up to 5000 clients"));
	schedule_free(&s);
	/* a schedule without the option is what it always was */
	assert_true(schedule_parse("spike:1s@100", &s, err, sizeof(err)));
	assert_int_equal(s.clients_max, 0);
	schedule_describe(&s, desc, sizeof(desc));
	assert_null(strstr(desc, "clients"));
	schedule_free(&s);
}

static void test_parse_errors(void **state)
{
	expect_error("", "expected a phase name");
	expect_error("spik:1s@100", "unknown phase 'spik'");
	expect_error("baseline:10@100", "needs a unit");
	expect_error("baseline:10q@100", "needs a unit");
	expect_error("baseline:10sec@100", "unknown duration unit");
	expect_error("baseline:0s@100", "more than 0");
	expect_error("baseline:1s", "expected '@RATE'");
	expect_error("baseline:1s@", "expected a rate");
	expect_error("baseline:1s@-5", "expected a rate");
	expect_error("baseline:1s@0", "write a zero phase");
	expect_error("zero:1s@5", "a zero phase has rate 0");
	expect_error("baseline 1s 100", "expected ':'");
	expect_error("baseline:1s@100;spike:1s@200", "expected ','");
	expect_error("baseline:1s@100,", "expected a phase name");
	expect_error("3*(baseline:1s@100", "expected ')'");
	expect_error("baseline:1s@100)", "without a matching");
	expect_error("0*(baseline:1s@100)", "repeat count");
	expect_error("2.5*(baseline:1s@100)", "repeat count");
	expect_error("baseline:1s@1e9", "expected ','");
	expect_error("baseline:1s@200000000", "beyond");
	expect_error("baseline:8d@1", "needs a unit");
	expect_error("100000*(100000*(baseline:1s@1))", "phases");
	expect_error("200*(baseline:1h@1)", "longer than a week");
	/* phase options: /clients=N */
	expect_error("spike:1s@100/clients", "expected '=N'");
	expect_error("spike:1s@100/clients=", "expected a number of clients");
	expect_error("spike:1s@100/clients=0", "whole number from 1");
	expect_error("spike:1s@100/clients=2.5", "whole number from 1");
	expect_error("spike:1s@100/clients=1000001", "whole number from 1");
	expect_error("spike:1s@100/clients=5/clients=6", "clients given twice");
	expect_error("spike:1s@100/conns=5", "unknown phase option 'conns'");
	expect_error("spike:1s@100/", "unknown phase option 'end of text'");
	expect_error("zero:1s/clients=5", "a zero phase has no clients");
	expect_error("spike:1s@100,clients=5", "unknown phase 'clients'");
	expect_error("baseline:1s@100,spike:1s@9/clients=x", "column 36");
	/* the column points at the mistake */
	expect_error("baseline:1s@100,spike:1x@5", "column 24");
	expect_error("@/nonexistent/schedule", "/nonexistent/schedule");
}

static void test_parse_file(void **state)
{
	char path[] = "/tmp/test_schedule.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char text[] = "# the default spike run\nwarmup:1s@10,\n2*(spike:1s@100,  # up\n"
	                    "  recovery:1s@10)\n";
	assert_int_equal(write(fd, text, sizeof(text) - 1), sizeof(text) - 1);
	close(fd);
	char arg[64], err[256] = "";
	snprintf(arg, sizeof(arg), "@%s", path);
	struct schedule s;
	assert_true(schedule_parse(arg, &s, err, sizeof(err)));
	assert_int_equal(s.count, 5);
	schedule_free(&s);

	fd = open(path, O_WRONLY | O_TRUNC);
	const char bad[] = "warmup:1s@10,\n  spike:1s@x\n";
	assert_int_equal(write(fd, bad, sizeof(bad) - 1), sizeof(bad) - 1);
	close(fd);
	assert_false(schedule_parse(arg, &s, err, sizeof(err)));
	char want[128];
	snprintf(want, sizeof(want), "%s:2:12: expected a rate", path);
	if (!strstr(err, want))
		fail_msg("got '%s', want '%s'", err, want);
	unlink(path);
}

/* Every whole second at a constant integer rate holds exactly that many queries. */
static void test_due_exact_per_second(void **state)
{
	struct schedule s;
	assert_true(schedule_parse("baseline:3s@200,spike:2s@1000,recovery:1s@7", &s, NULL, 0));
	unsigned long long want[] = {200, 200, 200, 1000, 1000, 7};
	for (int sec = 0; sec < 6; sec++) {
		unsigned long long n = schedule_due(&s, sec + 1) - schedule_due(&s, sec);
		assert_int_equal(n, want[sec]);
	}
	assert_int_equal(schedule_due(&s, 100), schedule_total_queries(&s));
	assert_int_equal(schedule_due(&s, 0), 0);
	assert_int_equal(schedule_due(&s, -1), 0);
	schedule_free(&s);
}

/* time_of inverts due: query k is due at time_of(k) and not before. */
static void test_time_of_inverts_due(void **state)
{
	struct schedule s;
	assert_true(schedule_parse("baseline:1s@100,calibrate:2s@100..1000,zero:1s,spike:1s@"
	                           "1000..10,recovery:500ms@3",
	                           &s, NULL, 0));
	unsigned long long total = schedule_total_queries(&s);
	double prev = -1;
	for (unsigned long long k = 0; k < total; k++) {
		double t = schedule_time_of(&s, k);
		assert_true(t >= prev);
		prev = t;
		assert_true(schedule_due(&s, t + 1e-9) >= k + 1);
		assert_true(schedule_due(&s, t - 1e-6) <= k);
		/* nothing is sent in the zero phase from 3 s to 4 s */
		assert_false(t > 3.0 + 1e-9 && t < 4.0 - 1e-9);
	}
	assert_true(schedule_time_of(&s, total) > s.duration_s);
	assert_true(fabs(schedule_rate_at(&s, 0.5) - 100) < 1e-9);
	assert_true(fabs(schedule_rate_at(&s, 2.0) - 550) < 1e-9); /* mid-ramp */
	assert_true(schedule_rate_at(&s, 3.5) == 0);
	assert_true(schedule_rate_at(&s, 99) == 0);
	const struct schedule_phase *ph = schedule_phase_at(&s, 3.5);
	assert_int_equal(ph->kind, SCHEDULE_ZERO);
	assert_int_equal(schedule_phase_at(&s, 4.0)->spike, 1);
	assert_int_equal(schedule_phase_at(&s, 99)->kind, SCHEDULE_RECOVERY);
	schedule_free(&s);
}

static void test_constant(void **state)
{
	struct schedule s;
	assert_true(schedule_constant(&s, SCHEDULE_BASELINE, 10, 1234));
	assert_int_equal(schedule_total_queries(&s), 12340);
	assert_string_equal(schedule_kind_name(s.phases[0].kind), "baseline");
	schedule_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_example),
	    cmocka_unit_test(test_parse_units_ramp_zero),
	    cmocka_unit_test(test_parse_nested),
	    cmocka_unit_test(test_parse_clients),
	    cmocka_unit_test(test_parse_errors),
	    cmocka_unit_test(test_parse_file),
	    cmocka_unit_test(test_due_exact_per_second),
	    cmocka_unit_test(test_time_of_inverts_due),
	    cmocka_unit_test(test_constant),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
