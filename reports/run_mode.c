/* reports/run_mode.c - how the run ran its variants (run_mode.h). */
#include "run_mode.h"

#include <jansson.h>
#include <string.h>

bool run_mode_side_by_side(const struct runfolder *rf)
{
	const char *mode =
	    json_string_value(json_object_get(json_object_get(rf->run, "parameters"), "mode"));
	return !mode || strcmp(mode, "serial") != 0;
}
