/* controller/serve_generate.c - a served run's `generate` request (serve_generate.h). */
#include "serve_generate.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loadgen_command.h"
#include "run_json.h"
#include "variant_command.h"

#define GENERATE_WORDS 6 /* generate LOADGEN DIR SCHEDULE QUERIES CPUS */

/* The ready rows' --target words (allocated, NULL-terminated); NULL with the error in reply. */
static char **sg_targets(struct serve_rows *rows, char **names, int count, char *reply, size_t size)
{
	char **targets = NULL;
	size_t n = 0;
	char target[PATH_MAX + 512], err[128];
	for (int i = 0; i < count; i++) {
		if (!serve_rows_target(rows, names[i], target, sizeof(target), err, sizeof(err))) {
			snprintf(reply, size, "error: generate: %s", err);
			variant_words_free(targets);
			return NULL;
		}
		if (!variant_words_add(&targets, &n, target)) {
			snprintf(reply, size, "error: out of memory");
			variant_words_free(targets);
			return NULL;
		}
	}
	return targets ? targets : calloc(1, sizeof(*targets));
}

/* The generator's command from run.json's options; NULL with the error in reply. */
static char **sg_command(const struct serve_runfolder *rf, const struct loadgen_run *run,
                         char *reply, size_t size)
{
	char err[4400];
	const json_t *options;
	json_t *doc = run_json_options_load(rf->run_json, &options, err, sizeof(err));
	struct loadgen_options o;
	char **command = NULL;
	if (doc && loadgen_options_read(&o, options, err, sizeof(err))) {
		command = loadgen_command_make(&o, run);
		if (!command)
			snprintf(err, sizeof(err), "out of memory");
	}
	json_decref(doc);
	if (!command)
		snprintf(reply, size, "error: generate: %s", err);
	return command;
}

bool serve_generate_prepare(struct serve_generate *g, const struct serve_runfolder *rf,
                            struct serve_rows *rows, const char *upstream_pid, char **w, int n,
                            char *reply, size_t size)
{
	if (n < GENERATE_WORDS) {
		snprintf(reply, size,
		         "error: generate LOADGEN DIR SCHEDULE QUERIES CPUS [ROW...] is expected");
		return false;
	}
	if (!rf->run_json[0]) {
		snprintf(reply, size, "error: generate: no run.json (ask `begin` first)");
		return false;
	}
	char **targets = sg_targets(rows, w + GENERATE_WORDS, n - GENERATE_WORDS, reply, size);
	if (!targets)
		return false;
	struct loadgen_run run = {.program = w[1],
	                          .dir = w[2],
	                          .schedule = w[3],
	                          .queries = w[4],
	                          .targets = (const char *const *)targets,
	                          .target_count = (size_t)(n - GENERATE_WORDS),
	                          .upstream_pid = upstream_pid};
	g->command = sg_command(rf, &run, reply, size);
	variant_words_free(targets);
	if (!g->command)
		return false;
	size_t argc = 0;
	while (g->command[argc])
		argc++;
	g->start = calloc(argc + 6, sizeof(*g->start));
	if (!g->start) {
		snprintf(reply, size, "error: out of memory");
		serve_generate_started(g);
		return false;
	}
	snprintf(g->log, sizeof(g->log), "%s/logs/loadgen.log", w[2]);
	char *head[] = {"start", "_loadgen", g->log, w[5], "--"};
	g->start_count = 0;
	for (size_t i = 0; i < sizeof(head) / sizeof(*head); i++)
		g->start[g->start_count++] = head[i];
	for (size_t i = 0; i < argc; i++)
		g->start[g->start_count++] = g->command[i];
	return true;
}

void serve_generate_started(struct serve_generate *g)
{
	variant_words_free(g->command);
	free(g->start);
	g->command = NULL;
	g->start = NULL;
	g->start_count = 0;
}
