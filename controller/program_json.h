/* controller/program_json.h - what a program says about itself as JSON (--version --json): run
 * with words added to its environment (as env(1) adds them), stdin and stderr /dev/null, bounded in
 * time. The one way the controller asks a binary for its report (rows-check, programs). */
#ifndef ALLOCSPIKE_CONTROLLER_PROGRAM_JSON_H
#define ALLOCSPIKE_CONTROLLER_PROGRAM_JSON_H

#include <jansson.h>
#include <stddef.h>

/* Runs argv (argv[0] a path) with env (NAME=value words, n_env of them) and returns what it printed
 * on stdout, parsed as JSON; NULL when it did not end within timeout_ms (it is killed), exited
 * non-zero, or printed no JSON. */
json_t *program_json(char **env, size_t n_env, char **argv, unsigned timeout_ms);

#endif
