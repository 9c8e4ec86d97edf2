/* tests/upstream/test_wheel.c - the timer wheel fires every node once, in due order, never early.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "wheel.h"

struct item {
	struct wheel_node node;
	int fired;
	uint64_t fired_at;
};

static uint64_t test_now;
static uint64_t test_last_due;
static int test_out_of_order;

static void test_fire(struct wheel_node *n, void *ctx)
{
	struct item *it = (struct item *)n;
	it->fired++;
	it->fired_at = test_now;
	if (n->due_ms < test_last_due)
		test_out_of_order++;
	test_last_due = n->due_ms;
}

static void test_fires_in_order_not_early(void **state)
{
	struct wheel w;
	struct item items[1000] = {0};
	assert_true(wheel_init(&w, 1000, 5000));
	assert_int_equal(w.nslots, 1024);
	for (int i = 0; i < 1000; i++)
		wheel_add(&w, &items[i].node, 5000 + 1 + (uint64_t)((i * 7919) % 900));
	assert_int_equal(w.count, 1000);
	test_last_due = 0;
	test_out_of_order = 0;
	size_t fired = 0;
	for (test_now = 5001; test_now <= 6000; test_now += 3)
		fired += wheel_advance(&w, test_now, test_fire, NULL);
	assert_int_equal(fired, 1000);
	assert_int_equal(w.count, 0);
	assert_int_equal(test_out_of_order, 0);
	for (int i = 0; i < 1000; i++) {
		assert_int_equal(items[i].fired, 1);
		assert_true(items[i].fired_at >= items[i].node.due_ms);
		assert_true(items[i].fired_at < items[i].node.due_ms + 3);
	}
	wheel_free(&w);
}

static void test_clamps_to_horizon_and_long_gaps(void **state)
{
	struct wheel w;
	struct item far = {0}, past = {0};
	assert_true(wheel_init(&w, 64, 100));
	wheel_add(&w, &far.node, 100000); /* beyond the horizon: kept within it */
	wheel_add(&w, &past.node, 50);    /* already due: fires on the next advance */
	assert_true(far.node.due_ms < 100 + 64);
	assert_int_equal(past.node.due_ms, 101);
	test_now = 101;
	test_last_due = 0;
	assert_int_equal(wheel_advance(&w, 101, test_fire, NULL), 1);
	assert_int_equal(past.fired, 1);
	test_now = 1000000; /* a long stall: one turn of the wheel reaches everything */
	assert_int_equal(wheel_advance(&w, 1000000, test_fire, NULL), 1);
	assert_int_equal(far.fired, 1);
	wheel_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fires_in_order_not_early),
	    cmocka_unit_test(test_clamps_to_horizon_and_long_gaps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
