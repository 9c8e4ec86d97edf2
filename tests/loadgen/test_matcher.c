/* tests/loadgen/test_matcher.c - the answer matcher: port/ID slots, rcodes, timeouts, slot reuse.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "matcher.h"

static struct counters c, c_unused;

static void test_slots_and_answers(void **state)
{
	struct matcher m;
	memset(&c, 0, sizeof(c));
	assert_true(matcher_init(&m, 4, 1000, &c));
	unsigned port;
	uint16_t id;
	matcher_slot(&m, 0, &port, &id);
	assert_true(port == 0 && id == 0);
	matcher_slot(&m, 5, &port, &id); /* runs of 64 queries per port */
	assert_true(port == 0 && id == 5);
	matcher_slot(&m, 64 + 5, &port, &id);
	assert_true(port == 1 && id == 5);
	matcher_slot(&m, 4 * 64 + 5, &port, &id);
	assert_true(port == 0 && id == 64 + 5);
	matcher_slot(&m, 4 * 65536 + 64 + 5, &port, &id); /* wraps round */
	assert_true(port == 1 && id == 5);
	/* every (port, id) is the slot of exactly one k in a round, whatever the number of ports */
	static unsigned char seen[7][65536];
	unsigned counts[] = {1, 4, 7};
	for (size_t n = 0; n < 3; n++) {
		struct matcher mp;
		assert_true(matcher_init(&mp, counts[n], 1000, &c_unused));
		memset(seen, 0, sizeof(seen));
		for (uint64_t k = 0; k < mp.slots; k++) {
			matcher_slot(&mp, k, &port, &id);
			assert_true(port < counts[n]);
			assert_int_equal(seen[port][id]++, 0);
			assert_int_equal(matcher_slot_of(&mp, port, id), k);
		}
		matcher_free(&mp);
	}
	for (uint64_t k = 0; k < 8; k++)
		matcher_sent(&m, k, 100);
	assert_int_equal(m.outstanding, 8);
	matcher_slot(&m, 5, &port, &id);
	assert_true(matcher_answer(&m, port, id, 0, 150));
	assert_false(matcher_answer(&m, port, id, 0, 160)); /* twice: unexpected */
	matcher_slot(&m, 6, &port, &id);
	assert_true(matcher_answer(&m, port, id, 3, 400));
	matcher_slot(&m, 7, &port, &id);
	assert_true(matcher_answer(&m, port, id, 2, 400));
	matcher_slot(&m, 0, &port, &id);
	assert_true(matcher_answer(&m, port, id, 5, 400));
	assert_false(matcher_answer(&m, 3, 999, 0, 400)); /* never sent */
	assert_int_equal(c.answered, 4);
	assert_int_equal(c.noerror, 1);
	assert_int_equal(c.nxdomain, 1);
	assert_int_equal(c.servfail, 1);
	assert_int_equal(c.rcode_other, 1);
	assert_int_equal(c.unexpected, 2);
	assert_int_equal(c.latency.count, 4);
	assert_int_equal(c.latency.min_ns, 50);

	/* the four unanswered ones time out once 1000 ns have passed, not before */
	matcher_expire(&m, 1099);
	assert_int_equal(c.timeouts, 0);
	matcher_expire(&m, 1100);
	assert_int_equal(c.timeouts, 4);
	assert_int_equal(m.outstanding, 0);
	/* a late answer is unexpected, not an answer */
	matcher_slot(&m, 1, &port, &id);
	assert_false(matcher_answer(&m, port, id, 0, 1200));
	assert_int_equal(c.answered, 4);
	matcher_free(&m);
}

/* Open loop: when a slot comes round again its unanswered query is lost, never waited for. */
static void test_slot_reuse(void **state)
{
	struct matcher m;
	memset(&c, 0, sizeof(c));
	assert_true(matcher_init(&m, 1, 1000000000, &c));
	for (uint64_t k = 0; k < 65536 + 10; k++)
		matcher_sent(&m, k, 1);
	assert_int_equal(c.timeouts, 10);
	assert_int_equal(m.outstanding, 65536);
	/* the answer for ID 3 now belongs to query 65539 */
	assert_true(matcher_answer(&m, 0, 3, 0, 2));
	assert_int_equal(c.answered, 1);
	matcher_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_slots_and_answers),
	    cmocka_unit_test(test_slot_reuse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
