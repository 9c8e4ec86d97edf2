/* common/allocators/musl.c - musl's mallocng: no symbols of its own, no statistics call, no
 * settings; its memory is the brk heap and anonymous maps. */
#include "allocator.h"

/* mallocng has no statistics call: its memory is the brk heap and anonymous mappings, which
 * alloc_stats_resident measures; these are their parts. */
static void musl_stats_from_maps(struct alloc_stats *s, const struct anon_maps *m, bool have_maps)
{
	if (!have_maps)
		return;
	alloc_stats_own(s, "brk_heap_rss_bytes", m->brk_kb * 1024);
	alloc_stats_own(s, "brk_heap_size_bytes", m->brk_size_kb * 1024);
	alloc_stats_own(s, "anon_maps", m->unnamed_count);
	alloc_stats_own(s, "anon_maps_rss_bytes", m->unnamed_kb * 1024);
	alloc_stats_own(s, "anon_maps_size_bytes", m->unnamed_size_kb * 1024);
}

const struct allocator_adapter allocator_musl = {
    .name = "mallocng", /* musl's malloc since 1.2.1 */
    .alias = "musl",
    .colour = "#e69f00",
    .words = {"free groups it can release", "which it returns when whole groups are free",
              "free slots of groups still in use", "which stay while a slot of their group lives",
              "metadata", NULL, "held by mallocng (no breakdown)",
              "mallocng has no statistics call"},
    .stats_from_maps = musl_stats_from_maps,
};
