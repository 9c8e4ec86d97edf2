/* common/allocators/tbbmalloc.c - oneTBB's scalable allocator, preloaded through its proxy library
 * (libtbbmalloc_proxy.so.2): no statistics call (the proxy's mallinfo answers zeros) and no call
 * that reports its settings, so its memory is what the maps measure; scalable_allocation_command
 * returns its cached memory; the version is the one its library prints under TBB_VERSION=1. */
#define _GNU_SOURCE
#include "allocator.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<oneapi/tbb/scalable_allocator.h>)
#include <oneapi/tbb/scalable_allocator.h>
#define TBBMALLOC_HEADER 1
#endif
#endif

extern void *scalable_malloc(size_t size) __attribute__((weak));
extern int scalable_allocation_command(int cmd, void *param) __attribute__((weak));
/* exported by the proxy alone: bound when the proxy replaces malloc */
extern void __TBB_malloc_proxy(void) __attribute__((weak));

/* The line the library prints as "TBBmalloc: VERSION\t\t2021.8". */
#define TBBMALLOC_VERSION_TAG "TBBmalloc: VERSION"
#define TBBMALLOC_VERSION_MAX 32

static bool tbbmalloc_serves_object(const char *base)
{
	return strstr(base, "tbbmalloc") != NULL;
}

static bool tbbmalloc_present(void)
{
	return __TBB_malloc_proxy != NULL;
}

/* Copies the version that follows the tag at p (at most end) into buf. */
static void tbbmalloc_version_copy(const char *p, const char *end, char *buf, size_t size)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	size_t n = 0;
	while (p + n < end && n < TBBMALLOC_VERSION_MAX &&
	       (p[n] == '.' || (p[n] >= '0' && p[n] <= '9')))
		n++;
	if (n > 0)
		snprintf(buf, size, "%.*s", (int)n, p);
}

/* tbbmalloc has no version call: the library's own version line, read from its file (dladdr of
 * scalable_malloc), in chunks on the stack (nothing allocated). */
static void tbbmalloc_version(char *buf, size_t size)
{
	Dl_info dl;
	if (!scalable_malloc || dladdr((void *)scalable_malloc, &dl) == 0 || !dl.dli_fname)
		return;
	int fd = open(dl.dli_fname, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	const size_t tag_len = strlen(TBBMALLOC_VERSION_TAG);
	const size_t tail = tag_len + TBBMALLOC_VERSION_MAX + 8; /* the tag, blanks, the version */
	char chunk[16384];
	size_t kept = 0;
	ssize_t n;
	while ((n = read(fd, chunk + kept, sizeof(chunk) - kept)) > 0) {
		size_t len = kept + (size_t)n;
		const char *tag = memmem(chunk, len, TBBMALLOC_VERSION_TAG, tag_len);
		if (tag && (size_t)(chunk + len - tag) >= tail) {
			tbbmalloc_version_copy(tag + tag_len, chunk + len, buf, size);
			break;
		}
		/* keep what could hold the tag or its version for the next read */
		const char *from = tag ? tag : chunk + (len > tail ? len - tail : 0);
		kept = (size_t)(chunk + len - from);
		memmove(chunk, from, kept);
	}
	close(fd);
}

#ifdef TBBMALLOC_HEADER
static bool tbbmalloc_can_trim(void)
{
	return scalable_allocation_command != NULL;
}

static void tbbmalloc_trim(void)
{
	scalable_allocation_command(TBBMALLOC_CLEAN_ALL_BUFFERS, NULL);
}
#endif

const struct allocator_adapter allocator_tbbmalloc = {
    .name = "tbbmalloc",
    .colour = "#56b4e9",
    .words = {"cached large objects and free backend memory",
              "which TBBMALLOC_CLEAN_ALL_BUFFERS returns",
              "free objects of blocks still in use, and thread caches",
              "which stay while an object of their block lives", "metadata and page rounding", NULL,
              "held by tbbmalloc (no breakdown)", "tbbmalloc has no statistics call"},
    .cpu = {.objects = "libtbbmalloc", .functions = "scalable_[a-z_]+|__TBB_malloc_[a-z_]+"},
    .serves_object = tbbmalloc_serves_object,
    .present = tbbmalloc_present,
    .version = tbbmalloc_version,
    .stats_from_maps = alloc_stats_maps_parts,
#ifdef TBBMALLOC_HEADER
    .can_trim = tbbmalloc_can_trim,
    .trim = tbbmalloc_trim,
#endif
};
