/* common/allocators/jemalloc.c - jemalloc: mallctl for its version, statistics, options and the
 * purge of every arena. */
#define _GNU_SOURCE
#include "allocator.h"

#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "alloc_symbols.h"

/* jemalloc's index for "all arenas merged" (MALLCTL_ARENAS_ALL in jemalloc.h). */
#define JEMALLOC_ALL_ARENAS "4096"

static bool jemalloc_serves_object(const char *base)
{
	return strstr(base, "jemalloc") != NULL;
}

static bool jemalloc_present(void)
{
	return mallctl != NULL;
}

static void jemalloc_version(char *buf, size_t size)
{
	const char *v = NULL;
	size_t len = sizeof(v);
	if (mallctl && mallctl("version", &v, &len, NULL, 0) == 0 && v)
		snprintf(buf, size, "%s", v);
}

static bool jemalloc_size(const char *name, long long *out)
{
	size_t v = 0, len = sizeof(v);
	if (mallctl(name, &v, &len, NULL, 0) != 0)
		return false;
	*out = (long long)v;
	return true;
}

static bool jemalloc_ssize(const char *name, long long *out)
{
	ssize_t v = 0;
	size_t len = sizeof(v);
	if (mallctl(name, &v, &len, NULL, 0) != 0)
		return false;
	*out = (long long)v;
	return true;
}

static void jemalloc_stats(struct alloc_stats *s)
{
	if (!mallctl)
		return;
	/* Statistics are a snapshot per epoch; bumping it refreshes them. */
	unsigned long long epoch = 1;
	size_t len = sizeof(epoch);
	mallctl("epoch", &epoch, &len, &epoch, len);
	long long allocated, active, metadata, resident, mapped, retained, pdirty, pmuzzy, page;
	long long dirty_ms, muzzy_ms;
	if (!jemalloc_size("stats.allocated", &allocated) ||
	    !jemalloc_size("stats.active", &active) || !jemalloc_size("stats.resident", &resident))
		return; /* built without statistics */
	s->allocated = allocated;
	s->heap = resident;
	s->free_fragmented = alloc_stats_diff(active, allocated);
	alloc_stats_own(s, "allocated", allocated);
	/* Objects freed into a thread cache still count as allocated: free space all the same. */
	long long tcache;
	if (jemalloc_size("stats.arenas." JEMALLOC_ALL_ARENAS ".tcache_bytes", &tcache)) {
		alloc_stats_own(s, "tcache_bytes", tcache);
		s->free_fragmented += tcache;
	}
	alloc_stats_own(s, "active", active);
	if (jemalloc_size("stats.metadata", &metadata))
		alloc_stats_own(s, "metadata", metadata);
	alloc_stats_own(s, "resident", resident);
	if (jemalloc_size("stats.mapped", &mapped))
		alloc_stats_own(s, "mapped", mapped);
	if (jemalloc_size("stats.retained", &retained)) {
		s->unmapped = retained;
		alloc_stats_own(s, "retained", retained);
	}
	if (jemalloc_size("arenas.page", &page) &&
	    jemalloc_size("stats.arenas." JEMALLOC_ALL_ARENAS ".pdirty", &pdirty) &&
	    jemalloc_size("stats.arenas." JEMALLOC_ALL_ARENAS ".pmuzzy", &pmuzzy)) {
		s->free_trimmable = (pdirty + pmuzzy) * page;
		/* MADV_FREE'd (muzzy) pages stay in RSS until the kernel needs them, but jemalloc's
		 * resident leaves them out. */
		s->heap = resident + pmuzzy * page;
		alloc_stats_own(s, "dirty_bytes", pdirty * page);
		alloc_stats_own(s, "muzzy_bytes", pmuzzy * page);
	}
	if (jemalloc_ssize("arenas.dirty_decay_ms", &dirty_ms))
		alloc_stats_own(s, "dirty_decay_ms", dirty_ms);
	if (jemalloc_ssize("arenas.muzzy_decay_ms", &muzzy_ms))
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

static void jemalloc_settings(struct alloc_settings_out *o)
{
	if (!mallctl)
		return;
	static const char *const decays[] = {"opt.dirty_decay_ms", "opt.muzzy_decay_ms"};
	for (size_t i = 0; i < 2; i++) {
		ssize_t v;
		size_t len = sizeof(v);
		if (mallctl(decays[i], &v, &len, NULL, 0) == 0)
			alloc_settings_put(o, decays[i], (double)v, ALLOC_SETTING_NUMBER);
	}
	static const char *const flags[] = {"opt.background_thread", "opt.retain", "opt.tcache",
	                                    "background_thread"};
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		bool v;
		size_t len = sizeof(v);
		if (mallctl(flags[i], &v, &len, NULL, 0) == 0)
			alloc_settings_put(o, flags[i], v, ALLOC_SETTING_BOOL);
	}
	unsigned narenas;
	size_t len = sizeof(narenas);
	if (mallctl("opt.narenas", &narenas, &len, NULL, 0) == 0)
		alloc_settings_put(o, "opt.narenas", narenas, ALLOC_SETTING_NUMBER);
}

static void jemalloc_trim(void)
{
	mallctl("arena." JEMALLOC_ALL_ARENAS ".purge", NULL, NULL, NULL, 0);
}

const struct allocator_adapter allocator_jemalloc = {
    .name = "jemalloc",
    .colour = "#d55e00",
    .words = {"dirty and muzzy pages awaiting decay", "which decay returns in its time",
              "free regions of active pages",
              "which cannot be purged while other regions of their pages live",
              "metadata and page rounding", "retained", "held by jemalloc (no breakdown)",
              "the run recorded no breakdown"},
    .cpu = {.objects = "libjemalloc", .functions = "je_[a-z_0-9]+"},
    /* MALLOC_CONF=k:v,... sets the options mallctl reads back as opt.k */
    .env = {"MALLOC_CONF", ',', ':', "opt.", NULL},
    .serves_object = jemalloc_serves_object,
    .present = jemalloc_present,
    .version = jemalloc_version,
    .stats = jemalloc_stats,
    .settings = jemalloc_settings,
    .can_trim = jemalloc_present,
    .trim = jemalloc_trim,
};
