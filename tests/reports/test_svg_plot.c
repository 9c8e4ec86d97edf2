/* tests/reports/test_svg_plot.c - the scatter charts' tick labels (the advisor's and the scale
 * page's): plain numbers a reader can read, never printf's exponent form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svg_plot.h"

/* The chart's tick labels (every <text> but the two axis titles, which come last), joined by
 * spaces: "0 500000 1000000 ...". */
static char *tick_labels(double xlo, double xhi, double ylo, double yhi)
{
	struct svg_plot p;
	struct strbuf b = {0};
	svg_plot_fit(&p, xlo, xhi, ylo, yhi);
	svg_plot_begin(&b, &p, "t", "x title", "y title");
	char *svg = strbuf_take(&b);
	char *out = calloc(1, strlen(svg) + 1);
	assert_non_null(out);
	for (const char *t = svg; (t = strstr(t, "<text ")) != NULL;) {
		const char *start = strchr(t, '>') + 1, *end = strstr(start, "</text>");
		if (strncmp(start, "x title", 7) != 0 && strncmp(start, "y title", 7) != 0)
			sprintf(out + strlen(out), "%s%.*s", *out ? " " : "", (int)(end - start),
			        start);
		t = end;
	}
	free(svg);
	return out;
}

static void test_large_and_small_ticks(void **state)
{
	(void)state;
	char *labels = tick_labels(0, 2e6, 0, 5e-5);
	/* "%g" printed 1e+06 .. 2e+06 and 1e-05 .. 5e-05 */
	assert_string_equal(labels, "0 500000 1000000 1500000 2000000 "
	                            "0 0.00001 0.00002 0.00003 0.00004 0.00005");
	free(labels);
}

static void test_tick_a_hair_off_zero(void **state)
{
	(void)state;
	/* -0.3 + 3 x 0.1 sums to about 5.6e-17, which "%g" printed as such */
	char *labels = tick_labels(-0.3, 0.3, 0, 1);
	assert_null(strchr(labels, 'e'));
	assert_non_null(strstr(labels, "-0.1 0 0.1"));
	free(labels);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_large_and_small_ticks),
	    cmocka_unit_test(test_tick_a_hair_off_zero),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
