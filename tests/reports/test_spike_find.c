/* tests/reports/test_spike_find.c - a spike is found by its number, never by its position: the
 * lookup behind check's spikes.N and the spike grids. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "spike_find.h"

/* spikes 1 and 3 (no row carried spike 2) */
static json_t *gap_spikes(void)
{
	return json_pack("[{s:i, s:f}, {s:i, s:f}]", "spike", 1, "peak", 10.0, "spike", 3, "peak",
	                 30.0);
}

static void test_by_number(void **state)
{
	(void)state;
	json_t *spikes = gap_spikes();
	assert_ptr_equal(spike_find(spikes, 1), json_array_get(spikes, 0));
	assert_ptr_equal(spike_find(spikes, 3), json_array_get(spikes, 1));
	assert_null(spike_find(spikes, 2)); /* not the second element */
	assert_null(spike_find(NULL, 1));
	json_decref(spikes);
}

static void test_out_of_order(void **state)
{
	(void)state;
	/* a summary lists spikes in order and the lookup searches by halves; an array out of order
	 * (a summary.json edited by hand) still finds every spike */
	json_t *spikes = json_pack("[{s:i}, {s:i}, {s:i}, {s:i}]", "spike", 5, "spike", 2, "spike",
	                           9, "spike", 1);
	static const json_int_t numbers[] = {5, 2, 9, 1};
	for (size_t i = 0; i < 4; i++)
		assert_ptr_equal(spike_find(spikes, numbers[i]), json_array_get(spikes, i));
	assert_null(spike_find(spikes, 3));
	json_decref(spikes);
}

static void test_by_key(void **state)
{
	(void)state;
	json_t *spikes = gap_spikes();
	assert_ptr_equal(spike_find_key(spikes, "3"), json_array_get(spikes, 1));
	assert_ptr_equal(spike_find_key(spikes, "last"), json_array_get(spikes, 1));
	assert_ptr_equal(spike_find_key(spikes, "03"), json_array_get(spikes, 1));
	assert_null(spike_find_key(spikes, "2"));
	/* a COUNT of the command lines' grammar, nothing else (strtol took all of these) */
	assert_null(spike_find_key(spikes, "+3"));
	assert_null(spike_find_key(spikes, " 3"));
	assert_null(spike_find_key(spikes, "-1"));
	assert_null(spike_find_key(spikes, "3x"));
	assert_null(spike_find_key(spikes, ""));
	assert_null(spike_find_key(spikes, "99999999999999999999999"));
	json_t *empty = json_array();
	assert_null(spike_find_key(empty, "last"));
	json_decref(empty);
	json_decref(spikes);
}

static void test_numbers_of_every_variant(void **state)
{
	(void)state;
	json_t *summary =
	    json_pack("{s:{s:{s:o}, s:{s:[{s:i}, {s:i}]}, s:{}}}", "variants", "a", "spikes",
	              gap_spikes(), "b", "spikes", "spike", 4, "spike", 1, "c");
	json_int_t *numbers;
	size_t n = spike_find_numbers(summary, &numbers);
	assert_int_equal(n, 3);
	assert_int_equal(numbers[0], 1);
	assert_int_equal(numbers[1], 3);
	assert_int_equal(numbers[2], 4);
	free(numbers);
	json_t *none = json_pack("{s:{}}", "variants");
	assert_int_equal(spike_find_numbers(none, &numbers), 0);
	assert_null(numbers);
	json_decref(none);
	json_decref(summary);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_by_number),
	    cmocka_unit_test(test_out_of_order),
	    cmocka_unit_test(test_by_key),
	    cmocka_unit_test(test_numbers_of_every_variant),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
