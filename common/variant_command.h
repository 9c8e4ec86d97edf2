/* common/variant_command.h - the command a build or env row of variants.tsv runs: our resolver
 * built for the row (an env row: its base row's binary) with the row's environment and the options
 * of its launch. The one builder of it: the scenarios take it from `allocspike-run variants
 * --command` (scenarios/lib/variants.sh, variant_command), and `allocspike-agent --start` runs it
 * on its own host (docs/agent.md, "Starting a row"). */
#ifndef ALLOCSPIKE_COMMON_VARIANT_COMMAND_H
#define ALLOCSPIKE_COMMON_VARIANT_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#include "variants_table.h"

/* Where and how a row is launched. NULL: the option is left out (the resolver's default). */
struct variant_launch {
	const char *bin_dir;         /* the folder of allocspike-resolver-NAME */
	const char *listen;          /* --listen ADDR:PORT */
	const char *root_hints;      /* --root-hints FILE */
	const char *upstream_port;   /* --upstream-port PORT */
	const char *upstream_source; /* --upstream-source ADDR */
	const char *control;         /* --control PATH */
	const char *ready_file;      /* --ready-file PATH */
	char *const *options;        /* the run's resolver options, passed on as given */
	size_t n_options;
};

/* What is started: the row's environment (NAME=value words, the env cell split at blanks) and the
 * command, argv[0] the binary's path, NULL-terminated. */
struct variant_command {
	char **env;
	size_t n_env;
	char **argv;
	size_t argc;
};

/* Builds row name's command. False with the reason in err for a name that is no row of the table,
 * or a row that is not ours to start (preload, external: a daemon its definition starts,
 * scenarios/daemons/), or out of memory. */
bool variant_command_build(const struct variants_table *table, const char *name,
                           const struct variant_launch *launch, struct variant_command *out,
                           char *err, size_t err_size);
void variant_command_free(struct variant_command *cmd);

/* Appends a copy of word to the NULL-terminated list (*list, *n), as the commands are built; false
 * when out of memory. */
bool variant_words_add(char ***list, size_t *n, const char *word);
/* Appends copies of the count words, in order; false when out of memory. */
bool variant_words_add_n(char ***list, size_t *n, const char *const *words, size_t count);
/* Appends the words given as arguments: variant_words_add_list(&argv, &n, "--x", value). */
#define variant_words_add_list(list, n, ...)                                                       \
	variant_words_add_n(list, n, (const char *const[]){__VA_ARGS__},                           \
	                    sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))
/* Appends each line of text as a word (empty lines skipped); false when out of memory. */
bool variant_words_add_lines(char ***list, size_t *n, const char *text);
/* Frees such a list (NULL-terminated; NULL: nothing) and its words. */
void variant_words_free(char **list);

/* The folder of the running program (/proc/self/exe): the resolvers are built beside
 * allocspike-run and allocspike-agent. False when it cannot be read. */
bool variant_command_bin_dir(char *dir, size_t size);

#endif
