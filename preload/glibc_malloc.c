/* preload/glibc_malloc.c - LD_PRELOAD shim that routes malloc and C++ new/delete to glibc's own
 * malloc.
 *
 * Debian's kresd links jemalloc, and jemalloc exports malloc and friends and every C++
 * operator new/delete, so an unmodified kresd can never run on glibc malloc. Preloaded, this
 * object comes first in the symbol search order: every call to malloc and friends from the
 * daemon, its libraries and glibc itself lands here and goes straight to glibc's exported
 * __libc_* entry points, which jemalloc does not interpose. jemalloc stays mapped but idle.
 * jemalloc's own allocation API (mallocx and the other *allocx functions) is served by
 * preload/mallocx.c, which every row preloading this shim into a jemalloc-linked daemon lists too.
 *
 * allocspike_malloc_route_target() tells the allocator probe (preload/alloc_probe.c) where
 * malloc really goes, since dladdr(malloc) can only name this shim. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* glibc's own allocator, exported under these names since glibc 2.0 (GLIBC_2.2.5 on x86-64). */
extern void *__libc_malloc(size_t size);
extern void __libc_free(void *ptr);
extern void *__libc_calloc(size_t nmemb, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

/* libstdc++, present in any process that calls operator new; weak so C programs load us too. */
extern void (*_ZSt15get_new_handlerv(void))(void) __attribute__((weak));
extern void _ZSt17__throw_bad_allocv(void) __attribute__((weak, noreturn));

void *allocspike_malloc_route_target(void);
void *malloc(size_t size);
void free(void *ptr);
void *calloc(size_t nmemb, size_t size);
void *realloc(void *ptr, size_t size);
void *memalign(size_t alignment, size_t size);
void *valloc(size_t size);
void *pvalloc(size_t size);
int posix_memalign(void **memptr, size_t alignment, size_t size);
void *aligned_alloc(size_t alignment, size_t size);
size_t malloc_usable_size(void *ptr);

/* The function malloc calls, for the probe to locate with dladdr(). */
void *allocspike_malloc_route_target(void)
{
	void *(*volatile target)(size_t) = __libc_malloc;
	return (void *)target;
}

void *malloc(size_t size)
{
	return __libc_malloc(size);
}

void free(void *ptr)
{
	__libc_free(ptr);
}

void *calloc(size_t nmemb, size_t size)
{
	return __libc_calloc(nmemb, size);
}

void *realloc(void *ptr, size_t size)
{
	return __libc_realloc(ptr, size);
}

void *memalign(size_t alignment, size_t size)
{
	return __libc_memalign(alignment, size);
}

void *valloc(size_t size)
{
	return __libc_valloc(size);
}

void *pvalloc(size_t size)
{
	return __libc_pvalloc(size);
}

static bool glibc_malloc_power_of_two(size_t n)
{
	return n != 0 && (n & (n - 1)) == 0;
}

int posix_memalign(void **memptr, size_t alignment, size_t size)
{
	if (!glibc_malloc_power_of_two(alignment) || alignment % sizeof(void *) != 0)
		return EINVAL;
	void *p = __libc_memalign(alignment, size);
	if (!p)
		return ENOMEM;
	*memptr = p;
	return 0;
}

void *aligned_alloc(size_t alignment, size_t size)
{
	/* glibc 2.36 (Debian 12) rejects alignments that are not powers of two; keep its contract.
	 */
	if (!glibc_malloc_power_of_two(alignment)) {
		errno = EINVAL;
		return NULL;
	}
	return __libc_memalign(alignment, size);
}

/* glibc exports no __libc_malloc_usable_size, and a plain reference would bind to jemalloc's
 * (it comes before libc in kresd's search order): look it up inside libc.so.6 itself. */
static size_t (*glibc_malloc_usable_size_fn)(void *);

static void glibc_malloc_resolve(void)
{
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	if (libc) {
		glibc_malloc_usable_size_fn = (size_t(*)(void *))dlsym(libc, "malloc_usable_size");
		dlclose(libc);
	}
	if (!glibc_malloc_usable_size_fn)
		abort(); /* cannot happen with glibc; answering wrong sizes would corrupt the heap
		          */
}

__attribute__((constructor)) static void glibc_malloc_init(void)
{
	glibc_malloc_resolve();
}

size_t malloc_usable_size(void *ptr)
{
	if (!glibc_malloc_usable_size_fn)
		glibc_malloc_resolve();
	return glibc_malloc_usable_size_fn(ptr);
}

/* C++ operators. align is 0 for the ordinary ones. A throwing operator calls the new-handler
 * in a loop and throws std::bad_alloc when there is none, as the standard asks; this file is
 * built with -fexceptions so the exception can unwind through it. The nothrow forms return
 * NULL without calling the handler. */
static void *glibc_malloc_new(size_t size, size_t align, bool nothrow)
{
	if (size == 0)
		size = 1;
	for (;;) {
		void *p = align ? __libc_memalign(align, size) : __libc_malloc(size);
		if (p || nothrow)
			return p;
		void (*handler)(void) = _ZSt15get_new_handlerv ? _ZSt15get_new_handlerv() : NULL;
		if (!handler) {
			if (_ZSt17__throw_bad_allocv)
				_ZSt17__throw_bad_allocv();
			abort();
		}
		handler();
	}
}

/* Mangled names (Itanium C++ ABI, size_t = unsigned long): nw/na = new/new[], dl/da =
 * delete/delete[], m = size_t, St11align_val_t = std::align_val_t, RKSt9nothrow_t = nothrow. */
void *_Znwm(size_t size);
void *_Znam(size_t size);
void *_ZnwmRKSt9nothrow_t(size_t size, const void *tag);
void *_ZnamRKSt9nothrow_t(size_t size, const void *tag);
void *_ZnwmSt11align_val_t(size_t size, size_t align);
void *_ZnamSt11align_val_t(size_t size, size_t align);
void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t size, size_t align, const void *tag);
void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t size, size_t align, const void *tag);
void _ZdlPv(void *ptr);
void _ZdaPv(void *ptr);
void _ZdlPvm(void *ptr, size_t size);
void _ZdaPvm(void *ptr, size_t size);
void _ZdlPvRKSt9nothrow_t(void *ptr, const void *tag);
void _ZdaPvRKSt9nothrow_t(void *ptr, const void *tag);
void _ZdlPvSt11align_val_t(void *ptr, size_t align);
void _ZdaPvSt11align_val_t(void *ptr, size_t align);
void _ZdlPvmSt11align_val_t(void *ptr, size_t size, size_t align);
void _ZdaPvmSt11align_val_t(void *ptr, size_t size, size_t align);
void _ZdlPvSt11align_val_tRKSt9nothrow_t(void *ptr, size_t align, const void *tag);
void _ZdaPvSt11align_val_tRKSt9nothrow_t(void *ptr, size_t align, const void *tag);

void *_Znwm(size_t size)
{
	return glibc_malloc_new(size, 0, false);
}

void *_Znam(size_t size)
{
	return glibc_malloc_new(size, 0, false);
}

void *_ZnwmRKSt9nothrow_t(size_t size, const void *tag)
{
	return glibc_malloc_new(size, 0, true);
}

void *_ZnamRKSt9nothrow_t(size_t size, const void *tag)
{
	return glibc_malloc_new(size, 0, true);
}

void *_ZnwmSt11align_val_t(size_t size, size_t align)
{
	return glibc_malloc_new(size, align, false);
}

void *_ZnamSt11align_val_t(size_t size, size_t align)
{
	return glibc_malloc_new(size, align, false);
}

void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t size, size_t align, const void *tag)
{
	return glibc_malloc_new(size, align, true);
}

void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t size, size_t align, const void *tag)
{
	return glibc_malloc_new(size, align, true);
}

void _ZdlPv(void *ptr)
{
	__libc_free(ptr);
}

void _ZdaPv(void *ptr)
{
	__libc_free(ptr);
}

void _ZdlPvm(void *ptr, size_t size)
{
	__libc_free(ptr);
}

void _ZdaPvm(void *ptr, size_t size)
{
	__libc_free(ptr);
}

void _ZdlPvRKSt9nothrow_t(void *ptr, const void *tag)
{
	__libc_free(ptr);
}

void _ZdaPvRKSt9nothrow_t(void *ptr, const void *tag)
{
	__libc_free(ptr);
}

void _ZdlPvSt11align_val_t(void *ptr, size_t align)
{
	__libc_free(ptr);
}

void _ZdaPvSt11align_val_t(void *ptr, size_t align)
{
	__libc_free(ptr);
}

void _ZdlPvmSt11align_val_t(void *ptr, size_t size, size_t align)
{
	__libc_free(ptr);
}

void _ZdaPvmSt11align_val_t(void *ptr, size_t size, size_t align)
{
	__libc_free(ptr);
}

void _ZdlPvSt11align_val_tRKSt9nothrow_t(void *ptr, size_t align, const void *tag)
{
	__libc_free(ptr);
}

void _ZdaPvSt11align_val_tRKSt9nothrow_t(void *ptr, size_t align, const void *tag)
{
	__libc_free(ptr);
}
