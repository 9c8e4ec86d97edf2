/* common/alloc_info.h - which allocator really serves malloc in this process, found at run time. */
#ifndef ALLOCSPIKE_ALLOC_INFO_H
#define ALLOCSPIKE_ALLOC_INFO_H

#include <stdbool.h>
#include <stddef.h>

struct alloc_info {
	char allocator[32]; /* glibc, jemalloc, tcmalloc, mimalloc, mallocng, unknown */
	char allocator_version[64];
	char libc[16]; /* glibc or musl */
	char libc_version[32];
	char malloc_object[256]; /* the shared object dladdr() finds malloc in, or "static" */
};

/* The function that really serves malloc: malloc itself or, behind the live-bytes counter
 * (common/live_bytes.h), the one the counter forwards to. */
void *alloc_info_malloc_address(void);

/* Fills *info by looking at the running process, never at compile-time macros. */
void alloc_info_detect(struct alloc_info *info);

/* Writes "allocator=A VER libc=L VER malloc=OBJECT", the allocator part of every --version line,
 * into buf; returns buf. */
char *alloc_info_describe(const struct alloc_info *info, char *buf, size_t size);

#endif
