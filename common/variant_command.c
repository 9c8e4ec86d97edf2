/* common/variant_command.c - a build or env row's command (variant_command.h). */
#include "variant_command.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool variant_words_add(char ***list, size_t *n, const char *word)
{
	char **grown = realloc(*list, (*n + 2) * sizeof(**list));
	if (!grown)
		return false;
	*list = grown;
	grown[*n] = strdup(word);
	grown[*n + 1] = NULL;
	return grown[(*n)++] != NULL;
}

bool variant_words_add_n(char ***list, size_t *n, const char *const *words, size_t count)
{
	bool ok = true;
	for (size_t i = 0; ok && i < count; i++)
		ok = variant_words_add(list, n, words[i]);
	return ok;
}

bool variant_words_add_lines(char ***list, size_t *n, const char *text)
{
	char *copy = strdup(text), *save = NULL;
	bool ok = copy != NULL;
	for (char *line = copy ? strtok_r(copy, "\n", &save) : NULL; ok && line;
	     line = strtok_r(NULL, "\n", &save))
		ok = variant_words_add(list, n, line);
	free(copy);
	return ok;
}

void variant_words_free(char **list)
{
	for (size_t i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}

/* The option and its value, when there is one. */
static bool option_add(struct variant_command *cmd, const char *option, const char *value)
{
	return !value || variant_words_add_list(&cmd->argv, &cmd->argc, option, value);
}

/* The env cell's words ("-": none), split at blanks as the scenarios always split it. */
static bool env_add(struct variant_command *cmd, const char *cell)
{
	if (strcmp(cell, "-") == 0)
		return true;
	char *copy = strdup(cell), *save = NULL;
	bool ok = copy != NULL;
	for (char *w = copy ? strtok_r(copy, " \t", &save) : NULL; ok && w;
	     w = strtok_r(NULL, " \t", &save))
		ok = variant_words_add(&cmd->env, &cmd->n_env, w);
	free(copy);
	return ok;
}

bool variant_command_build(const struct variants_table *table, const char *name,
                           const struct variant_launch *launch, struct variant_command *out,
                           char *err, size_t err_size)
{
	*out = (struct variant_command){0};
	const struct variant_row *row = variants_table_find(table, name);
	if (!row) {
		snprintf(err, err_size, "no variant '%s' in %s", name, table->path);
		return false;
	}
	const char *kind = row->cells[VARIANT_KIND];
	bool env_row = strcmp(kind, "env") == 0;
	if (!env_row && strcmp(kind, "build") != 0) {
		snprintf(err, err_size,
		         "variant '%s' is of kind %s: its daemon is started by its definition "
		         "(scenarios/daemons/%s.sh), not from the table",
		         name, kind, row->cells[VARIANT_BASE]);
		return false;
	}
	/* an env row runs its base row's binary (the table's check: the base is a build row) */
	char binary[4096];
	snprintf(binary, sizeof(binary), "%s/allocspike-resolver-%s", launch->bin_dir,
	         env_row ? row->cells[VARIANT_BASE] : name);
	bool ok = env_add(out, row->cells[VARIANT_ENV]) &&
	          variant_words_add(&out->argv, &out->argc, binary) &&
	          option_add(out, "--listen", launch->listen) &&
	          option_add(out, "--root-hints", launch->root_hints) &&
	          option_add(out, "--upstream-port", launch->upstream_port) &&
	          option_add(out, "--upstream-source", launch->upstream_source);
	ok = ok && variant_words_add_n(&out->argv, &out->argc, (const char *const *)launch->options,
	                               launch->n_options);
	ok = ok && option_add(out, "--control", launch->control) &&
	     option_add(out, "--ready-file", launch->ready_file);
	if (!ok) {
		variant_command_free(out);
		snprintf(err, err_size, "out of memory");
	}
	return ok;
}

void variant_command_free(struct variant_command *cmd)
{
	for (size_t i = 0; i < cmd->n_env; i++)
		free(cmd->env[i]);
	for (size_t i = 0; i < cmd->argc; i++)
		free(cmd->argv[i]);
	free(cmd->env);
	free(cmd->argv);
	*cmd = (struct variant_command){0};
}

bool variant_command_bin_dir(char *dir, size_t size)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return false;
	exe[n] = '\0';
	snprintf(dir, size, "%s", dirname(exe));
	return true;
}
