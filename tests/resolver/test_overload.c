/* tests/resolver/test_overload.c - the overload policies with a fake clock: unbound's request list
 * admits its size and drops the rest, half of it is never replaced, the other half is replaced
 * oldest first once older than the jostle timeout, and leaving frees a place; kresd's admits
 * everything. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "overload.h"

#define LIST 8
#define JOSTLE_MS 200

struct fake_requests {
	struct overload o;
	struct overload_entry e[64];
	int used;
	struct overload_entry *last_victim;
};

static void fake_init(struct fake_requests *f, enum overload_policy policy, size_t list)
{
	*f = (struct fake_requests){0};
	overload_init(&f->o, policy, list, JOSTLE_MS);
}

/* Offers n new requests at now_ms; admitted ones take the next entries. Returns how many got in
 * (admitted or replacing an old one). */
static int offer(struct fake_requests *f, int n, uint64_t now_ms)
{
	int in = 0;
	for (int i = 0; i < n; i++) {
		struct overload_entry *victim;
		enum overload_verdict v = overload_admit(&f->o, now_ms, &victim);
		if (v == OVERLOAD_DROP) {
			assert_null(victim);
			continue;
		}
		if (v == OVERLOAD_REPLACE) {
			assert_non_null(victim);
			overload_leave(&f->o, victim);
			f->last_victim = victim;
		}
		overload_enter(&f->o, &f->e[f->used++], now_ms);
		in++;
	}
	return in;
}

static void test_unbound_full_list_drops(void **state)
{
	(void)state;
	struct fake_requests f;
	fake_init(&f, OVERLOAD_UNBOUND, LIST);
	assert_int_equal(offer(&f, 20, 1000), LIST);
	assert_int_equal(overload_current(&f.o), LIST);
	assert_int_equal(f.o.exceeded, 20 - LIST);
	assert_int_equal(f.o.overwritten, 0);
	/* exactly the timeout old is not older than it: still dropped */
	assert_int_equal(offer(&f, 3, 1000 + JOSTLE_MS), 0);
	assert_int_equal(f.o.exceeded, 20 - LIST + 3);
	assert_int_equal(overload_current(&f.o), LIST);
}

static void test_unbound_jostles_oldest_of_second_half(void **state)
{
	(void)state;
	struct fake_requests f;
	fake_init(&f, OVERLOAD_UNBOUND, LIST);
	offer(&f, LIST / 2, 1000); /* e[0..3]: the half that runs to completion */
	offer(&f, LIST / 2, 1100); /* e[4..7]: the jostle half */
	for (int i = 0; i < LIST / 2; i++)
		assert_int_equal(f.e[i].half, OVERLOAD_FOREVER);
	/* e[0..3] are older than the timeout but never replaced; e[4..7] not yet old enough */
	assert_int_equal(offer(&f, 1, 1300), 0);
	/* then they are, oldest first */
	assert_int_equal(offer(&f, 1, 1301), 1);
	assert_ptr_equal(f.last_victim, &f.e[4]);
	assert_int_equal(offer(&f, 3, 1302), 3);
	assert_ptr_equal(f.last_victim, &f.e[7]);
	assert_int_equal(f.o.overwritten, 4);
	assert_int_equal(f.o.exceeded, 1);
	/* the newcomers are young: the next one is dropped */
	assert_int_equal(offer(&f, 1, 1302), 0);
	assert_int_equal(overload_current(&f.o), LIST);
	for (int i = 0; i < LIST / 2; i++)
		assert_int_equal(f.e[i].half, OVERLOAD_FOREVER);
	for (int i = LIST / 2; i < LIST; i++)
		assert_int_equal(f.e[i].half, OVERLOAD_OFF_LIST);
}

static void test_unbound_leaving_frees_a_place(void **state)
{
	(void)state;
	struct fake_requests f;
	fake_init(&f, OVERLOAD_UNBOUND, LIST);
	offer(&f, LIST, 1000);
	overload_leave(&f.o, &f.e[2]); /* a request of the first half answered */
	assert_int_equal(offer(&f, 2, 1001), 1);
	assert_int_equal(f.e[8].half, OVERLOAD_FOREVER);
	overload_leave(&f.o, &f.e[5]); /* one in the middle of the jostle half */
	overload_leave(&f.o, &f.e[5]); /* a second leave changes nothing */
	assert_int_equal(overload_current(&f.o), LIST - 1);
	assert_int_equal(offer(&f, 1, 1002), 1);
	assert_int_equal(f.e[9].half, OVERLOAD_JOSTLE);
	/* replaced in the order they came: e[4], e[6], e[7], then e[9] */
	struct overload_entry *order[] = {&f.e[4], &f.e[6], &f.e[7], &f.e[9]};
	for (int i = 0; i < 4; i++) {
		assert_int_equal(offer(&f, 1, 5000), 1);
		assert_ptr_equal(f.last_victim, order[i]);
	}
	assert_int_equal(overload_current(&f.o), LIST);
}

static void test_unbound_odd_list_keeps_the_larger_half(void **state)
{
	(void)state;
	struct fake_requests f;
	fake_init(&f, OVERLOAD_UNBOUND, 5);
	assert_int_equal(offer(&f, 9, 1000), 5);
	assert_int_equal(offer(&f, 9, 9000), 2); /* e[3], e[4] replaced; e[5], e[6] are young */
	assert_int_equal(f.e[2].half, OVERLOAD_FOREVER);
	assert_int_equal(f.o.overwritten, 2);
	assert_int_equal(f.o.exceeded, 4 + 7);
}

static void test_kresd_admits_everything(void **state)
{
	(void)state;
	struct overload o;
	overload_init(&o, OVERLOAD_KRESD, LIST, JOSTLE_MS);
	struct overload_entry e = {0};
	for (int i = 0; i < 10000; i++) {
		struct overload_entry *victim;
		assert_int_equal(overload_admit(&o, 1000 + (uint64_t)i, &victim), OVERLOAD_ADMIT);
		overload_enter(&o, &e, 1000);
	}
	overload_leave(&o, &e);
	assert_int_equal(overload_current(&o), 0);
	assert_int_equal(o.exceeded, 0);
	assert_int_equal(o.overwritten, 0);
}

static void test_policy_names(void **state)
{
	(void)state;
	enum overload_policy p;
	assert_int_equal(overload_policy_parse("unbound", &p), 0);
	assert_int_equal(p, OVERLOAD_UNBOUND);
	assert_int_equal(overload_policy_parse("kresd", &p), 0);
	assert_int_equal(p, OVERLOAD_KRESD);
	assert_int_equal(overload_policy_parse("flat", &p), -1);
	assert_string_equal(overload_policy_name(OVERLOAD_KRESD), "kresd");
	assert_int_equal(overload_policy_for_layout(LAYOUT_HEAP), OVERLOAD_UNBOUND);
	assert_int_equal(overload_policy_for_layout(LAYOUT_KRESD), OVERLOAD_KRESD);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unbound_full_list_drops),
	    cmocka_unit_test(test_unbound_jostles_oldest_of_second_half),
	    cmocka_unit_test(test_unbound_leaving_frees_a_place),
	    cmocka_unit_test(test_unbound_odd_list_keeps_the_larger_half),
	    cmocka_unit_test(test_kresd_admits_everything),
	    cmocka_unit_test(test_policy_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
