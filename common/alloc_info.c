/* common/alloc_info.c - allocator detection: dladdr(malloc) first, then each allocator's own
 * symbols.
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
#include "live_bytes.h"

static const char *alloc_info_from_object(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (strstr(base, "jemalloc"))
		return "jemalloc";
	if (strstr(base, "tcmalloc"))
		return "tcmalloc";
	if (strstr(base, "mimalloc"))
		return "mimalloc";
	if (strncmp(base, "libc.so", 7) == 0 || strncmp(base, "libc-", 5) == 0)
		return "glibc";
	return NULL;
}

static const char *alloc_info_from_symbols(void)
{
	if (mi_version)
		return "mimalloc";
	if (tc_version)
		return "tcmalloc";
	if (mallctl)
		return "jemalloc";
	if (gnu_get_libc_version)
		return "glibc";
	return "mallocng"; /* musl: no glibc symbols; mallocng is musl's malloc since 1.2.1 */
}

static void alloc_info_version(struct alloc_info *info)
{
	const char *name = info->allocator;
	snprintf(info->allocator_version, sizeof(info->allocator_version), "unknown");
	if (strcmp(name, "jemalloc") == 0 && mallctl) {
		const char *v = NULL;
		size_t len = sizeof(v);
		if (mallctl("version", &v, &len, NULL, 0) == 0 && v)
			snprintf(info->allocator_version, sizeof(info->allocator_version), "%s", v);
	} else if (strcmp(name, "tcmalloc") == 0 && tc_version) {
		int major = 0, minor = 0;
		const char *patch = "";
		tc_version(&major, &minor, &patch);
		snprintf(info->allocator_version, sizeof(info->allocator_version), "%d.%d%s", major,
		         minor, patch ? patch : "");
	} else if (strcmp(name, "mimalloc") == 0 && mi_version) {
		int v = mi_version();
		snprintf(info->allocator_version, sizeof(info->allocator_version), "%d.%d.%d",
		         v / 100, (v / 10) % 10, v % 10);
	} else if (strcmp(name, "glibc") == 0 && gnu_get_libc_version) {
		snprintf(info->allocator_version, sizeof(info->allocator_version), "%s",
		         gnu_get_libc_version());
	}
}

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

	const char *by_object = NULL;
	Dl_info dl;
	if (dladdr(alloc_info_malloc_address(), &dl) != 0 && dl.dli_fname) {
		snprintf(info->malloc_object, sizeof(info->malloc_object), "%s", dl.dli_fname);
		by_object = alloc_info_from_object(dl.dli_fname);
	} else {
		snprintf(info->malloc_object, sizeof(info->malloc_object), "static");
	}
	/* An executable linked statically against an allocator names itself: fall back to symbols.
	 */
	snprintf(info->allocator, sizeof(info->allocator), "%s",
	         by_object ? by_object : alloc_info_from_symbols());
	alloc_info_version(info);
}

char *alloc_info_describe(const struct alloc_info *info, char *buf, size_t size)
{
	snprintf(buf, size, "allocator=%s %s libc=%s %s malloc=%s", info->allocator,
	         info->allocator_version, info->libc, info->libc_version, info->malloc_object);
	return buf;
}
