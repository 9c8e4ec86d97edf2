/* common/alloc_settings.c - the allocator's memory settings, read back from the allocator at run
 * time, so that a variant row can be refused when its environment did not take.
 * Each allocator's reader is its adapter's (common/allocators/). */
#define _GNU_SOURCE
#include "alloc_settings.h"

#include <stdio.h>
#include <string.h>

#include "allocators/allocator.h"

void alloc_settings_put(struct alloc_settings_out *o, const char *name, double v,
                        enum alloc_setting_type type)
{
	if (o->n >= o->max)
		return;
	struct alloc_setting *s = &o->s[o->n++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->type = type;
	s->number = v;
}

size_t alloc_settings_read(const struct alloc_info *info, struct alloc_setting *out, size_t max)
{
	struct alloc_settings_out o = {out, 0, max};
	const struct allocator_adapter *a = allocator_by_name(info->allocator);
	if (a && a->settings)
		a->settings(&o);
	return o.n;
}
