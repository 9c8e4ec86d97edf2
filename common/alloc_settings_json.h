/* common/alloc_settings_json.h - the "allocator_settings" object of --version --json (jansson
 * users). Header-only for the same reason as alloc_info_json.h: allocspike_core links no jansson.
 */
#ifndef ALLOCSPIKE_ALLOC_SETTINGS_JSON_H
#define ALLOCSPIKE_ALLOC_SETTINGS_JSON_H

#include <jansson.h>

#include "alloc_settings.h"

enum { ALLOC_SETTINGS_MAX = 32 };

static inline json_t *alloc_settings_json(const struct alloc_info *info)
{
	struct alloc_setting s[ALLOC_SETTINGS_MAX];
	size_t n = alloc_settings_read(info, s, ALLOC_SETTINGS_MAX);
	json_t *obj = json_object();
	for (size_t i = 0; i < n; i++) {
		json_t *v = s[i].type == ALLOC_SETTING_BOOL     ? json_boolean(s[i].number != 0)
		            : s[i].type == ALLOC_SETTING_STRING ? json_string(s[i].text)
		            : s[i].number == (double)(long long)s[i].number
		                ? json_integer((json_int_t)s[i].number)
		                : json_real(s[i].number);
		json_object_set_new(obj, s[i].name, v);
	}
	return obj;
}

#endif
