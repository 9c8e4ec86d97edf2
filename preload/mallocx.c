/* preload/mallocx.c - LD_PRELOAD adapter: jemalloc's non-standard allocation API (mallocx and
 * friends) served by whatever allocator serves malloc.
 *
 * Debian's BIND 9.18 is built with jemalloc, and its memory contexts (libisc) allocate through
 * mallocx, rallocx, sallocx and sdallocx, not malloc. Preloading another allocator, or the glibc
 * routing shim, changes malloc but leaves those calls in jemalloc: the row would measure a mix.
 * Preloaded after the row's allocator, the definitions below come before jemalloc's in symbol
 * lookup and call malloc, posix_memalign, realloc, free and malloc_usable_size, which resolve to
 * the row's allocator (the shim's glibc, tcmalloc, mimalloc). Stateless, so thread-safe.
 *
 * The mallctl family is left alone: control calls (BIND creates arenas and sets their decay
 * times) still reach jemalloc, which stays mapped and serves no allocation. The arena and
 * thread-cache bits of the flags are therefore ignored; alignment and zeroing are honoured. */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* jemalloc's flag layout (its public header, stable since 3.0): log2 of the alignment in the
 * low six bits, then the zero bit. */
#define MALLOCX_ADAPTER_LG_ALIGN_MASK 0x3f
#define MALLOCX_ADAPTER_ZERO 0x40

void *mallocx(size_t size, int flags);
void *rallocx(void *ptr, size_t size, int flags);
size_t xallocx(void *ptr, size_t size, size_t extra, int flags);
size_t sallocx(const void *ptr, int flags);
void dallocx(void *ptr, int flags);
void sdallocx(void *ptr, size_t size, int flags);
size_t nallocx(size_t size, int flags);

/* The alignment the flags ask for beyond what malloc already guarantees, or 0. */
static size_t mallocx_adapter_alignment(int flags)
{
	int lg = flags & MALLOCX_ADAPTER_LG_ALIGN_MASK;
	size_t align = lg ? (size_t)1 << lg : 0;
	return align > alignof(max_align_t) ? align : 0;
}

/* jemalloc zeroes up to the real size of the block, so a later growth knows where zeros start. */
static void mallocx_adapter_zero_from(void *ptr, size_t from)
{
	size_t usable = malloc_usable_size(ptr);
	if (usable > from)
		memset((char *)ptr + from, 0, usable - from);
}

void *mallocx(size_t size, int flags)
{
	size_t align = mallocx_adapter_alignment(flags);
	void *ptr = NULL;
	if (align) {
		if (posix_memalign(&ptr, align, size) != 0)
			return NULL;
	} else {
		ptr = malloc(size);
	}
	if (ptr && (flags & MALLOCX_ADAPTER_ZERO))
		mallocx_adapter_zero_from(ptr, 0);
	return ptr;
}

void *rallocx(void *ptr, size_t size, int flags)
{
	size_t old = malloc_usable_size(ptr);
	void *moved;
	if (mallocx_adapter_alignment(flags)) {
		/* realloc keeps only malloc's alignment: move by hand. */
		moved = mallocx(size, flags & ~MALLOCX_ADAPTER_ZERO);
		if (!moved)
			return NULL;
		memcpy(moved, ptr, old < size ? old : size);
		free(ptr);
	} else {
		moved = realloc(ptr, size);
		if (!moved)
			return NULL;
	}
	if (flags & MALLOCX_ADAPTER_ZERO)
		mallocx_adapter_zero_from(moved, old);
	return moved;
}

/* Resizing in place is optional in jemalloc's contract: the real size is returned unchanged
 * and the caller sees whether it suffices. */
size_t xallocx(void *ptr, size_t size, size_t extra, int flags)
{
	(void)size;
	(void)extra;
	(void)flags;
	return malloc_usable_size(ptr);
}

size_t sallocx(const void *ptr, int flags)
{
	(void)flags;
	return malloc_usable_size((void *)ptr);
}

void dallocx(void *ptr, int flags)
{
	(void)flags;
	free(ptr);
}

void sdallocx(void *ptr, size_t size, int flags)
{
	(void)size;
	(void)flags;
	free(ptr);
}

/* The real size mallocx would give: only the allocator knows, so ask it with a real block. */
size_t nallocx(size_t size, int flags)
{
	void *ptr = mallocx(size, flags & ~MALLOCX_ADAPTER_ZERO);
	if (!ptr)
		return 0;
	size_t real = malloc_usable_size(ptr);
	free(ptr);
	return real;
}
