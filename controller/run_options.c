/* controller/run_options.c - a run's options by name (run_options.h). */
#include "run_options.h"

#include <stdio.h>

const char *run_option(const json_t *options, const char *name, char *err, size_t err_size)
{
	const char *text = json_string_value(json_object_get(options, name));
	if (!text && err)
		snprintf(err, err_size, "the run's options have no '%s'", name);
	return text;
}

const json_t *run_options_of(const json_t *run_json)
{
	const json_t *options = json_object_get(json_object_get(run_json, "parameters"), "options");
	return json_is_object(options) ? options : NULL;
}
