/* tests/reports/test_colours.c - the layers of the "why" panels never take an allocator's colour:
 * every layer colour stands apart from every colour an allocator row can be drawn in (each
 * allocator's, the extras, the neutral grey, and their first two shades), and from each other. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "colours.h"

/* The least RGB distance that still tells two colours apart in a thin band or a legend swatch. */
#define APART 40.0

static double distance(const char *a, const char *b)
{
	unsigned x[3], y[3];
	assert_int_equal(sscanf(a, "#%02x%02x%02x", &x[0], &x[1], &x[2]), 3);
	assert_int_equal(sscanf(b, "#%02x%02x%02x", &y[0], &y[1], &y[2]), 3);
	double d = 0;
	for (int c = 0; c < 3; c++)
		d += ((double)x[c] - y[c]) * ((double)x[c] - y[c]);
	return sqrt(d);
}

/* Every layer colour: the five of a split panel, and the one of an unsplit allocator. */
static const char *layer_at(int i)
{
	return i < ATTR_PART_COUNT ? colours_layer((enum attr_part)i, true)
	                           : colours_layer(ATTR_OTHER, false);
}

static void test_layers_apart_from_allocators(void **state)
{
	(void)state;
	size_t n = 0;
	for (const char *c; (c = colours_palette_at(n)); n++)
		for (unsigned k = 0; k < 3; k++) {
			char shade[8];
			colours_shade(c, k, shade);
			for (int l = 0; l <= ATTR_PART_COUNT; l++)
				if (distance(layer_at(l), shade) < APART)
					fail_msg(
					    "layer %s is within %.0f of allocator colour %s (shade "
					    "%u of %s)",
					    layer_at(l), APART, shade, k, c);
		}
	assert_true(n >= 8); /* the allocators, the extras and the neutral grey were all seen */
}

static void test_layers_apart_from_each_other(void **state)
{
	(void)state;
	for (int a = 0; a <= ATTR_PART_COUNT; a++)
		for (int b = a + 1; b <= ATTR_PART_COUNT; b++)
			assert_true(distance(layer_at(a), layer_at(b)) >= APART);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_layers_apart_from_allocators),
	    cmocka_unit_test(test_layers_apart_from_each_other),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
