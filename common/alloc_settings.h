/* common/alloc_settings.h - the allocator's memory settings as the allocator itself reports them.
 */
#ifndef ALLOCSPIKE_ALLOC_SETTINGS_H
#define ALLOCSPIKE_ALLOC_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "alloc_info.h"

enum alloc_setting_type { ALLOC_SETTING_NUMBER, ALLOC_SETTING_BOOL, ALLOC_SETTING_STRING };

/* One setting, named the way an operator sets it (docs/variants.md "Settings"): a glibc tunable
 * (glibc.malloc.trim_threshold), a jemalloc option as in MALLOC_CONF with "opt." before it
 * (opt.dirty_decay_ms), or the environment variable gperftools or mimalloc reads
 * (TCMALLOC_RELEASE_RATE, MIMALLOC_DECOMMIT_DELAY). */
struct alloc_setting {
	char name[64];
	enum alloc_setting_type type;
	double number; /* NUMBER, and BOOL as 0/1 */
	char text[64]; /* STRING */
};

/* Where an adapter's reader puts the settings: at most max of them into s. */
struct alloc_settings_out {
	struct alloc_setting *s;
	size_t n, max;
};

/* For the adapters: appends a NUMBER or BOOL setting, dropped when o is full. */
void alloc_settings_put(struct alloc_settings_out *o, const char *name, double v,
                        enum alloc_setting_type type);

/* Reads the settings of the allocator info names from the allocator itself: jemalloc's mallctl
 * opt.*, gperftools' numeric properties and release rate, mimalloc's mi_option_get, and for glibc
 * the tunables as glibc's own loader parses this process's environment (ld.so --list-tunables:
 * glibc exports no reader of its tunables). Fills at most max entries; returns how many. */
size_t alloc_settings_read(const struct alloc_info *info, struct alloc_setting *out, size_t max);

#endif
