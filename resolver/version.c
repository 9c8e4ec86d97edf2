/* resolver/version.c - what --version prints; the allocator comes from common/alloc_info at run
 * time. */
#include "version.h"

#include <jansson.h>
#include <ldns/ldns.h>
#include <event2/event.h>

#include "alloc_info.h"

#ifndef ALLOCSPIKE_VARIANT_NAME
#define ALLOCSPIKE_VARIANT_NAME "unknown"
#endif
#ifndef ALLOCSPIKE_VERSION
#define ALLOCSPIKE_VERSION "0.1.0"
#endif

void resolver_version_print(FILE *out, int as_json)
{
	struct alloc_info info;
	alloc_info_detect(&info);
	if (!as_json) {
		fprintf(out,
		        "allocspike-resolver %s variant=%s allocator=%s %s libc=%s %s malloc=%s "
		        "ldns=%s libevent=%s\n",
		        ALLOCSPIKE_VERSION, ALLOCSPIKE_VARIANT_NAME, info.allocator,
		        info.allocator_version, info.libc, info.libc_version, info.malloc_object,
		        ldns_version(), event_get_version());
		return;
	}
	json_t *obj = json_pack(
	    "{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "program", "allocspike-resolver",
	    "version", ALLOCSPIKE_VERSION, "variant", ALLOCSPIKE_VARIANT_NAME, "allocator",
	    info.allocator, "allocator_version", info.allocator_version, "libc", info.libc,
	    "libc_version", info.libc_version, "malloc_object", info.malloc_object, "ldns",
	    ldns_version(), "libevent", event_get_version());
	char *text = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS);
	fprintf(out, "%s\n", text);
	free(text);
	json_decref(obj);
}
