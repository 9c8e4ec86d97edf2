/* tests/daemons/test_glibc_malloc.c - the glibc routing shim, preloaded into a program linked with
 * jemalloc.
 *
 * Built like kresd (jemalloc linked in, so without the shim jemalloc would serve everything)
 * and run with LD_PRELOAD=liballocspike-glibc-malloc.so by ctest. Each entry point must land in
 * glibc's heap, which glibc's own mallinfo2() (looked up inside libc.so.6) shows. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
/* jemalloc's own API and flags, as a program built against jemalloc sees them: linked with
 * jemalloc, so without the shim these calls would reach it with pointers from glibc's heap. */
#include <jemalloc/jemalloc.h>

#include "alloc_info.h"
#include "daemons/glibc_heap.h"

static void test_shim_is_preloaded(void **state)
{
	/* The test is meaningless if jemalloc serves malloc: the shim must be what malloc resolves
	 * to. */
	struct alloc_info info;
	alloc_info_detect(&info);
	assert_non_null(strstr(info.malloc_object, "liballocspike-glibc-malloc"));
	/* jemalloc is mapped, as in kresd */
	assert_non_null(dlopen("libjemalloc.so.2", RTLD_LAZY | RTLD_NOLOAD));
}

static void test_c_entry_points_use_glibc_heap(void **state)
{
	size_t base = glibc_in_use();
	char *m = malloc(1000);
	char *c = calloc(10, 100);
	assert_true(glibc_in_use() >= base + 2000);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(c[i], 0);
	memset(m, 'x', 1000);
	m = realloc(m, 5000);
	assert_int_equal(m[999], 'x');
	assert_true(malloc_usable_size(m) >= 5000);
	void *a = memalign(256, 100);
	void *p = NULL;
	assert_int_equal(posix_memalign(&p, 4096, 100), 0);
	void *al = aligned_alloc(64, 128);
	assert_int_equal((uintptr_t)a % 256, 0);
	assert_int_equal((uintptr_t)p % 4096, 0);
	assert_int_equal((uintptr_t)al % 64, 0);
	size_t before_free = glibc_in_use();
	free(m);
	free(c);
	free(a);
	free(p);
	free(al);
	/* Chunks above the tcache limit (1032 bytes) go back to the bins; the 5000-byte one must.
	 */
	assert_true(glibc_in_use() + 4000 <= before_free);
}

static void test_alignment_errors(void **state)
{
	void *p = NULL;
	assert_int_equal(posix_memalign(&p, 3, 100), EINVAL);
	assert_int_equal(posix_memalign(&p, 4, 100), EINVAL); /* not a multiple of sizeof(void *) */
	errno = 0;
	assert_null(aligned_alloc(24, 48));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(posix_memalign(&p, 64, SIZE_MAX / 2), ENOMEM);
}

/* The operators are called through dlsym, as a C++ library would reach them by symbol. */
static void test_cxx_operators_use_glibc_heap(void **state)
{
	void *(*op_new)(size_t) = (void *(*)(size_t))dlsym(RTLD_DEFAULT, "_Znwm");
	void *(*op_new_nothrow)(size_t, const void *) =
	    (void *(*)(size_t, const void *))dlsym(RTLD_DEFAULT, "_ZnamRKSt9nothrow_t");
	void *(*op_new_aligned)(size_t, size_t) =
	    (void *(*)(size_t, size_t))dlsym(RTLD_DEFAULT, "_ZnwmSt11align_val_t");
	void (*op_delete)(void *) = (void (*)(void *))dlsym(RTLD_DEFAULT, "_ZdlPv");
	void (*op_delete_sized_aligned)(void *, size_t, size_t) =
	    (void (*)(void *, size_t, size_t))dlsym(RTLD_DEFAULT, "_ZdlPvmSt11align_val_t");
	void (*op_delete_array_nothrow)(void *, const void *) =
	    (void (*)(void *, const void *))dlsym(RTLD_DEFAULT, "_ZdaPvRKSt9nothrow_t");
	assert_non_null(op_new);
	assert_non_null(op_new_nothrow);
	assert_non_null(op_new_aligned);
	assert_non_null(op_delete);
	assert_non_null(op_delete_sized_aligned);
	assert_non_null(op_delete_array_nothrow);
	/* Each must be the shim's, not jemalloc's, which comes earlier than libstdc++ in kresd. */
	Dl_info dl;
	assert_true(dladdr((void *)op_new, &dl) &&
	            strstr(dl.dli_fname, "liballocspike-glibc-malloc"));

	size_t base = glibc_in_use();
	void *a = op_new(3000);
	void *b = op_new_nothrow(3000, NULL);
	void *c = op_new_aligned(3000, 512);
	assert_true(glibc_in_use() >= base + 9000);
	assert_int_equal((uintptr_t)c % 512, 0);
	assert_null(op_new_nothrow(SIZE_MAX / 2, NULL));
	op_delete(a);
	op_delete_array_nothrow(b, NULL);
	op_delete_sized_aligned(c, 3000, 512);
	assert_true(glibc_in_use() < base + 3000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_shim_is_preloaded),
	    cmocka_unit_test(test_c_entry_points_use_glibc_heap),
	    cmocka_unit_test(test_alignment_errors),
	    cmocka_unit_test(test_cxx_operators_use_glibc_heap),
	};
	return cmocka_run_group_tests(tests, glibc_heap_setup, NULL);
}
