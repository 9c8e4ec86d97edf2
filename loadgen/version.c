/* loadgen/version.c - what --version prints, with the allocator found at run time. */
#include "version.h"

#include <jansson.h>
#include <stdlib.h>

#include "alloc_info.h"

#ifndef ALLOCSPIKE_VERSION
#define ALLOCSPIKE_VERSION "0.1.0"
#endif

void version_print(FILE *out, int as_json)
{
	struct alloc_info info;
	alloc_info_detect(&info);
	if (!as_json) {
		fprintf(out, "allocspike-loadgen %s allocator=%s %s libc=%s %s malloc=%s\n",
		        ALLOCSPIKE_VERSION, info.allocator, info.allocator_version, info.libc,
		        info.libc_version, info.malloc_object);
		return;
	}
	json_t *obj =
	    json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "program", "allocspike-loadgen",
	              "version", ALLOCSPIKE_VERSION, "allocator", info.allocator,
	              "allocator_version", info.allocator_version, "libc", info.libc,
	              "libc_version", info.libc_version, "malloc_object", info.malloc_object);
	char *text = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS);
	fprintf(out, "%s\n", text);
	free(text);
	json_decref(obj);
}
