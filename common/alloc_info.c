/* common/alloc_info.c - allocator detection: dladdr(malloc) first, then each allocator's own
 * symbols (the adapters in common/allocators/ say which are theirs).
 *
 * Weak references resolve to whatever the dynamic linker bound, including LD_PRELOADed objects, so
 * the same code is right for allocators linked at build time and preloaded ones. */
#define _GNU_SOURCE
#include "alloc_info.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_symbols.h"
#include "allocators/allocator.h"
#include "live_bytes.h"

void *alloc_info_malloc_address(void)
{
	/* Behind the live-bytes counter (common/live_bytes.c), the function it forwards to. */
	if (live_bytes_next_malloc && live_bytes_next_malloc())
		return live_bytes_next_malloc();
	void *(*volatile malloc_ptr)(size_t) = malloc;
	return (void *)malloc_ptr;
}

void alloc_info_detect(struct alloc_info *info)
{
	memset(info, 0, sizeof(*info));
	if (gnu_get_libc_version) {
		snprintf(info->libc, sizeof(info->libc), "glibc");
		snprintf(info->libc_version, sizeof(info->libc_version), "%s",
		         gnu_get_libc_version());
	} else {
		snprintf(info->libc, sizeof(info->libc), "musl");
		snprintf(info->libc_version, sizeof(info->libc_version), "unknown");
	}

	const char *object = NULL;
	Dl_info dl;
	if (dladdr(alloc_info_malloc_address(), &dl) != 0 && dl.dli_fname) {
		snprintf(info->malloc_object, sizeof(info->malloc_object), "%s", dl.dli_fname);
		object = dl.dli_fname;
	} else {
		snprintf(info->malloc_object, sizeof(info->malloc_object), "static");
	}
	const struct allocator_adapter *a = allocator_detect(object);
	snprintf(info->allocator, sizeof(info->allocator), "%s", a->name);
	snprintf(info->allocator_version, sizeof(info->allocator_version), "unknown");
	if (a->version)
		a->version(info->allocator_version, sizeof(info->allocator_version));
}

char *alloc_info_describe(const struct alloc_info *info, char *buf, size_t size)
{
	snprintf(buf, size, "allocator=%s %s libc=%s %s malloc=%s", info->allocator,
	         info->allocator_version, info->libc, info->libc_version, info->malloc_object);
	return buf;
}
