/* controller/row_launch.c - a scenario's row's command (row_launch.h). */
#include "row_launch.h"

#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "daemon_row.h"
#include "variant_command.h"

bool row_settings_parse(char *const *w, int n, struct row_settings *out, char *err, size_t size)
{
	*out = (struct row_settings){0};
	bool dashes = n > ROW_SETTINGS_WORDS && strcmp(w[ROW_SETTINGS_WORDS], "--") == 0;
	if (n != ROW_SETTINGS_WORDS && !dashes) {
		snprintf(err, size, "%s is expected", ROW_SETTINGS_USAGE);
		return false;
	}
	if (!variants_table_read(&out->table, w[0], err, size))
		return false;
	out->bin_dir = w[1];
	out->daemons_dir = w[2];
	out->rows = w[3];
	out->root_hints = w[4];
	out->upstream_port = w[5];
	out->tls_dir = w[6];
	out->options = dashes ? w + ROW_SETTINGS_WORDS + 1 : NULL;
	out->n_options = dashes ? (size_t)(n - ROW_SETTINGS_WORDS - 1) : 0;
	return true;
}

void row_settings_free(struct row_settings *s)
{
	variants_table_free(&s->table);
}

/* name's place in the comma-separated rows, from 1; 0 when it is not there. */
static unsigned row_index(const char *rows, const char *name)
{
	size_t len = strlen(name);
	unsigned i = 1;
	for (const char *p = rows; *p; i++) {
		size_t item = strcspn(p, ",");
		if (item == len && strncmp(p, name, len) == 0)
			return i;
		p += item + (p[item] == ',');
	}
	return 0;
}

/* words joined by one space, as the scenarios wrote run.json's command. */
static char *words_join(char *const *words, size_t count)
{
	size_t len = 1;
	for (size_t i = 0; i < count; i++)
		len += strlen(words[i]) + 1;
	char *text = calloc(1, len);
	for (size_t i = 0; text && i < count; i++)
		strcat(strcat(text, i ? " " : ""), words[i]);
	return text;
}

/* The run's resolver options, then our resolver's DNS over TLS where it serves it. */
static bool launch_options(const struct row_settings *s, bool tls, char ***out, size_t *n)
{
	bool ok = variant_words_add_n(out, n, (const char *const *)s->options, s->n_options);
	if (!ok || !tls)
		return ok;
	char cert[PATH_MAX + 16], key[PATH_MAX + 16];
	snprintf(cert, sizeof(cert), "%s/server.pem", s->tls_dir);
	snprintf(key, sizeof(key), "%s/server.key", s->tls_dir);
	return variant_words_add_list(out, n, "--tls-listen", "127.0.0.1:0", "--tls-cert", cert,
	                              "--tls-key", key);
}

/* A build or env row: env(1) with its environment, the wrapper, then its command. */
static bool build_row(const struct row_settings *s, const struct variant_launch *launch,
                      const char *name, char *const *wrap, size_t n_wrap, struct row_launch *out,
                      char *err, size_t size)
{
	struct variant_command cmd;
	if (!variant_command_build(&s->table, name, launch, &cmd, err, size))
		return false;
	bool ok =
	    variant_words_add(&out->argv, &out->argc, "env") &&
	    variant_words_add_n(&out->argv, &out->argc, (const char *const *)cmd.env, cmd.n_env) &&
	    variant_words_add_n(&out->argv, &out->argc, (const char *const *)wrap, n_wrap) &&
	    variant_words_add_n(&out->argv, &out->argc, (const char *const *)cmd.argv, cmd.argc);
	out->command = ok ? words_join(cmd.argv, cmd.argc) : NULL;
	variant_command_free(&cmd);
	if (!out->command)
		snprintf(err, size, "out of memory");
	return out->command != NULL;
}

/* A daemon row: its definition's launcher (row.sh), the same the agent starts. */
static bool daemon_row(const struct row_settings *s, const char *name, const char *source,
                       const char *table, const struct row_launch *paths, char ***argv, char *err,
                       size_t size)
{
	char cert[PATH_MAX + 16], key[PATH_MAX + 16];
	snprintf(cert, sizeof(cert), "%s/server.pem", s->tls_dir);
	snprintf(key, sizeof(key), "%s/server.key", s->tls_dir);
	struct row_plan plan = {.row = name,
	                        .table = table,
	                        .root_hints = s->root_hints,
	                        .upstream_source = source,
	                        .listen = "127.0.0.1",
	                        .control = paths->control,
	                        .daemons_dir = s->daemons_dir,
	                        .workdir = paths->workdir,
	                        .tls_cert = s->tls_dir[0] ? cert : NULL,
	                        .tls_key = s->tls_dir[0] ? key : NULL,
	                        .options = s->options,
	                        .n_options = s->n_options};
	bool refused;
	return daemon_row_command(&plan, paths->ready, s->bin_dir, argv, &refused, err, size);
}

bool row_launch_build(const struct row_settings *s, const char *name, const char *dir,
                      const char *ctl, bool tls, char *const *wrap, size_t n_wrap,
                      struct row_launch *out, char *err, size_t size)
{
	*out = (struct row_launch){0};
	unsigned index = row_index(s->rows, name);
	if (!index) {
		snprintf(err, size, "row '%s' is not one of the run's rows (%s)", name, s->rows);
		return false;
	}
	char source[32];
	snprintf(source, sizeof(source), "127.0.1.%u", index);
	snprintf(out->control, sizeof(out->control), "%s/%s.sock", ctl, name);
	snprintf(out->ready, sizeof(out->ready), "%s/%s.ready", ctl, name);
	snprintf(out->workdir, sizeof(out->workdir), "%s/daemons/%s", dir, name);
	snprintf(out->log, sizeof(out->log), "%s/logs/%s.log", dir, name);
	out->daemon = daemon_row_is_daemon(&s->table, name);
	bool ok;
	if (out->daemon) {
		ok = n_wrap == 0 &&
		     daemon_row(s, name, source, s->table.path, out, &out->argv, err, size);
		if (n_wrap)
			snprintf(err, size, "row '%s' is a daemon: it takes no wrapper", name);
		for (char **w = out->argv; w && *w; w++)
			out->argc++;
		out->command = ok ? words_join(out->argv, out->argc) : NULL;
		ok = ok && out->command;
	} else {
		char **options = NULL;
		size_t n_options = 0;
		ok = launch_options(s, tls && s->tls_dir[0], &options, &n_options);
		struct variant_launch launch = {.bin_dir = s->bin_dir,
		                                .listen = "127.0.0.1:0",
		                                .root_hints = s->root_hints,
		                                .upstream_port = s->upstream_port,
		                                .upstream_source = source,
		                                .control = out->control,
		                                .ready_file = out->ready,
		                                .options = options,
		                                .n_options = n_options};
		ok = ok && build_row(s, &launch, name, wrap, n_wrap, out, err, size);
		variant_words_free(options);
	}
	if (!ok)
		row_launch_free(out);
	return ok;
}

void row_launch_free(struct row_launch *l)
{
	variant_words_free(l->argv);
	free(l->command);
	l->argv = NULL;
	l->argc = 0;
	l->command = NULL;
}

void row_command_usage(FILE *out)
{
	fprintf(out,
	        "allocspike-run row-command NAME DIR CTL " ROW_SETTINGS_USAGE "\n"
	        "  the command a served run's row-start starts for row NAME (a dry run's plan),\n"
	        "  one word a line\n");
}

int row_command_main(int argc, char **argv)
{
	if (argc < 4 + ROW_SETTINGS_WORDS) {
		row_command_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	struct row_settings s;
	struct row_launch l;
	char err[8192];
	if (!row_settings_parse(argv + 4, argc - 4, &s, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run row-command: %s\n", err);
		return CLI_EXIT_USAGE;
	}
	bool ok =
	    row_launch_build(&s, argv[1], argv[2], argv[3], true, NULL, 0, &l, err, sizeof(err));
	if (!ok)
		fprintf(stderr, "allocspike-run row-command: %s\n", err);
	for (size_t i = 0; ok && i < l.argc; i++)
		printf("%s\n", l.argv[i]);
	row_launch_free(&l);
	row_settings_free(&s);
	return ok ? CLI_EXIT_OK : CLI_EXIT_USAGE;
}
