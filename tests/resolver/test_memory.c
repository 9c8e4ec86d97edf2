/* tests/resolver/test_memory.c - what one request holds in each memory layout: at least the
 * daemon's first chunk (16 KiB), growth in the daemon's chunk sizes, big objects apart, loose
 * objects freed at once while pool memory stays until the request ends. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "memory.h"

static void test_a_request_holds_the_first_chunk(void **state)
{
	(void)state;
	for (int layout = LAYOUT_HEAP; layout <= LAYOUT_KRESD; layout++) {
		struct rmem m;
		assert_int_equal(rmem_init(&m, (enum memory_layout)layout), 0);
		assert_int_equal(rmem_footprint(&m), 16384);
		rmem_release(&m);
	}
}

static void test_heap_region_grows_by_8k_and_keeps_big_objects_apart(void **state)
{
	(void)state;
	struct rmem m;
	assert_int_equal(rmem_init(&m, LAYOUT_HEAP), 0);
	/* 2048 B objects fill the first chunk and then grow the region by 8 KiB chunks. */
	for (int i = 0; i < 8; i++)
		assert_non_null(rmem_alloc(&m, 2048));
	assert_int_equal(rmem_footprint(&m), 16384 + 8192);
	/* Past 2048 B an object is a chunk of its own, freed with the region only. */
	void *big = rmem_alloc(&m, 3000);
	assert_non_null(big);
	size_t with_big = rmem_footprint(&m);
	assert_true(with_big >= 16384 + 8192 + 3000);
	rmem_free(&m, big);
	assert_int_equal(rmem_footprint(&m), with_big);
	rmem_release(&m);
}

static void test_kresd_pool_grows_by_16k(void **state)
{
	(void)state;
	struct rmem m;
	assert_int_equal(rmem_init(&m, LAYOUT_KRESD), 0);
	for (int i = 0; i < 5; i++)
		assert_non_null(rmem_alloc(&m, 4096));
	assert_int_equal(rmem_footprint(&m), 2 * 16384);
	rmem_release(&m);
}

static void test_loose_objects_are_freed_at_once(void **state)
{
	(void)state;
	for (int layout = LAYOUT_HEAP; layout <= LAYOUT_KRESD; layout++) {
		struct rmem m;
		assert_int_equal(rmem_init(&m, (enum memory_layout)layout), 0);
		size_t before = rmem_footprint(&m);
		uint8_t *p = rmem_calloc_loose(&m, 500);
		assert_non_null(p);
		assert_int_equal(p[499], 0);
		assert_true(rmem_footprint(&m) >= before + 500);
		rmem_free(&m, p);
		assert_int_equal(rmem_footprint(&m), before);
		/* A loose object left alive is freed by rmem_release (the sanitizer build checks).
		 */
		assert_non_null(rmem_alloc_loose(&m, 64));
		rmem_release(&m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_a_request_holds_the_first_chunk),
	    cmocka_unit_test(test_heap_region_grows_by_8k_and_keeps_big_objects_apart),
	    cmocka_unit_test(test_kresd_pool_grows_by_16k),
	    cmocka_unit_test(test_loose_objects_are_freed_at_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
