/* tests/daemons/test_mallocx.c - the mallocx adapter behind the glibc routing shim, preloaded into
 * a program linked with jemalloc that allocates through jemalloc's own API, as Debian's named does.
 *
 * Run by ctest with LD_PRELOAD=liballocspike-glibc-malloc.so:liballocspike-mallocx.so (the
 * named-glibc row). Every *allocx call must land in glibc's heap (glibc's own mallinfo2 grows)
 * and none in jemalloc's (its thread.allocated counter stays put), with jemalloc's flag
 * semantics: MALLOCX_ZERO, MALLOCX_ALIGN, growth zeroing in rallocx. The flags come from
 * jemalloc's own header, not from the adapter. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jemalloc/jemalloc.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "alloc_info.h"
#include "daemons/glibc_heap.h"

/* Bytes this thread has allocated through jemalloc so far (its own statistics). */
static uint64_t jemalloc_thread_allocated(void)
{
	uint64_t n = 0;
	size_t len = sizeof(n);
	assert_int_equal(mallctl("thread.allocated", &n, &len, NULL, 0), 0);
	return n;
}

static void test_adapter_is_preloaded(void **state)
{
	Dl_info dl;
	assert_true(dladdr((void *)mallocx, &dl) != 0);
	assert_non_null(strstr(dl.dli_fname, "liballocspike-mallocx"));
	/* malloc itself must be the shim's, as in the named-glibc row. */
	struct alloc_info info;
	alloc_info_detect(&info);
	assert_non_null(strstr(info.malloc_object, "liballocspike-glibc-malloc"));
}

static void test_mallocx_uses_glibc_heap(void **state)
{
	uint64_t jemalloc_before = jemalloc_thread_allocated();
	size_t base = glibc_in_use();
	unsigned char *z = mallocx(3000, MALLOCX_ZERO);
	void *a = mallocx(100, MALLOCX_ALIGN(4096));
	assert_non_null(z);
	assert_non_null(a);
	assert_true(glibc_in_use() >= base + 3100);
	assert_int_equal((uintptr_t)a % 4096, 0);
	for (size_t i = 0; i < sallocx(z, 0); i++)
		assert_int_equal(z[i], 0);
	assert_int_equal(sallocx(a, 0), malloc_usable_size(a));
	assert_true(nallocx(3000, 0) >= 3000);
	assert_int_equal(xallocx(z, 3000, 0, 0), sallocx(z, 0));
	size_t before_free = glibc_in_use();
	sdallocx(z, 3000, 0);
	dallocx(a, 0);
	assert_true(glibc_in_use() + 3000 <= before_free);
	assert_int_equal(jemalloc_thread_allocated(), jemalloc_before);
}

static void test_rallocx_keeps_and_zeroes(void **state)
{
	uint64_t jemalloc_before = jemalloc_thread_allocated();
	unsigned char *p = mallocx(100, 0);
	memset(p, 'x', 100);
	size_t old = sallocx(p, 0);
	p = rallocx(p, 20000, MALLOCX_ZERO);
	assert_non_null(p);
	for (int i = 0; i < 100; i++)
		assert_int_equal(p[i], 'x');
	for (size_t i = old; i < 20000; i++)
		assert_int_equal(p[i], 0);
	/* An aligned growth moves the block by hand and keeps the contents. */
	p = rallocx(p, 40000, MALLOCX_ALIGN(8192));
	assert_non_null(p);
	assert_int_equal((uintptr_t)p % 8192, 0);
	assert_int_equal(p[99], 'x');
	dallocx(p, 0);
	assert_int_equal(jemalloc_thread_allocated(), jemalloc_before);
}

static void test_sized_free_of_malloc_block(void **state)
{
	Dl_info dl;
	assert_true(dladdr((void *)sdallocx, &dl) && strstr(dl.dli_fname, "liballocspike-mallocx"));
	size_t base = glibc_in_use();
	char *m = malloc(3000);
	char *x = mallocx(3000, 0);
	unsigned char *z = mallocx(2000, MALLOCX_ZERO | MALLOCX_LG_ALIGN(10));
	assert_true(glibc_in_use() >= base + 8000);
	assert_int_equal((uintptr_t)z % 1024, 0);
	for (int i = 0; i < 2000; i++)
		assert_int_equal(z[i], 0);
	assert_int_equal(sallocx(x, 0), malloc_usable_size(x));
	assert_true(sallocx(x, 0) >= 3000);

	size_t old = sallocx(x, 0);
	memset(x, 'x', old);
	x = rallocx(x, 6000, MALLOCX_ZERO);
	assert_non_null(x);
	assert_int_equal(x[old - 1], 'x');
	for (size_t i = old; i < 6000; i++)
		assert_int_equal(x[i], 0);
	memset(z, 'z', 2000);
	z = rallocx(z, 9000, MALLOCX_LG_ALIGN(12));
	assert_non_null(z);
	assert_int_equal((uintptr_t)z % 4096, 0);
	assert_int_equal(z[1999], 'z');
	assert_true(xallocx(x, 100000, 0, 0) < 100000); /* never in place: the real size */
	assert_true(nallocx(100, 0) >= 100);

	size_t before_free = glibc_in_use();
	sdallocx(m, 3000, 0); /* from malloc, freed by jemalloc's sized free: glibc's heap */
	sdallocx(x, 6000, 0);
	dallocx(z, MALLOCX_LG_ALIGN(12));
	assert_true(glibc_in_use() + 15000 <= before_free);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_adapter_is_preloaded),
	    cmocka_unit_test(test_mallocx_uses_glibc_heap),
	    cmocka_unit_test(test_rallocx_keeps_and_zeroes),
	    cmocka_unit_test(test_sized_free_of_malloc_block),
	};
	return cmocka_run_group_tests(tests, glibc_heap_setup, NULL);
}
