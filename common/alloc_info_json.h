/* common/alloc_info_json.h - the allocator's keys of every --version --json object (jansson users).
 */
#ifndef ALLOCSPIKE_ALLOC_INFO_JSON_H
#define ALLOCSPIKE_ALLOC_INFO_JSON_H

#include <jansson.h>

#include "alloc_info.h"

/* Header-only: allocspike_core also builds in the musl world, where jansson is the resolver's own
 * static build, so core itself does not link jansson. */
static inline void alloc_info_json_set(json_t *obj, const struct alloc_info *info)
{
	json_object_set_new(obj, "allocator", json_string(info->allocator));
	json_object_set_new(obj, "allocator_version", json_string(info->allocator_version));
	json_object_set_new(obj, "libc", json_string(info->libc));
	json_object_set_new(obj, "libc_version", json_string(info->libc_version));
	json_object_set_new(obj, "malloc_object", json_string(info->malloc_object));
}

#endif
