/* reports/summary_json.c - summary.json's values: numbers and shares written one way, a figure
 * looked up by its dotted path. */
#include "summary_json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "spike_find.h"

json_t *summary_json_number(double v)
{
	if (isnan(v))
		return json_null();
	if (v == floor(v) && fabs(v) < 1e15)
		return json_integer((json_int_t)v);
	return json_real(v);
}

json_t *summary_json_real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

double summary_share_clamped(double raw)
{
	return isnan(raw) ? NAN : fmin(fmax(raw, 0), 1);
}

void summary_set_share(json_t *o, const char *key, double raw)
{
	double clamped = summary_share_clamped(raw);
	json_object_set_new(o, key, summary_json_number(clamped));
	if (isnan(raw) || raw == clamped)
		return;
	char k[128];
	snprintf(k, sizeof(k), "%s_raw", key);
	json_object_set_new(o, k, json_real(raw));
}

json_t *summary_lookup(const json_t *obj, const char *path)
{
	char key[128];
	while (obj && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		obj = json_is_array(obj) ? spike_find_key(obj, key) : json_object_get(obj, key);
		path += n + (path[n] == '.');
	}
	return (json_t *)obj;
}

double summary_number(const json_t *obj, const char *path)
{
	return summary_value_number(summary_lookup(obj, path));
}

double summary_value_number(const json_t *x)
{
	return json_is_number(x) ? json_number_value(x) : NAN;
}
