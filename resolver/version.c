/* resolver/version.c - what --version prints; the allocator comes from common/alloc_info at run
 * time. */
#include "version.h"

#include <jansson.h>
#include <ldns/ldns.h>
#include <event2/event.h>

#include "alloc_info_json.h"
#include "alloc_settings_json.h"
#include "overload.h"
#include "resolver.h"
#include "trim.h"

/* The overload policy these options give (main.c defaults it from the layout), as the request
 * table takes it: what a scenario records for the run. No request list under kresd's: nulls. */
static json_t *version_overload_json(const struct resolver_config *cfg)
{
	bool list = cfg->overload_policy == OVERLOAD_UNBOUND;
	return json_pack("{s:s, s:o, s:o}", "policy", overload_policy_name(cfg->overload_policy),
	                 "request_list", list ? json_integer(cfg->request_list) : json_null(),
	                 "jostle_timeout_ms",
	                 list ? json_integer(cfg->jostle_timeout_ms) : json_null());
}

void resolver_version_print(FILE *out, const char *variant, const struct resolver_config *cfg,
                            int as_json)
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
	json_object_set_new(obj, "overload", version_overload_json(cfg));
	char *text = json_dumps(obj, JSON_COMPACT | JSON_SORT_KEYS);
	fprintf(out, "%s\n", text);
	free(text);
	json_decref(obj);
}
