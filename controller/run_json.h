/* controller/run_json.h - run.json (docs/run-folder.md) written by the served controller: made new,
 * changed one value at a time at a path (docs/controller.md, "run.json"), finished; every change
 * loaded, applied and written whole through common/json_file.c's atomic write. */
#ifndef ALLOCSPIKE_CONTROLLER_RUN_JSON_H
#define ALLOCSPIKE_CONTROLLER_RUN_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The place of value in doc named by path: ".key", ".a.b", ".list[2]" and a row selector
 * ".variants[name=glibc]" (the first object of the list whose "name" is that text), chained; keys
 * are letters, digits, '_' and '-'. A missing key is created (an object), an index or a selector
 * that finds nothing is refused. value is taken over (freed on failure). False with why in err. */
bool run_json_path_set(json_t *doc, const char *path, json_t *value, char *err, size_t err_size);

/* The same for each KEY=TEXT or KEY:=JSON of fields (common/event_line.c's rules) in the object at
 * path (created when missing). */
bool run_json_fields_set(json_t *doc, const char *path, char **fields, int count, char *err,
                         size_t err_size);

/* What is said of a run.json, or a --options, without the options. */
#define RUN_JSON_NO_OPTIONS "no options (run.json's parameters.options)"

/* The option's text in options, run.json's parameters.options (every option by name as a
 * string); NULL (said in err) when it is missing, or options is not an object. */
const char *run_json_option_text(const json_t *options, const char *name, char *err,
                                 size_t err_size);

/* The same, or "" when the option is missing: for options the steps may take as absent. */
const char *run_json_option_or_empty(const json_t *options, const char *name);

/* The run.json at path loaded, *options its parameters.options: the document to json_decref;
 * NULL (said in err) when it cannot be read or has no options. */
json_t *run_json_options_load(const char *path, const json_t **options, char *err, size_t err_size);

/* How run.json is written: its keys in the order they were set, as jq kept them. */
#define RUN_JSON_FLAGS JSON_INDENT(2)

/* A new run.json at path: format 1, status "running", scenario, started now, the rest empty. */
bool run_json_create(const char *path, const char *scenario, char *err, size_t err_size);

/* path loaded, its status, "ended" (now) and, unless reason is NULL or empty, "failure" set. */
bool run_json_finish(json_t *doc, const char *status, const char *reason);

/* Now as run.json writes times: "2026-12-04T12:00:00Z". */
void run_json_now(char *out, size_t size);

#endif
