/* controller/serve_rows.c - a served run's rows (serve_rows.h). */
#include "serve_rows.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_parse.h"
#include "json_file.h"
#include "loadgen_command.h"
#include "proc_group.h"
#include "ready_file.h"
#include "request_words.h"
#include "rows_check.h"
#include "serve_events.h"

static void rows_setup_free(struct serve_rows *r)
{
	if (r->set)
		row_settings_free(&r->settings);
	for (int i = 0; i < r->n_words; i++)
		free(r->words[i]);
	free(r->words);
	r->words = NULL;
	r->n_words = 0;
	r->set = false;
}

void serve_rows_free(struct serve_rows *r)
{
	rows_setup_free(r);
}

/* rows-setup SETTINGS...: the words kept, the table read. */
static void rows_setup(struct serve_rows *r, char **w, int n, char *reply, size_t size)
{
	rows_setup_free(r);
	r->words = calloc((size_t)n + 1, sizeof(*r->words));
	for (int i = 0; r->words && i < n; i++)
		if ((r->words[r->n_words] = strdup(w[i])))
			r->n_words++;
	char err[8192];
	if (!r->words || r->n_words != n) {
		snprintf(reply, size, "error: out of memory");
	} else if (!row_settings_parse(r->words, n, &r->settings, err, sizeof(err))) {
		snprintf(reply, size, "error: rows-setup: %s", err);
	} else {
		r->set = true;
		snprintf(reply, size, "ok");
		return;
	}
	rows_setup_free(r);
}

struct served_row *serve_rows_named(struct serve_rows *r, const char *name)
{
	for (unsigned i = 0; i < r->count; i++)
		if (strcmp(r->rows[i].name, name) == 0)
			return &r->rows[i];
	return NULL;
}

bool serve_rows_host_ask(const struct serve_rows_host *h, char **w, int n, char *reply, size_t size)
{
	reply[0] = '\0';
	if (strcmp(w[0], "event") == 0)
		serve_events_request(h->events, w, n, reply, size);
	else
		serve_runfolder_request(h->runfolder, h->sup, h->events, w, n, reply, size);
	return strncmp(reply, "error", 5) != 0;
}

bool serve_rows_host_set(const struct serve_rows_host *h, const char *path, const json_t *value,
                         size_t flags, char *reply, size_t size)
{
	char *text = value ? json_dumps(value, flags | JSON_ENCODE_ANY) : NULL;
	char *words[] = {"runjson-set", (char *)path, text};
	bool ok = text && serve_rows_host_ask(h, words, 3, reply, size);
	if (!text)
		snprintf(reply, size, "error: out of memory");
	free(text);
	return ok;
}

void serve_rows_host_event(const struct serve_rows_host *h, const char *variant, const char *event,
                           char **fields, int count)
{
	char *words[3 + SERVE_ROWS_EVENT_FIELDS] = {"event", (char *)variant, (char *)event};
	char reply[512];
	if (count > SERVE_ROWS_EVENT_FIELDS)
		count = SERVE_ROWS_EVENT_FIELDS;
	for (int i = 0; i < count; i++)
		words[3 + i] = fields[i];
	if (!serve_rows_host_ask(h, words, 3 + count, reply, sizeof(reply)))
		fprintf(stderr, "%s: event %s of %s not recorded: %s\n", h->runfolder->scenario,
		        event, variant, reply);
}

/* A row that cannot run: the message said, the `failed` event with its reason. */
static void row_failed(const struct serve_rows_host *h, const char *name, const char *reason,
                       const char *message)
{
	char field[8300];
	fprintf(stderr, "%s: %s\n", h->runfolder->scenario, message);
	snprintf(field, sizeof(field), "reason=%s", reason);
	char *fields[] = {field};
	serve_rows_host_event(h, name, "failed", fields, 1);
}

/* Whether run.json's row name says its binary serves DNS over TLS (rows-check's report). */
static bool row_has_tls(const struct serve_rows_host *h, const char *name)
{
	char err[256];
	json_t *doc = h->runfolder->run_json[0]
	                  ? json_file_load(h->runfolder->run_json, err, sizeof(err))
	                  : NULL;
	json_t *row, *rows = json_object_get(doc, "variants");
	size_t i;
	bool tls = false;
	json_array_foreach(rows, i, row)
	{
		const char *n = json_string_value(json_object_get(row, "name"));
		if (n && strcmp(n, name) == 0)
			tls = json_is_true(json_object_get(json_object_get(row, "version"), "tls"));
	}
	json_decref(doc);
	return tls;
}

/* row-start NAME DIR CPUS [-- WRAPPER...] */
static void row_start(struct serve_rows *r, const struct serve_rows_host *h, char **w, int n,
                      char *reply, size_t size)
{
	bool wrapped = n > 5 && strcmp(w[4], "--") == 0;
	if (n != 4 && !wrapped) {
		snprintf(reply, size, "error: row-start NAME DIR CPUS [-- WRAPPER...] is expected");
		return;
	}
	if (!r->set) {
		snprintf(reply, size, "error: row-start: no rows-setup yet");
		return;
	}
	const char *name = w[1];
	struct served_row *row = serve_rows_named(r, name);
	if (!row && r->count == SUPERVISOR_MAX_PROCESSES) {
		snprintf(reply, size, "error: row-start: too many rows");
		return;
	}
	if (row && !h->sup->procs[row->proc].reaped) { /* before its ready file goes */
		snprintf(reply, size, "error: row-start: %s is running (pid %ld)", name,
		         (long)h->sup->procs[row->proc].target.pid);
		return;
	}
	bool tls = r->settings.tls_dir[0] && row_has_tls(h, name);
	struct row_launch l;
	char err[8192];
	if (!row_launch_build(&r->settings, name, w[2], h->ctl_dir, tls, wrapped ? w + 5 : NULL,
	                      wrapped ? (size_t)(n - 5) : 0, &l, err, sizeof(err))) {
		snprintf(reply, size, "error: row-start: %s", err);
		return;
	}
	/* what an earlier start left is not this one's */
	unlink(l.ready);
	unlink(l.control);
	char path[128], field[8192];
	snprintf(path, sizeof(path), ".variants[name=%.64s]", name);
	snprintf(field, sizeof(field), "command=%s", l.command);
	char *record[] = {"runjson-fields", path, field};
	char **start = calloc(l.argc + 8, sizeof(*start));
	if (start && serve_rows_host_ask(h, record, 3, reply, size)) {
		char *head[] = {"start", (char *)name, l.log, w[3], l.ready, "24h", "--"};
		memcpy(start, head, sizeof(head));
		memcpy(start + 7, l.argv, l.argc * sizeof(*start));
		h->start(h->ctx, start, (int)(l.argc + 7), reply, size);
	} else if (!start) {
		snprintf(reply, size, "error: out of memory");
	}
	free(start);
	if (strncmp(reply, "ok ", 3) == 0) {
		if (!row)
			row = &r->rows[r->count++];
		*row = (struct served_row){.proc = h->sup->count - 1,
		                           .daemon = l.daemon,
		                           .wrapped = wrapped,
		                           .tls = tls || (l.daemon && r->settings.tls_dir[0])};
		snprintf(row->name, sizeof(row->name), "%s", name);
		snprintf(row->control, sizeof(row->control), "%s", l.control);
		snprintf(row->ready_file, sizeof(row->ready_file), "%s", l.ready);
		snprintf(row->workdir, sizeof(row->workdir), "%s", l.workdir);
	}
	row_launch_free(&l);
}

/* A daemon's allocator probe (its workdir's alloc.json) recorded as run.json's version and judged
 * as rows-check --row judges it; false (said, and the `failed` event) when it is refused. No probe:
 * nothing to judge (a version of null). */
static bool row_probe_judged(struct serve_rows *r, const struct serve_rows_host *h,
                             const struct served_row *row)
{
	char probe[PATH_MAX + 16], err[8192], path[128], reason[8192], message[8192];
	snprintf(probe, sizeof(probe), "%s/alloc.json", row->workdir);
	json_t *version = access(probe, F_OK) == 0 ? json_file_load(probe, err, sizeof(err)) : NULL;
	char *text = version ? json_dumps(version, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	snprintf(path, sizeof(path), ".variants[name=%.64s].version", row->name);
	char *set[] = {"runjson-set", path, text ? text : "null"};
	if (!serve_rows_host_ask(h, set, 3, err, sizeof(err)))
		fprintf(stderr, "%s: row %s: %s\n", h->runfolder->scenario, row->name, err);
	free(text);
	const struct variant_row *cells = variants_table_find(&r->settings.table, row->name);
	bool ok = !cells || rows_check_report(cells, row->name, version, reason, sizeof(reason),
	                                      message, sizeof(message));
	json_decref(version);
	if (ok)
		return true;
	row_failed(h, row->name, reason, message);
	return false;
}

bool serve_rows_answer(struct serve_rows *r, const struct serve_rows_host *h, unsigned proc,
                       enum supervisor_ready state, char *reply, size_t size)
{
	struct served_row *row = NULL;
	for (unsigned i = 0; i < r->count && !row; i++)
		if (r->rows[i].proc == proc)
			row = &r->rows[i];
	const struct supervised *p = &h->sup->procs[proc];
	if (!row || state == READY_TIMEOUT)
		return false;
	if (state == READY_EXITED) { /* a launcher that refused its daemon leaves the probe */
		if (row->daemon)
			row_probe_judged(r, h, row);
		return false;
	}
	struct ready_file got;
	ready_file_read(row->ready_file, &got);
	pid_t pid = p->target.pid;
	row->sample = pid;
	if (row->daemon)
		row->sample = got.pid ? got.pid : pid;
	else if (row->wrapped) /* perf stat forks the resolver; env and valgrind exec it */
		row->sample = proc_group_child(pid, p->target.start_ticks) ?: pid;
	if (row->daemon && !row_probe_judged(r, h, row)) {
		snprintf(reply, size, "failed");
		return true;
	}
	snprintf(row->addr, sizeof(row->addr), "%s", got.addr);
	snprintf(row->dot, sizeof(row->dot), "%s", got.tls_addr[0] ? got.tls_addr : "tcp");
	row->ready = true;
	char addr[160], pid_field[40], err[256];
	snprintf(addr, sizeof(addr), "addr=%s", row->addr);
	/* the process started (a wrapper's own), as the ready event always named; a daemon itself
	 */
	snprintf(pid_field, sizeof(pid_field), "pid:=%ld", (long)(row->daemon ? row->sample : pid));
	char *event[] = {"event", row->name, "ready", addr, pid_field};
	serve_rows_host_ask(h, event, 5, err, sizeof(err));
	snprintf(reply, size, "ok %s %ld", row->addr, (long)row->sample);
	return true;
}

bool serve_rows_group(struct serve_rows *r, char **w, int n, unsigned *procs, double *wait_s,
                      char *reply, size_t size)
{
	double timeout;
	char err[256];
	if (n < 3 || n - 2 > SUPERVISOR_MAX_PROCESSES) {
		snprintf(reply, size, "error: rows-ready TIMEOUT NAME... is expected");
		return false;
	}
	if (!cli_parse_duration("rows-ready TIMEOUT", w[1], 1, 0, SERVE_ROWS_READY_MAX_S, &timeout,
	                        err, sizeof(err))) {
		snprintf(reply, size, "error: %s", err);
		return false;
	}
	for (int i = 2; i < n; i++) {
		const struct served_row *row = serve_rows_named(r, w[i]);
		if (!row) {
			snprintf(reply, size, "error: rows-ready: no row '%.64s' started", w[i]);
			return false;
		}
		procs[i - 2] = row->proc;
		wait_s[i - 2] = row->daemon ? SERVE_ROWS_DAEMON_READY_S : timeout;
	}
	return true;
}

bool serve_rows_target(struct serve_rows *r, const char *name, char *target, size_t size, char *err,
                       size_t err_size)
{
	const struct served_row *row = serve_rows_named(r, name);
	if (!row || !row->ready) {
		snprintf(err, err_size, "row '%.64s' is not ready", name);
		return false;
	}
	char pid[24];
	snprintf(pid, sizeof(pid), "%ld", (long)row->sample);
	/* a --clients run: its DoT clients' address, or plain TCP */
	const char *dot = !r->settings.tls_dir[0] ? NULL : row->tls ? row->dot : "tcp";
	if (!loadgen_target_word(target, size, row->name, row->addr, pid, row->control, dot)) {
		snprintf(err, err_size, "row '%.64s': its target is too long", name);
		return false;
	}
	return true;
}

/* row-targets NAME...: "ok" and each ready row's --target word. */
static void row_targets(struct serve_rows *r, char **w, int n, char *reply, size_t size)
{
	snprintf(reply, size, "ok");
	for (int i = 1; i < n; i++) {
		char target[PATH_MAX + 512], err[128];
		if (!serve_rows_target(r, w[i], target, sizeof(target), err, sizeof(err))) {
			snprintf(reply, size, "error: row-targets: %s", err);
			return;
		}
		char *word = target;
		size_t at = strlen(reply);
		if (at + 1 >= size ||
		    !request_words_encode(&word, 1, reply + at + 1, size - at - 1)) {
			snprintf(reply, size, "error: row-targets: the answer is too long");
			return;
		}
		reply[at] = ' ';
	}
}

/* What rows-check says of each row: a runnable one's name appended to the answer; a failed one
 * said and its `failed` event. */
struct rows_check_answer {
	const struct serve_rows_host *h;
	char *reply;
	size_t size;
};

static void rows_check_told(void *ctx, const char *name, const json_t *version, bool failed,
                            const char *reason, const char *message)
{
	(void)version;
	struct rows_check_answer *a = ctx;
	if (!failed) {
		size_t at = strlen(a->reply);
		snprintf(a->reply + at, a->size - at, " %s", name);
		return;
	}
	row_failed(a->h, name, reason, message);
}

/* rows-check TABLE BIN_DIR DAEMONS_DIR ROWS [-- RESOLVER-OPTION...]: which rows can run
 * (rows_check_chosen), run.json's variants recorded; `ok RUNNABLE...`. */
static void rows_check(const struct serve_rows_host *h, char **w, int n, char *reply, size_t size)
{
	if (n < 5 || (n > 5 && strcmp(w[5], "--") != 0)) {
		snprintf(
		    reply, size,
		    "error: rows-check TABLE BIN_DIR DAEMONS_DIR ROWS [-- RESOLVER-OPTION...] is "
		    "expected");
		return;
	}
	struct variants_table table;
	char err[8192];
	if (!variants_table_read(&table, w[1], err, sizeof(err))) {
		snprintf(reply, size, "error: rows-check: %s", err);
		return;
	}
	struct rows_places at = {.bin_dir = w[2],
	                         .daemons_dir = w[3],
	                         .options = n > 5 ? w + 6 : NULL,
	                         .n_options = n > 5 ? (size_t)(n - 6) : 0};
	char *runnable = calloc(1, size); /* the answer, while run.json's record answers in reply */
	struct rows_check_answer told = {h, runnable, size};
	json_t *rows = runnable ? rows_check_chosen(&table, w[4], &at, rows_check_told, &told, err,
	                                            sizeof(err))
	                        : NULL;
	char *text = rows ? json_dumps(rows, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	char *set[] = {"runjson-set", ".variants", text};
	if (!runnable)
		snprintf(reply, size, "error: out of memory");
	else if (!rows)
		snprintf(reply, size, "error: rows-check: %s", err);
	else if (!text)
		snprintf(reply, size, "error: out of memory");
	else if (serve_rows_host_ask(h, set, 3, reply, size))
		snprintf(reply, size, "ok%s", runnable);
	free(runnable);
	free(text);
	json_decref(rows);
	variants_table_free(&table);
}

bool serve_rows_request(struct serve_rows *r, const struct serve_rows_host *h, char **w, int n,
                        char *reply, size_t size, int *wait_proc, double *wait_s)
{
	*wait_proc = -1;
	const char *req = w[0];
	if (strcmp(req, "rows-check") == 0) {
		rows_check(h, w, n, reply, size);
	} else if (strcmp(req, "rows-setup") == 0) {
		rows_setup(r, w + 1, n - 1, reply, size);
	} else if (strcmp(req, "row-start") == 0) {
		row_start(r, h, w, n, reply, size);
	} else if (strcmp(req, "row-targets") == 0 && n >= 2) {
		row_targets(r, w, n, reply, size);
	} else if (strcmp(req, "row-ready") == 0 && n == 3) {
		const struct served_row *row = serve_rows_named(r, w[1]);
		char err[256];
		if (!row)
			snprintf(reply, size, "error: row-ready: no row '%.64s' started", w[1]);
		else if (!cli_parse_duration("row-ready TIMEOUT", w[2], 1, 0,
		                             SERVE_ROWS_READY_MAX_S, wait_s, err, sizeof(err)))
			snprintf(reply, size, "error: %s", err);
		else
			*wait_proc = (int)row->proc;
	} else {
		return false;
	}
	return true;
}
