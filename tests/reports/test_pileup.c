/* tests/reports/test_pileup.c - held memory of repeats moved along its line to one pile-up: repeats
 * whose held memory differs only because more or fewer requests piled up agree once moved, and
 * what the line does not explain stays. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "pileup.h"
#include "spread.h"

enum { RUNS = 3, SPIKES = 2 };

/* held (kB) = 2048 + 10 kB per request in flight, the pile-ups differing by run */
static const double inflight[RUNS * SPIKES] = {1000, 1500, 1400, 2100, 700, 1000};

static void test_on_the_line_agree(void **state)
{
	(void)state;
	double held[RUNS * SPIKES];
	for (size_t i = 0; i < RUNS * SPIKES; i++)
		held[i] = 2048 + 10 * inflight[i];
	struct pileup p;
	pileup_build(&p, inflight, held, RUNS, SPIKES);
	assert_float_equal(p.fit.slope, 10, 1e-9);
	assert_float_equal(p.fit.intercept, 2048, 1e-6);
	assert_int_equal(p.fit.points, RUNS * SPIKES);
	assert_float_equal(p.median_x[0], 1000, 0);
	assert_float_equal(p.median_x[1], 1500, 0);
	for (size_t r = 0; r < RUNS; r++) {
		assert_float_equal(p.at_median[r * SPIKES + 0], 2048 + 10 * 1000, 1e-6);
		assert_float_equal(p.at_median[r * SPIKES + 1], 2048 + 10 * 1500, 1e-6);
	}
	/* the raw values spread by half, the moved ones not at all */
	double raw[RUNS] = {held[0], held[2], held[4]}, moved[RUNS];
	for (size_t r = 0; r < RUNS; r++)
		moved[r] = p.at_median[r * SPIKES];
	struct spread s_raw = spread_of(raw, RUNS), s_moved = spread_of(moved, RUNS);
	assert_false(spread_agrees(&s_raw, 0));
	assert_true(spread_agrees(&s_moved, 0));
	pileup_free(&p);
}

static void test_off_the_line_stays(void **state)
{
	(void)state;
	/* run 3 holds 4 MB more than the line at both spikes: moved, it still differs by 4 MB */
	double held[RUNS * SPIKES];
	for (size_t i = 0; i < RUNS * SPIKES; i++)
		held[i] = 2048 + 10 * inflight[i] + (i >= 4 ? 4096 : 0);
	struct pileup p;
	pileup_build(&p, inflight, held, RUNS, SPIKES);
	double moved[RUNS];
	for (size_t r = 0; r < RUNS; r++)
		moved[r] = p.at_median[r * SPIKES];
	struct spread s = spread_of(moved, RUNS);
	assert_true(s.max - s.min > 3000);
	assert_false(spread_agrees(&s, 1024));
	pileup_free(&p);
}

static void test_missing_and_no_line(void **state)
{
	(void)state;
	/* a run without the figure is left out of the line and stays missing */
	double held[RUNS * SPIKES], x[RUNS * SPIKES];
	for (size_t i = 0; i < RUNS * SPIKES; i++) {
		x[i] = inflight[i];
		held[i] = 2048 + 10 * inflight[i];
	}
	x[3] = NAN;
	struct pileup p;
	pileup_build(&p, x, held, RUNS, SPIKES);
	assert_int_equal(p.fit.points, RUNS * SPIKES - 1);
	assert_true(isnan(p.at_median[3]));
	assert_float_equal(p.at_median[5], 2048 + 10 * p.median_x[1], 1e-6);
	pileup_free(&p);
	/* one pile-up everywhere (a request list full at every peak): no line, nothing to move */
	double same[RUNS * SPIKES] = {1000, 1000, 1000, 1000, 1000, 1000};
	pileup_build(&p, same, held, RUNS, SPIKES);
	assert_true(isnan(p.fit.slope));
	for (size_t i = 0; i < RUNS * SPIKES; i++)
		assert_float_equal(p.at_median[i], held[i], 0);
	pileup_free(&p);
	/* two pile-ups at one spike only: the line needs two at some spike; without it a value
	 * off its spike's median cannot be moved */
	double two[RUNS * SPIKES] = {1000, 1000, 1000, 1000, 1000, 1000};
	two[2] = 1200;
	held[2] = NAN; /* the only other pile-up has no held value: no line */
	pileup_build(&p, two, held, RUNS, SPIKES);
	assert_true(isnan(p.fit.slope));
	assert_true(isnan(p.at_median[2]));
	assert_float_equal(p.at_median[0], held[0], 0);
	pileup_free(&p);
}

static void test_floor(void **state)
{
	(void)state;
	/* 0.3 and 0.9 MB: 100 % apart, but within a 1 MB floor */
	double small[2] = {300, 900};
	struct spread s = spread_of(small, 2);
	assert_false(spread_agrees(&s, 0));
	assert_true(spread_agrees(&s, 1024));
	/* all zero: the same, though no share can be taken */
	double zeros[3] = {0, 0, 0};
	s = spread_of(zeros, 3);
	assert_true(spread_agrees(&s, 0));
	/* one value: nothing to judge */
	s = spread_of(small, 1);
	assert_false(spread_agrees(&s, 1024));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_on_the_line_agree),
	    cmocka_unit_test(test_off_the_line_stays),
	    cmocka_unit_test(test_missing_and_no_line),
	    cmocka_unit_test(test_floor),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
