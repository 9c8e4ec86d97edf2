/* tests/daemons/glibc_heap.h - bytes in use in glibc's own heap, whoever serves malloc: the preload
 * tests' evidence that a call landed in glibc. glibc's mallinfo2 is looked up inside libc.so.6,
 * since the allocators under test may export functions of the same name. Include after cmocka.h. */
#ifndef ALLOCSPIKE_TESTS_GLIBC_HEAP_H
#define ALLOCSPIKE_TESTS_GLIBC_HEAP_H

#include <dlfcn.h>
#include <malloc.h>

static struct mallinfo2 (*glibc_heap_mallinfo2)(void);

/* cmocka group setup: finds glibc's mallinfo2. */
static int glibc_heap_setup(void **state)
{
	(void)state;
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	assert_non_null(libc);
	glibc_heap_mallinfo2 = (struct mallinfo2(*)(void))dlsym(libc, "mallinfo2");
	assert_non_null(glibc_heap_mallinfo2);
	return 0;
}

/* Bytes glibc has handed out: arena chunks plus mmapped blocks. */
static size_t glibc_in_use(void)
{
	return glibc_heap_mallinfo2().uordblks + glibc_heap_mallinfo2().hblkhd;
}

#endif
