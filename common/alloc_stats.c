/* common/alloc_stats.c - the `alloc` object: the allocator's own statistics (its adapter in
 * common/allocators/ maps them onto the generic figures; every field: docs/allocator-stats.md),
 * the resident heap measured from the maps, and the object's JSON. */
#define _GNU_SOURCE
#include "alloc_stats.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "allocators/allocator.h"
#include "anon_maps.h"
#include "proc_sample.h"

void alloc_stats_own(struct alloc_stats *s, const char *name, long long value)
{
	if (s->own_count < ALLOC_STATS_MAX_OWN)
		s->own[s->own_count++] = (struct alloc_stats_field){name, value};
}

long long alloc_stats_diff(long long a, long long b)
{
	return a >= b ? a - b : 0;
}

void alloc_stats_maps_parts(struct alloc_stats *s, const struct anon_maps *m, bool have_maps)
{
	if (!have_maps)
		return;
	alloc_stats_own(s, "brk_heap_rss_bytes", m->brk_kb * 1024);
	alloc_stats_own(s, "brk_heap_size_bytes", m->brk_size_kb * 1024);
	alloc_stats_own(s, "anon_maps", m->unnamed_count);
	alloc_stats_own(s, "anon_maps_rss_bytes", m->unnamed_kb * 1024);
	alloc_stats_own(s, "anon_maps_size_bytes", m->unnamed_size_kb * 1024);
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

void alloc_stats_read(const struct alloc_info *info, struct alloc_stats *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->allocator, sizeof(out->allocator), "%s", info->allocator);
	out->heap = out->free_trimmable = out->free_fragmented = out->unmapped = out->allocated =
	    ALLOC_STATS_UNKNOWN;
	const struct allocator_adapter *a = allocator_by_name(info->allocator);
	if (a && a->stats)
		a->stats(out);
	/* after the allocator's own calls, which may map memory themselves */
	struct anon_maps maps;
	bool have_maps = anon_maps_read(&maps);
	if (a && a->stats_from_maps)
		a->stats_from_maps(out, &maps, have_maps);
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
