/* loadgen/version.c - what --version prints, with the allocator found at run time. */
#include "version.h"

#include <jansson.h>
#include <stdlib.h>

#include "alloc_info_json.h"

void version_print(FILE *out, int as_json)
{
	struct alloc_info info;
	alloc_info_detect(&info);
	if (!as_json) {
		char allocator[512];
		fprintf(out, "allocspike-loadgen %s %s\n", ALLOCSPIKE_VERSION,
		        alloc_info_describe(&info, allocator, sizeof(allocator)));
		return;
	}
	json_t *obj =
	    json_pack("{s:s, s:s}", "program", "allocspike-loadgen", "version", ALLOCSPIKE_VERSION);
	alloc_info_json_set(obj, &info);
	char *text = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS);
	fprintf(out, "%s\n", text);
	free(text);
	json_decref(obj);
}
