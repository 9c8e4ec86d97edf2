/* controller/program_json.c - a program's JSON report (program_json.h). */
#include "program_json.h"

#include <stdlib.h>

#include "program_output.h"

/* A report is a few hundred bytes; more is not one. */
#define PROGRAM_JSON_MAX 65536

json_t *program_json(char **env, size_t n_env, char **argv, unsigned timeout_ms)
{
	struct program_run how = {.env = env,
	                          .n_env = n_env,
	                          .timeout_ms = timeout_ms,
	                          .max_out = PROGRAM_JSON_MAX,
	                          .quiet = true};
	char *out = NULL;
	json_t *json = program_output(argv, &how, &out) == 0 && out
	                   ? json_loads(out, JSON_DECODE_ANY, NULL)
	                   : NULL;
	free(out);
	return json;
}
