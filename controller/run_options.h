/* controller/run_options.h - a run's options as run.json records them (parameters.options: every
 * option by name, a string, as `allocspike-run options` wrote them): the one reader of an option by
 * name, for the hierarchy's command, the schedules and the query file. */
#ifndef ALLOCSPIKE_CONTROLLER_RUN_OPTIONS_H
#define ALLOCSPIKE_CONTROLLER_RUN_OPTIONS_H

#include <jansson.h>
#include <stddef.h>

/* The option's text; NULL when the run does not have it (said in err when err is not NULL). */
const char *run_option(const json_t *options, const char *name, char *err, size_t err_size);

/* The options object of a loaded run.json (its parameters.options); NULL when it has none. */
const json_t *run_options_of(const json_t *run_json);

#endif
