/* common/allocators/tcmalloc.c - gperftools' tcmalloc: its numeric properties for statistics and
 * settings, and the release rate only its C++ interface reports. */
#include "allocator.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc_symbols.h"

/* gperftools: the release rate, which only the C++ interface reports
 * (TCMallocImplementation::GetMemoryReleaseRate, called with the instance as `this`). */
extern void *_ZN15MallocExtension8instanceEv(void) __attribute__((weak));
extern double _ZN22TCMallocImplementation20GetMemoryReleaseRateEv(void *self) __attribute__((weak));

static bool tcmalloc_serves_object(const char *base)
{
	return strstr(base, "tcmalloc") != NULL;
}

static bool tcmalloc_present(void)
{
	return tc_version != NULL;
}

static void tcmalloc_version(char *buf, size_t size)
{
	if (!tc_version)
		return;
	int major = 0, minor = 0;
	const char *patch = "";
	tc_version(&major, &minor, &patch);
	snprintf(buf, size, "%d.%d%s", major, minor, patch ? patch : "");
}

static bool tcmalloc_property(struct alloc_stats *s, const char *property, const char *own,
                              long long *out)
{
	size_t v = 0;
	if (!MallocExtension_GetNumericProperty(property, &v))
		return false;
	*out = (long long)v;
	alloc_stats_own(s, own, *out);
	return true;
}

static void tcmalloc_stats(struct alloc_stats *s)
{
	if (!MallocExtension_GetNumericProperty)
		return;
	long long allocated, heap_size, physical, free, unmapped, central = 0, transfer = 0,
	                                                          thread = 0;
	if (tcmalloc_property(s, "generic.current_allocated_bytes", "current_allocated_bytes",
	                      &allocated))
		s->allocated = allocated;
	tcmalloc_property(s, "generic.heap_size", "heap_size", &heap_size);
	/* heap_size less its unmapped pages, plus tcmalloc's metadata (spans, caches, page map):
	 * everything it maps, as jemalloc's resident counts its metadata too */
	if (tcmalloc_property(s, "generic.total_physical_bytes", "total_physical_bytes", &physical))
		s->heap = physical;
	if (tcmalloc_property(s, "tcmalloc.pageheap_free_bytes", "pageheap_free_bytes", &free))
		s->free_trimmable = free;
	if (tcmalloc_property(s, "tcmalloc.pageheap_unmapped_bytes", "pageheap_unmapped_bytes",
	                      &unmapped))
		s->unmapped = unmapped;
	bool caches = tcmalloc_property(s, "tcmalloc.central_cache_free_bytes",
	                                "central_cache_free_bytes", &central);
	caches &= tcmalloc_property(s, "tcmalloc.transfer_cache_free_bytes",
	                            "transfer_cache_free_bytes", &transfer);
	caches &= tcmalloc_property(s, "tcmalloc.thread_cache_free_bytes",
	                            "thread_cache_free_bytes", &thread);
	if (caches)
		s->free_fragmented = central + transfer + thread;
	long long v;
	tcmalloc_property(s, "tcmalloc.max_total_thread_cache_bytes",
	                  "max_total_thread_cache_bytes", &v);
}

static void tcmalloc_settings(struct alloc_settings_out *o)
{
	if (_ZN15MallocExtension8instanceEv &&
	    _ZN22TCMallocImplementation20GetMemoryReleaseRateEv) {
		void *self = _ZN15MallocExtension8instanceEv();
		if (self)
			alloc_settings_put(
			    o, "TCMALLOC_RELEASE_RATE",
			    _ZN22TCMallocImplementation20GetMemoryReleaseRateEv(self),
			    ALLOC_SETTING_NUMBER);
	}
	if (!MallocExtension_GetNumericProperty)
		return;
	/* zero_is_unset: 0 is gperftools' "no limit", which "=0" would read as a limit of nothing;
	 * left out unless the environment names it */
	static const struct {
		const char *env, *property;
		enum alloc_setting_type type;
		bool zero_is_unset;
	} props[] = {
	    {"TCMALLOC_AGGRESSIVE_DECOMMIT", "tcmalloc.aggressive_memory_decommit",
	     ALLOC_SETTING_BOOL, false},
	    {"TCMALLOC_MAX_TOTAL_THREAD_CACHE_BYTES", "tcmalloc.max_total_thread_cache_bytes",
	     ALLOC_SETTING_NUMBER, false},
	    {"TCMALLOC_HEAP_LIMIT_MB", "tcmalloc.heap_limit_mb", ALLOC_SETTING_NUMBER, true},
	};
	for (size_t i = 0; i < sizeof(props) / sizeof(props[0]); i++) {
		size_t v;
		if (!MallocExtension_GetNumericProperty(props[i].property, &v) ||
		    (v == 0 && props[i].zero_is_unset && !getenv(props[i].env)))
			continue;
		alloc_settings_put(o, props[i].env, (double)v, props[i].type);
	}
}

const struct allocator_adapter allocator_tcmalloc = {
    .name = "tcmalloc",
    .colour = "#009e73",
    .words = {"free pages of the page heap", "which the release rate decides when to unmap",
              "the central, transfer and thread caches",
              "which go back to the page heap only as whole spans", "metadata and page rounding",
              "unmapped", "held by tcmalloc (no breakdown)", "the run recorded no breakdown"},
    .cpu = {.objects = "libtcmalloc", .functions = "tc_[a-z_0-9]+"},
    .serves_object = tcmalloc_serves_object,
    .present = tcmalloc_present,
    .version = tcmalloc_version,
    .stats = tcmalloc_stats,
    .settings = tcmalloc_settings,
};
