/* preload/glibc_malloc.c - LD_PRELOAD shim that routes malloc and C++ new/delete to glibc's own
 * malloc.
 *
 * Debian's kresd links jemalloc, and jemalloc exports malloc and friends and every C++
 * operator new/delete, so an unmodified kresd can never run on glibc malloc. Preloaded, this
 * object comes first in the symbol search order: every call to malloc and friends from the
 * daemon, its libraries and glibc itself lands here and goes straight to glibc's exported
 * __libc_* entry points, which jemalloc does not interpose. jemalloc stays mapped but idle.
 * jemalloc's own API (mallocx and the other *allocx functions, mallctl*, malloc_stats_print) is
 * answered here too, from glibc's heap, so that no pointer of glibc's ever reaches jemalloc.
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

/* jemalloc's non-standard API, for programs linked with jemalloc that call it directly (Debian's
 * kresd calls malloc_stats_print). The flags: the low six bits are log2 of the alignment
 * (MALLOCX_LG_ALIGN), 0x40 asks for zeroed memory (MALLOCX_ZERO); the tcache and arena bits have
 * no meaning for glibc and are ignored. A size of 0 is undefined in jemalloc; here it is 1. */
#define GLIBC_MALLOC_JE_LG_ALIGN_MASK 0x3f
#define GLIBC_MALLOC_JE_ZERO 0x40

void *mallocx(size_t size, int flags);
void *rallocx(void *ptr, size_t size, int flags);
size_t xallocx(void *ptr, size_t size, size_t extra, int flags);
size_t sallocx(const void *ptr, int flags);
void dallocx(void *ptr, int flags);
void sdallocx(void *ptr, size_t size, int flags);
size_t nallocx(size_t size, int flags);
int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);
int mallctlnametomib(const char *name, size_t *mibp, size_t *miblenp);
int mallctlbymib(const size_t *mib, size_t miblen, void *oldp, size_t *oldlenp, void *newp,
                 size_t newlen);
void malloc_stats_print(void (*write_cb)(void *, const char *), void *cbopaque, const char *opts);

/* The alignment the flags ask for, or 0 when glibc's own (16 bytes) is enough. */
static size_t glibc_malloc_je_align(int flags)
{
	unsigned lg = (unsigned)flags & GLIBC_MALLOC_JE_LG_ALIGN_MASK;
	size_t align = lg ? (size_t)1 << lg : 0;
	return align > _Alignof(max_align_t) ? align : 0;
}

void *mallocx(size_t size, int flags)
{
	size_t align = glibc_malloc_je_align(flags);
	if (size == 0)
		size = 1;
	if (!align)
		return (flags & GLIBC_MALLOC_JE_ZERO) ? __libc_calloc(1, size)
		                                      : __libc_malloc(size);
	void *p = __libc_memalign(align, size);
	if (p && (flags & GLIBC_MALLOC_JE_ZERO))
		memset(p, 0, malloc_usable_size(p));
	return p;
}

/* May move. On failure NULL, and ptr stays valid (as jemalloc's). With MALLOCX_ZERO the bytes
 * beyond the old real size are zeroed, as jemalloc defines it for growing. */
void *rallocx(void *ptr, size_t size, int flags)
{
	size_t align = glibc_malloc_je_align(flags), old = malloc_usable_size(ptr);
	if (size == 0)
		size = 1;
	void *p;
	if (!align) {
		p = __libc_realloc(ptr, size);
	} else if ((uintptr_t)ptr % align == 0 && size <= old) {
		p = ptr; /* shrinking in place keeps the alignment */
	} else {
		/* glibc's realloc keeps only its own alignment when it moves the block. */
		p = __libc_memalign(align, size);
		if (!p)
			return NULL;
		memcpy(p, ptr, size < old ? size : old);
		__libc_free(ptr);
	}
	if (p && (flags & GLIBC_MALLOC_JE_ZERO)) {
		size_t now = malloc_usable_size(p);
		if (now > old)
			memset((char *)p + old, 0, now - old);
	}
	return p;
}

/* Never resizes in place; jemalloc's contract allows that: the real size, smaller than asked. */
size_t xallocx(void *ptr, size_t size, size_t extra, int flags)
{
	return malloc_usable_size(ptr);
}

size_t sallocx(const void *ptr, int flags)
{
	return malloc_usable_size((void *)ptr);
}

void dallocx(void *ptr, int flags)
{
	__libc_free(ptr);
}

void sdallocx(void *ptr, size_t size, int flags)
{
	__libc_free(ptr);
}

/* glibc's real size depends on its dynamic mmap threshold, so answer the size asked: mallocx
 * always gives at least that much, so a caller that writes up to it stays inside the block. */
size_t nallocx(size_t size, int flags)
{
	return size > PTRDIFF_MAX ? 0 : (size ? size : 1);
}

/* glibc has none of jemalloc's controls: every name is unknown, as jemalloc answers for one. */
int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen)
{
	return ENOENT;
}

int mallctlnametomib(const char *name, size_t *mibp, size_t *miblenp)
{
	return ENOENT;
}

int mallctlbymib(const size_t *mib, size_t miblen, void *oldp, size_t *oldlenp, void *newp,
                 size_t newlen)
{
	return ENOENT;
}

void malloc_stats_print(void (*write_cb)(void *, const char *), void *cbopaque, const char *opts)
{
	static const char text[] = "glibc malloc (jemalloc's statistics are not available: "
	                           "liballocspike-glibc-malloc routes allocation to glibc)\n";
	if (write_cb)
		write_cb(cbopaque, text);
	else
		fputs(text, stderr);
}
