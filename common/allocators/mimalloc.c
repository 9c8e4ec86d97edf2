/* common/allocators/mimalloc.c - mimalloc: mi_process_info for statistics, mi_option_get for its
 * settings (mimalloc 2.0's option names). */
#include "allocator.h"

#include <stdio.h>
#include <string.h>

#include "alloc_symbols.h"

#if defined(__has_include)
#if __has_include(<mimalloc.h>)
#include <mimalloc.h>
#define MIMALLOC_HEADER 1
#endif
#endif

#ifdef MIMALLOC_HEADER
extern long mi_option_get(mi_option_t option) __attribute__((weak));
#endif

static bool mimalloc_serves_object(const char *base)
{
	return strstr(base, "mimalloc") != NULL;
}

static bool mimalloc_present(void)
{
	return mi_version != NULL;
}

static void mimalloc_version(char *buf, size_t size)
{
	if (!mi_version)
		return;
	int v = mi_version();
	snprintf(buf, size, "%d.%d.%d", v / 100, (v / 10) % 10, v % 10);
}

static void mimalloc_stats(struct alloc_stats *s)
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

static void mimalloc_settings(struct alloc_settings_out *o)
{
#if defined(MIMALLOC_HEADER) && MI_MALLOC_VERSION >= 200 && MI_MALLOC_VERSION < 210
	/* mimalloc 2.0's names; 2.1 renamed the decommit options to purge_*. */
	static const struct {
		const char *env;
		mi_option_t option;
	} opts[] = {
	    {"MIMALLOC_DECOMMIT_DELAY", mi_option_decommit_delay},
	    {"MIMALLOC_SEGMENT_DECOMMIT_DELAY", mi_option_segment_decommit_delay},
	    {"MIMALLOC_DECOMMIT_EXTEND_DELAY", mi_option_decommit_extend_delay},
	    {"MIMALLOC_ALLOW_DECOMMIT", mi_option_allow_decommit},
	    {"MIMALLOC_PAGE_RESET", mi_option_page_reset},
	    {"MIMALLOC_ABANDONED_PAGE_DECOMMIT", mi_option_abandoned_page_decommit},
	    {"MIMALLOC_EAGER_COMMIT", mi_option_eager_commit},
	};
	if (!mi_option_get)
		return;
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		alloc_settings_put(o, opts[i].env, (double)mi_option_get(opts[i].option),
		                   ALLOC_SETTING_NUMBER);
#else
	(void)o;
#endif
}

const struct allocator_adapter allocator_mimalloc = {
    .name = "mimalloc",
    .colour = "#cc79a7",
    .words = {"free pages not yet purged", "which purging returns in its time",
              "free blocks of pages still in use", "which stay while a block of their page lives",
              "metadata and page rounding", "purged", "held by mimalloc (no breakdown)",
              "the run recorded no breakdown"},
    .cpu = {.objects = "libmimalloc", .functions = "mi_[a-z_0-9]+|_mi_[a-z_0-9]+"},
    .serves_object = mimalloc_serves_object,
    .present = mimalloc_present,
    .version = mimalloc_version,
    .stats = mimalloc_stats,
    .settings = mimalloc_settings,
};
