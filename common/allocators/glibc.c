/* common/allocators/glibc.c - glibc's ptmalloc2: mallinfo2(), the tunables, malloc_trim. */
#define _GNU_SOURCE
#include "allocator.h"

#include <stdio.h>
#include <string.h>

#include "alloc_symbols.h"
#include "glibc_tunables.h"

static bool glibc_serves_object(const char *base)
{
	return strncmp(base, "libc.so", 7) == 0 || strncmp(base, "libc-", 5) == 0;
}

static bool glibc_present(void)
{
	return gnu_get_libc_version != NULL;
}

static void glibc_version(char *buf, size_t size)
{
	if (gnu_get_libc_version)
		snprintf(buf, size, "%s", gnu_get_libc_version());
}

static void glibc_stats(struct alloc_stats *s)
{
	if (!mallinfo2)
		return;
	struct alloc_symbols_mallinfo2 mi = mallinfo2();
	/* keepcost is the top chunk: the free space at the end of the main heap that malloc_trim
	 * (or the automatic trim) can give back; every other free byte sits below a live chunk. */
	s->heap = (long long)(mi.arena + mi.hblkhd);
	s->allocated = (long long)(mi.uordblks + mi.hblkhd);
	s->free_trimmable = (long long)mi.keepcost;
	s->free_fragmented = alloc_stats_diff((long long)mi.fordblks, (long long)mi.keepcost);
	s->unmapped = 0;
	alloc_stats_own(s, "arena", (long long)mi.arena);
	alloc_stats_own(s, "ordblks", (long long)mi.ordblks);
	alloc_stats_own(s, "smblks", (long long)mi.smblks);
	alloc_stats_own(s, "hblks", (long long)mi.hblks);
	alloc_stats_own(s, "hblkhd", (long long)mi.hblkhd);
	alloc_stats_own(s, "fsmblks", (long long)mi.fsmblks);
	alloc_stats_own(s, "uordblks", (long long)mi.uordblks);
	alloc_stats_own(s, "fordblks", (long long)mi.fordblks);
	alloc_stats_own(s, "keepcost", (long long)mi.keepcost);
	alloc_stats_own(s, "top_chunk_bytes", (long long)mi.keepcost);
	alloc_stats_own(s, "free_below_top_bytes", s->free_fragmented);
}

static bool glibc_can_trim(void)
{
	return malloc_trim != NULL;
}

static void glibc_trim(void)
{
	malloc_trim(0);
}

const struct allocator_adapter allocator_glibc = {
    .name = "glibc",
    .colour = "#0072b2",
    .words = {"the top chunk", "which malloc_trim could return", "free chunks below the top chunk",
              "which free() cannot trim (it only shrinks the top chunk)",
              "chunk headers and padding", NULL, "held by glibc malloc (no breakdown)",
              "the run recorded no breakdown"},
    .cpu = {.files = "/malloc/(malloc|arena|hooks|morecore)\\.c",
            .functions = "__libc_(malloc|free|calloc|realloc|memalign)|_int_[a-z_]+|"
                         "malloc_consolidate|sysmalloc|systrim|unlink_chunk|tcache_[a-z_]+|"
                         "ptmalloc_init.*|alloc_perturb|__malloc_[a-z_]+"},
    /* glibc lists every tunable, and one nobody set as 0 */
    .env = {"GLIBC_TUNABLES", ':', '=', "", "an unset tunable"},
    .serves_object = glibc_serves_object,
    .present = glibc_present,
    .version = glibc_version,
    .stats = glibc_stats,
    .settings = glibc_tunables_read,
    .can_trim = glibc_can_trim,
    .trim = glibc_trim,
};
