/* resolver/version.c - what --version prints; the allocator comes from common/alloc_info at run
 * time. */
#include "version.h"

#include <jansson.h>
#include <ldns/ldns.h>
#include <event2/event.h>

#include "alloc_info_json.h"
#include "alloc_settings_json.h"
#include "trim.h"

void resolver_version_print(FILE *out, const char *variant, int as_json)
{
	struct alloc_info info;
	alloc_info_detect(&info);
	if (!as_json) {
		char allocator[512];
		fprintf(out, "allocspike-resolver %s variant=%s %s ldns=%s libevent=%s\n",
		        ALLOCSPIKE_VERSION, variant,
		        alloc_info_describe(&info, allocator, sizeof(allocator)), ldns_version(),
		        event_get_version());
		return;
	}
	json_t *obj = json_pack("{s:s, s:s, s:s, s:s, s:s}", "program", "allocspike-resolver",
	                        "version", ALLOCSPIKE_VERSION, "variant", variant,
	                        "ldns", ldns_version(), "libevent", event_get_version());
	alloc_info_json_set(obj, &info);
	json_t *settings = alloc_settings_json(&info);
	trim_settings_json(settings);
	json_object_set_new(obj, "allocator_settings", settings);
	char *text = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS);
	fprintf(out, "%s\n", text);
	free(text);
	json_decref(obj);
}
