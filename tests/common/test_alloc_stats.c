/* tests/common/test_alloc_stats.c - memory the allocator holds after free shows up in the right
 * generic kind (common/alloc_stats), and the live-bytes counter (common/live_bytes) follows the
 * program. Built once per allocator (EXPECTED_ALLOCATOR), each with the setting that forces the
 * holding: glibc by freeing everything below a live chunk, jemalloc with dirty_decay_ms:-1,
 * tcmalloc at TCMALLOC_RELEASE_RATE=0 (the environment comes from ctest). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_info.h"
#include "alloc_stats.h"
#include "live_bytes.h"

#define TEST_BLOCKS 256

static struct alloc_info test_info;

static void test_read(struct alloc_stats *s, struct live_bytes *live)
{
	alloc_stats_read(&test_info, s);
	assert_true(live_bytes_get(live));
	printf("heap %lld trimmable %lld fragmented %lld unmapped %lld allocated %lld live %zu\n",
	       s->heap, s->free_trimmable, s->free_fragmented, s->unmapped, s->allocated,
	       live->bytes);
}

/* The figures before and while the allocator holds what the program freed. */
struct test_held {
	struct alloc_stats before, held;
	long long freed;            /* bytes the program allocated, wrote and freed */
	long long held_beyond_live; /* heap - live while they are held */
	void *keep;                 /* the live block allocated after them */
};

/* Allocates TEST_BLOCKS blocks of size (written, so resident), a last one after them, and frees
 * the first ones; the last one stays live in t->keep for the caller to free. */
static void test_hold(size_t size, struct test_held *t)
{
	struct live_bytes live;
	test_read(&t->before, &live);
	void *blocks[TEST_BLOCKS];
	for (int i = 0; i < TEST_BLOCKS; i++) {
		blocks[i] = malloc(size);
		assert_non_null(blocks[i]);
		memset(blocks[i], 0x5a, size);
	}
	t->keep = malloc(size);
	assert_non_null(t->keep);
	memset(t->keep, 0x5a, size);
	for (int i = 0; i < TEST_BLOCKS; i++)
		free(blocks[i]);
	t->freed = (long long)size * TEST_BLOCKS;
	test_read(&t->held, &live);
	t->held_beyond_live = t->held.heap - (long long)live.bytes;
	assert_true(t->held_beyond_live >= t->freed * 9 / 10);
}

static void test_allocator_is_expected(void **state)
{
	(void)state;
	assert_string_equal(test_info.allocator, EXPECTED_ALLOCATOR);
	struct alloc_stats s;
	struct live_bytes live;
	test_read(&s, &live);
	assert_true(s.heap > 0);
	assert_true(live.bytes > 0);
}

/* The counter: a block adds its usable size (at most a size class, a quarter, above the request),
 * its free takes it away again. */
static void test_live_follows(void **state)
{
	(void)state;
	struct live_bytes a, b, c;
	assert_true(live_bytes_get(&a));
	char *p = malloc(100000);
	assert_non_null(p);
	assert_true(live_bytes_get(&b));
	assert_true(b.bytes - a.bytes >= 100000 && b.bytes - a.bytes <= 100000 * 5 / 4);
	assert_int_equal(b.blocks, a.blocks + 1);
	p = realloc(p, 300000);
	assert_non_null(p);
	assert_true(live_bytes_get(&c));
	assert_true(c.bytes - a.bytes >= 300000 && c.bytes - a.bytes <= 300000 * 5 / 4);
	free(p);
	assert_true(live_bytes_get(&c));
	assert_int_equal(c.bytes, a.bytes);
	assert_int_equal(c.blocks, a.blocks);
}

/* The high-water mark: a block allocated and freed between two takes still shows in the second,
 * and the third starts from what is live then. */
static void test_live_max_sees_gone_block(void **state)
{
	(void)state;
	size_t max;
	assert_true(live_bytes_get_max(&max)); /* starts the mark over */
	struct live_bytes before;
	assert_true(live_bytes_get(&before));
	char *volatile p = malloc(1000000); /* volatile: the pair is not optimised away */
	assert_non_null(p);
	free(p);
	struct live_bytes after;
	assert_true(live_bytes_get(&after));
	assert_true(live_bytes_get_max(&max));
	assert_true(max >= before.bytes + 1000000);
	assert_true(max >= after.bytes);
	size_t again;
	assert_true(live_bytes_get_max(&again));
	assert_true(again >= after.bytes && again < before.bytes + 1000000);
}

/* glibc: 1000-byte chunks freed below a live one coalesce into free space malloc_trim cannot
 * return (not the top chunk); once the live one goes, it joins the top and is trimmed. */
static void test_glibc_below_top(void **state)
{
	(void)state;
	struct test_held t;
	test_hold(1000, &t);
	assert_true(t.held.free_fragmented - t.before.free_fragmented >= t.freed * 9 / 10);
	assert_true(t.held.free_trimmable < t.freed / 10);
	free(t.keep);
	struct alloc_stats after;
	struct live_bytes live;
	test_read(&after, &live);
	assert_true(after.free_fragmented - t.before.free_fragmented < t.freed / 10);
}

/* jemalloc with dirty_decay_ms:-1: freed 64 KiB extents stay dirty, never purged. */
static void test_jemalloc_dirty(void **state)
{
	(void)state;
	struct test_held t;
	test_hold(64 * 1024, &t);
	assert_true(t.held.free_trimmable - t.before.free_trimmable >= t.freed * 9 / 10);
	bool decay_seen = false;
	for (unsigned i = 0; i < t.held.own_count; i++)
		if (strcmp(t.held.own[i].name, "dirty_decay_ms") == 0) {
			assert_int_equal(t.held.own[i].value, -1);
			decay_seen = true;
		}
	assert_true(decay_seen);
	free(t.keep);
}

/* tcmalloc at release rate 0: freed 1 MiB spans stay in the page heap, none unmapped. */
static void test_tcmalloc_pageheap(void **state)
{
	(void)state;
	struct test_held t;
	test_hold(1024 * 1024, &t);
	assert_true(t.held.free_trimmable - t.before.free_trimmable >= t.freed * 9 / 10);
	assert_true(t.held.unmapped - t.before.unmapped < t.freed / 10);
	free(t.keep);
}

int main(void)
{
	alloc_info_detect(&test_info);
	const struct CMUnitTest common[] = {
	    cmocka_unit_test(test_allocator_is_expected),
	    cmocka_unit_test(test_live_follows),
	    cmocka_unit_test(test_live_max_sees_gone_block),
	};
	int failed = cmocka_run_group_tests_name("alloc_stats", common, NULL, NULL);
	const struct CMUnitTest glibc[] = {cmocka_unit_test(test_glibc_below_top)};
	const struct CMUnitTest jemalloc[] = {cmocka_unit_test(test_jemalloc_dirty)};
	const struct CMUnitTest tcmalloc[] = {cmocka_unit_test(test_tcmalloc_pageheap)};
	if (strcmp(EXPECTED_ALLOCATOR, "glibc") == 0)
		failed += cmocka_run_group_tests_name("glibc", glibc, NULL, NULL);
	else if (strcmp(EXPECTED_ALLOCATOR, "jemalloc") == 0)
		failed += cmocka_run_group_tests_name("jemalloc", jemalloc, NULL, NULL);
	else if (strcmp(EXPECTED_ALLOCATOR, "tcmalloc") == 0)
		failed += cmocka_run_group_tests_name("tcmalloc", tcmalloc, NULL, NULL);
	return failed;
}
