/* common/event_line.c - a scenario's event as one line (event_line.h). */
#include "event_line.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One line, ", " and ": " between items, keys in the order given, numbers to 16 digits (a
 * wall-clock time keeps its microseconds). */
#define EVENT_LINE_FLAGS (JSON_INDENT(0) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(16))

static bool reserved_key(const char *key)
{
	static const char *const keys[] = {"t_s", "variant", "event", "unix_s"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		if (strcmp(key, keys[i]) == 0)
			return true;
	return false;
}

const char *event_line_field(json_t *fields, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || (eq == arg + 1 && arg[0] == ':'))
		return "not KEY=TEXT or KEY:=JSON:";
	bool raw = eq[-1] == ':';
	char *key = strndup(arg, (size_t)(eq - arg) - (raw ? 1 : 0));
	json_t *value = NULL;
	const char *why = NULL;
	if (!key)
		why = "out of memory at";
	else if (reserved_key(key))
		why = "t_s, variant, event and unix_s are set by their own arguments, not";
	else if (raw && !(value = json_loads(eq + 1, JSON_DECODE_ANY, NULL)))
		why = "the value after := is not JSON:";
	else if (!raw && !(value = json_string(eq + 1)))
		why = "the value is not UTF-8:";
	if (!why && json_object_set_new(fields, key, value) != 0)
		why = "the key is not UTF-8:";
	free(key);
	return why;
}

json_t *event_line_fields(char *const *args, int count, const char **why, const char **bad)
{
	json_t *fields = json_object();
	for (int i = 0; fields && i < count; i++) {
		if ((*why = event_line_field(fields, args[i])) != NULL) {
			*bad = args[i];
			json_decref(fields);
			return NULL;
		}
	}
	if (!fields) {
		*why = "out of memory at";
		*bad = count > 0 ? args[0] : "";
	}
	return fields;
}

bool event_line_names_valid(const char *variant, const char *event)
{
	json_t *v = json_string(variant), *e = json_string(event);
	bool ok = v && e;
	json_decref(v);
	json_decref(e);
	return ok;
}

char *event_line_text(double t_s, const char *variant, const char *event, const json_t *fields,
                      double unix_s)
{
	json_t *line = json_object();
	if (!isnan(t_s))
		json_object_set_new(line, "t_s", json_real(round(t_s * 1000) / 1000));
	bool ok = json_object_set_new(line, "variant", json_string(variant)) == 0 &&
	          json_object_set_new(line, "event", json_string(event)) == 0;
	const char *key;
	json_t *value;
	json_object_foreach((json_t *)fields, key, value)
	{
		json_object_set(line, key, value);
	}
	if (!isnan(unix_s))
		json_object_set_new(line, "unix_s", json_real(unix_s));
	char *text = ok ? json_dumps(line, EVENT_LINE_FLAGS) : NULL;
	json_decref(line);
	return text;
}
