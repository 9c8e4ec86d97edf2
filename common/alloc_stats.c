/* common/alloc_stats.c - reads each allocator's own statistics and maps them onto the generic
 * figures (the mapping and every field: docs/allocator-stats.md). */
#define _GNU_SOURCE
#include "alloc_stats.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "alloc_symbols.h"
#include "anon_maps.h"
#include "proc_sample.h"

/* jemalloc's index for "all arenas merged" (MALLCTL_ARENAS_ALL in jemalloc.h). */
#define ALLOC_STATS_JE_ALL "4096"

static void alloc_stats_own(struct alloc_stats *s, const char *name, long long value)
{
	if (s->own_count < ALLOC_STATS_MAX_OWN)
		s->own[s->own_count++] = (struct alloc_stats_field){name, value};
}

static long long alloc_stats_diff(long long a, long long b)
{
	return a >= b ? a - b : 0;
}

/* The allocator's resident heap: what its maps hold in RAM (anon_maps), or its own footprint
 * figure where that is smaller. Both are measured and both are upper bounds of what it holds: the
 * maps also hold anonymous memory another part of the program mapped itself (a Lua heap, the
 * loader's blocks), the allocator's own figure counts pages it never touched or advised away. The
 * smaller is the closer bound; both stay in own (docs/allocator-stats.md, "Resident heap"). */
static void alloc_stats_resident(struct alloc_stats *s, const struct anon_maps *m, bool have_maps)
{
	if (s->heap != ALLOC_STATS_UNKNOWN)
		alloc_stats_own(s, "heap_uncapped_bytes", s->heap);
	if (!have_maps)
		return;
	long long maps = anon_maps_allocator_kb(m) * 1024;
	alloc_stats_own(s, "heap_maps_bytes", maps);
	alloc_stats_own(s, "outside_objects_bytes", m->objects_kb * 1024);
	alloc_stats_own(s, "outside_stacks_bytes", m->stacks_kb * 1024);
	alloc_stats_own(s, "outside_special_bytes", m->special_kb * 1024);
	long anon_kb = proc_self_anon_kb(); /* the kernel's own count, read right after the maps */
	if (anon_kb >= 0)
		alloc_stats_own(s, "anon_rss_bytes", (long long)anon_kb * 1024);
	if (s->heap == ALLOC_STATS_UNKNOWN || maps < s->heap)
		s->heap = maps;
}

static void alloc_stats_glibc(struct alloc_stats *s)
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

static bool alloc_stats_je_size(const char *name, long long *out)
{
	size_t v = 0, len = sizeof(v);
	if (mallctl(name, &v, &len, NULL, 0) != 0)
		return false;
	*out = (long long)v;
	return true;
}

static bool alloc_stats_je_ssize(const char *name, long long *out)
{
	ssize_t v = 0;
	size_t len = sizeof(v);
	if (mallctl(name, &v, &len, NULL, 0) != 0)
		return false;
	*out = (long long)v;
	return true;
}

static void alloc_stats_jemalloc(struct alloc_stats *s)
{
	if (!mallctl)
		return;
	/* Statistics are a snapshot per epoch; bumping it refreshes them. */
	unsigned long long epoch = 1;
	size_t len = sizeof(epoch);
	mallctl("epoch", &epoch, &len, &epoch, len);
	long long allocated, active, metadata, resident, mapped, retained, pdirty, pmuzzy, page;
	long long dirty_ms, muzzy_ms;
	if (!alloc_stats_je_size("stats.allocated", &allocated) ||
	    !alloc_stats_je_size("stats.active", &active) ||
	    !alloc_stats_je_size("stats.resident", &resident))
		return; /* built without statistics */
	s->allocated = allocated;
	s->heap = resident;
	s->free_fragmented = alloc_stats_diff(active, allocated);
	alloc_stats_own(s, "allocated", allocated);
	/* Objects freed into a thread cache still count as allocated: free space all the same. */
	long long tcache;
	if (alloc_stats_je_size("stats.arenas." ALLOC_STATS_JE_ALL ".tcache_bytes", &tcache)) {
		alloc_stats_own(s, "tcache_bytes", tcache);
		s->free_fragmented += tcache;
	}
	alloc_stats_own(s, "active", active);
	if (alloc_stats_je_size("stats.metadata", &metadata))
		alloc_stats_own(s, "metadata", metadata);
	alloc_stats_own(s, "resident", resident);
	if (alloc_stats_je_size("stats.mapped", &mapped))
		alloc_stats_own(s, "mapped", mapped);
	if (alloc_stats_je_size("stats.retained", &retained)) {
		s->unmapped = retained;
		alloc_stats_own(s, "retained", retained);
	}
	if (alloc_stats_je_size("arenas.page", &page) &&
	    alloc_stats_je_size("stats.arenas." ALLOC_STATS_JE_ALL ".pdirty", &pdirty) &&
	    alloc_stats_je_size("stats.arenas." ALLOC_STATS_JE_ALL ".pmuzzy", &pmuzzy)) {
		s->free_trimmable = (pdirty + pmuzzy) * page;
		/* MADV_FREE'd (muzzy) pages stay in RSS until the kernel needs them, but jemalloc's
		 * resident leaves them out. */
		s->heap = resident + pmuzzy * page;
		alloc_stats_own(s, "dirty_bytes", pdirty * page);
		alloc_stats_own(s, "muzzy_bytes", pmuzzy * page);
	}
	if (alloc_stats_je_ssize("arenas.dirty_decay_ms", &dirty_ms))
		alloc_stats_own(s, "dirty_decay_ms", dirty_ms);
	if (alloc_stats_je_ssize("arenas.muzzy_decay_ms", &muzzy_ms))
		alloc_stats_own(s, "muzzy_decay_ms", muzzy_ms);
	unsigned narenas = 0;
	len = sizeof(narenas);
	if (mallctl("arenas.narenas", &narenas, &len, NULL, 0) == 0)
		alloc_stats_own(s, "narenas", (long long)narenas);
	bool bg = false;
	len = sizeof(bg);
	if (mallctl("background_thread", &bg, &len, NULL, 0) == 0)
		alloc_stats_own(s, "background_thread", bg);
}

static bool alloc_stats_tc(struct alloc_stats *s, const char *property, const char *own,
                           long long *out)
{
	size_t v = 0;
	if (!MallocExtension_GetNumericProperty(property, &v))
		return false;
	*out = (long long)v;
	alloc_stats_own(s, own, *out);
	return true;
}

static void alloc_stats_tcmalloc(struct alloc_stats *s)
{
	if (!MallocExtension_GetNumericProperty)
		return;
	long long allocated, heap_size, physical, free, unmapped, central = 0, transfer = 0,
	                                                          thread = 0;
	if (alloc_stats_tc(s, "generic.current_allocated_bytes", "current_allocated_bytes",
	                   &allocated))
		s->allocated = allocated;
	alloc_stats_tc(s, "generic.heap_size", "heap_size", &heap_size);
	/* heap_size less its unmapped pages, plus tcmalloc's metadata (spans, caches, page map):
	 * everything it maps, as jemalloc's resident counts its metadata too */
	if (alloc_stats_tc(s, "generic.total_physical_bytes", "total_physical_bytes", &physical))
		s->heap = physical;
	if (alloc_stats_tc(s, "tcmalloc.pageheap_free_bytes", "pageheap_free_bytes", &free))
		s->free_trimmable = free;
	if (alloc_stats_tc(s, "tcmalloc.pageheap_unmapped_bytes", "pageheap_unmapped_bytes",
	                   &unmapped))
		s->unmapped = unmapped;
	bool caches = alloc_stats_tc(s, "tcmalloc.central_cache_free_bytes",
	                             "central_cache_free_bytes", &central);
	caches &= alloc_stats_tc(s, "tcmalloc.transfer_cache_free_bytes",
	                         "transfer_cache_free_bytes", &transfer);
	caches &= alloc_stats_tc(s, "tcmalloc.thread_cache_free_bytes", "thread_cache_free_bytes",
	                         &thread);
	if (caches)
		s->free_fragmented = central + transfer + thread;
	long long v;
	alloc_stats_tc(s, "tcmalloc.max_total_thread_cache_bytes", "max_total_thread_cache_bytes",
	               &v);
}

static void alloc_stats_mimalloc(struct alloc_stats *s)
{
	if (!mi_process_info)
		return;
	size_t elapsed, user, sys, rss, peak_rss, commit, peak_commit, faults;
	mi_process_info(&elapsed, &user, &sys, &rss, &peak_rss, &commit, &peak_commit, &faults);
	/* Without its statistics build mimalloc counts no live bytes and no free pages: only what
	 * it has committed from the OS. */
	s->heap = (long long)commit;
	alloc_stats_own(s, "committed", (long long)commit);
	alloc_stats_own(s, "peak_committed", (long long)peak_commit);
	alloc_stats_own(s, "process_rss", (long long)rss);
	alloc_stats_own(s, "process_peak_rss", (long long)peak_rss);
	alloc_stats_own(s, "page_faults", (long long)faults);
}

/* mallocng has no statistics call: its memory is the brk heap and anonymous mappings, which
 * alloc_stats_resident measures; these are their parts. */
static void alloc_stats_mallocng(struct alloc_stats *s, const struct anon_maps *m, bool have_maps)
{
	if (!have_maps)
		return;
	alloc_stats_own(s, "brk_heap_rss_bytes", m->brk_kb * 1024);
	alloc_stats_own(s, "brk_heap_size_bytes", m->brk_size_kb * 1024);
	alloc_stats_own(s, "anon_maps", m->unnamed_count);
	alloc_stats_own(s, "anon_maps_rss_bytes", m->unnamed_kb * 1024);
	alloc_stats_own(s, "anon_maps_size_bytes", m->unnamed_size_kb * 1024);
}

void alloc_stats_read(const struct alloc_info *info, struct alloc_stats *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->allocator, sizeof(out->allocator), "%s", info->allocator);
	out->heap = out->free_trimmable = out->free_fragmented = out->unmapped = out->allocated =
	    ALLOC_STATS_UNKNOWN;
	const char *name = info->allocator;
	if (strcmp(name, "glibc") == 0)
		alloc_stats_glibc(out);
	else if (strcmp(name, "jemalloc") == 0)
		alloc_stats_jemalloc(out);
	else if (strcmp(name, "tcmalloc") == 0)
		alloc_stats_tcmalloc(out);
	else if (strcmp(name, "mimalloc") == 0)
		alloc_stats_mimalloc(out);
	/* after the allocator's own calls, which may map memory themselves */
	struct anon_maps maps;
	bool have_maps = anon_maps_read(&maps);
	if (strcmp(name, "mallocng") == 0)
		alloc_stats_mallocng(out, &maps, have_maps);
	alloc_stats_resident(out, &maps, have_maps);
}

/* Appends to buf like snprintf; *len goes past size when it does not fit. */
static void alloc_stats_put(char *buf, size_t size, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void alloc_stats_put(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(*len < size ? buf + *len : NULL, *len < size ? size - *len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t)n;
}

static void alloc_stats_put_generic(char *buf, size_t size, size_t *len, const char *key,
                                    long long v)
{
	if (v == ALLOC_STATS_UNKNOWN)
		alloc_stats_put(buf, size, len, ",\"%s\":null", key);
	else
		alloc_stats_put(buf, size, len, ",\"%s\":%lld", key, v);
}

size_t alloc_stats_json(const struct alloc_stats *s, char *buf, size_t size)
{
	size_t len = 0;
	/* allocator names are our own fixed words (alloc_info), no escaping needed */
	alloc_stats_put(buf, size, &len, "{\"allocator\":\"%s\"", s->allocator);
	alloc_stats_put_generic(buf, size, &len, "heap_bytes", s->heap);
	alloc_stats_put_generic(buf, size, &len, "free_trimmable_bytes", s->free_trimmable);
	alloc_stats_put_generic(buf, size, &len, "free_fragmented_bytes", s->free_fragmented);
	alloc_stats_put_generic(buf, size, &len, "unmapped_bytes", s->unmapped);
	alloc_stats_put_generic(buf, size, &len, "allocated_bytes", s->allocated);
	alloc_stats_put(buf, size, &len, ",\"own\":{");
	for (unsigned i = 0; i < s->own_count; i++)
		alloc_stats_put(buf, size, &len, "%s\"%s\":%lld", i ? "," : "", s->own[i].name,
		                s->own[i].value);
	alloc_stats_put(buf, size, &len, "}}");
	return len < size ? len : 0;
}
