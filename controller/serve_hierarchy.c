/* controller/serve_hierarchy.c - a served run's `hierarchy` request (serve_hierarchy.h). */
#include "serve_hierarchy.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "run_json.h"

/* runjson-fields PATH FIELDS... through the run folder's own request. */
static bool sh_record(struct serve_runfolder *rf, struct supervisor *sup, struct run_events *ev,
                      char **fields, int count, char *reply, size_t size)
{
	char *words[HIERARCHY_FIELDS + 2] = {"runjson-fields", ".parameters.hierarchy"};
	for (int i = 0; i < count; i++)
		words[i + 2] = fields[i];
	serve_runfolder_request(rf, sup, ev, words, count + 2, reply, size);
	return strcmp(reply, "ok") == 0;
}

bool serve_hierarchy_prepare(struct serve_hierarchy *h, struct serve_runfolder *rf,
                             struct supervisor *sup, struct run_events *ev, const char *ctl_dir,
                             char **w, int n, char *reply, size_t size)
{
	const char *given = "";
	if (n == 5 && strncmp(w[4], "given=", 6) == 0)
		given = w[4] + 6;
	else if (n != 4) {
		snprintf(reply, size,
		         "error: hierarchy UPSTREAM CPUS PORT [given=NAME,...] is expected");
		return false;
	}
	if (!rf->dir[0]) {
		snprintf(reply, size, "error: hierarchy: no run folder (ask `begin` first)");
		return false;
	}
	char err[4400];
	const json_t *options;
	json_t *doc = run_json_options_load(rf->run_json, &options, err, sizeof(err));
	struct hierarchy_options o;
	bool ok = doc && hierarchy_options_read(&o, options, given, err, sizeof(err));
	if (ok) {
		struct hierarchy_fields fields;
		hierarchy_parameter_fields(&o, &fields);
		ok = sh_record(rf, sup, ev, fields.words, HIERARCHY_FIELDS, reply, size);
		if (!ok) {
			json_decref(doc);
			return false;
		}
		ok = hierarchy_command_make(&h->command, &o, w[1], rf->dir, ctl_dir, w[3]);
		if (!ok)
			snprintf(err, sizeof(err), "its command is longer than %d words",
			         HIERARCHY_MAX_ARGS);
	}
	json_decref(doc);
	if (!ok) {
		snprintf(reply, size, "error: hierarchy: %s", err);
		return false;
	}
	snprintf(h->root_hints, sizeof(h->root_hints), "%s/root.hints", rf->dir);
	snprintf(h->log, sizeof(h->log), "%s/logs/upstream.log", rf->dir);
	static char ready_file[PATH_MAX + 32];
	snprintf(ready_file, sizeof(ready_file), "%s/upstream.ready", ctl_dir);
	remove(ready_file); /* a line left from an earlier start is not this one's */
	char *head[] = {"start", "_upstream", h->log, w[2], ready_file, HIERARCHY_READY_TIMEOUT,
	                "--"};
	h->start_count = 0;
	for (size_t i = 0; i < sizeof(head) / sizeof(*head); i++)
		h->start[h->start_count++] = head[i];
	for (int i = 0; i < h->command.argc; i++)
		h->start[h->start_count++] = h->command.argv[i];
	h->start[h->start_count] = NULL;
	return true;
}

void serve_hierarchy_started(struct serve_hierarchy *h)
{
	hierarchy_command_free(&h->command);
	h->start_count = 0;
}

void serve_hierarchy_ready(struct serve_hierarchy *h, struct serve_runfolder *rf,
                           struct supervisor *sup, struct run_events *ev, pid_t pid,
                           const char *addr, char *reply, size_t size)
{
	struct stat st;
	if (stat(h->root_hints, &st) != 0 || st.st_size == 0) {
		snprintf(reply, size, "error: hierarchy: it wrote no root hints to %s",
		         h->root_hints);
		return;
	}
	const char *port = strrchr(addr, ':');
	port = port ? port + 1 : addr;
	run_events_add(ev, "_upstream", "ready",
	               json_pack("{s:s, s:I}", "addr", addr, "pid", (json_int_t)pid));
	char field[64];
	snprintf(field, sizeof(field), "port:=%s", port);
	char *fields[] = {field};
	if (sh_record(rf, sup, ev, fields, 1, reply, size))
		snprintf(reply, size, "ok %s %ld %s", port, (long)pid, h->root_hints);
}

void serve_hierarchy_failed(const struct serve_hierarchy *h, const char *how, char *reply,
                            size_t size)
{
	if (how)
		snprintf(reply, size,
		         "error: hierarchy: it exited before it was ready (%s; see %s)", how,
		         h->log);
	else
		snprintf(reply, size, "error: hierarchy: not ready within %s (see %s)",
		         HIERARCHY_READY_TIMEOUT, h->log);
}
