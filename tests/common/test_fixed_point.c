/* tests/reports/test_fixed_point.c - significant digits as "%g" gives them, never in exponent
 * form: what summary.md and the page print for latencies, CPU seconds and context values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "fixed_point.h"

static const char *fp(double v, int significant)
{
	static char buf[64];
	return fixed_point(buf, sizeof(buf), v, significant);
}

static void test_no_exponent(void **state)
{
	(void)state;
	assert_string_equal(fp(1800, 3), "1800"); /* "%.3g": 1.8e+03 */
	assert_string_equal(fp(1795.162, 3), "1795");
	assert_string_equal(fp(123456.7, 4), "123457");
	assert_string_equal(fp(1e-5, 4), "0.00001"); /* "%.4g": 1e-05 */
	assert_string_equal(fp(-2.5e6, 3), "-2500000");
	assert_string_equal(fp(1e-20, 3), "0");
}

static void test_as_g_otherwise(void **state)
{
	(void)state;
	assert_string_equal(fp(0.168, 4), "0.168");
	assert_string_equal(fp(0.16800000000000001, 4), "0.168");
	assert_string_equal(fp(45.613, 3), "45.6");
	assert_string_equal(fp(1.491, 3), "1.49");
	assert_string_equal(fp(20, 3), "20");
	assert_string_equal(fp(9.996, 3), "10");
	assert_string_equal(fp(0.0012345, 3), "0.00123");
	assert_string_equal(fp(0, 3), "0");
	assert_string_equal(fp(-0.0, 3), "0");
	assert_string_equal(fp(-1.25, 2), "-1.2");
	assert_string_equal(fp(NAN, 3), "nan");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_no_exponent),
	    cmocka_unit_test(test_as_g_otherwise),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
