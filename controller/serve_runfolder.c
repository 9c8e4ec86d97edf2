/* controller/serve_runfolder.c - the run folder's requests of a served run (serve_runfolder.h). */
#include "serve_runfolder.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomic_write_file.h"
#include "json_file.h"
#include "proc_stat.h"
#include "program_output.h"
#include "run_json.h"
#include "run_outdir.h"
#include "run_registry.h"
#include "timeline_columns.h"

#define RF_STOP_ALL_GRACE_S 5.0
#define RF_REPORT_OUT_MAX (1u << 20) /* the harness scan's answer: a few KB in practice */

/* --- run.json --- */

/* run.json loaded, changed by apply (with its arguments), written back whole. */
static bool rf_runjson_change(struct serve_runfolder *rf, const char *req, char **w, int n,
                              char *reply, size_t size)
{
	char err[8192];
	if (!rf->run_json[0]) {
		snprintf(reply, size,
		         "error: %s: no run.json (ask `begin` or `runjson FILE` first)", req);
		return false;
	}
	json_t *doc = json_file_load(rf->run_json, err, sizeof(err)); /* keys kept in order */
	bool ok = doc != NULL;
	if (ok && strcmp(req, "runjson-set") == 0) {
		json_error_t jerr;
		json_t *value = json_loads(w[2], JSON_DECODE_ANY, &jerr);
		if (!value) {
			snprintf(err, sizeof(err), "JSON '%.200s': %s", w[2], jerr.text);
			ok = false;
		} else {
			ok = run_json_path_set(doc, w[1], value, err, sizeof(err));
		}
	} else if (ok && strcmp(req, "runjson-fields") == 0) {
		ok = run_json_fields_set(doc, w[1], w + 2, n - 2, err, sizeof(err));
	} else if (ok) { /* runjson-finish */
		ok = run_json_finish(doc, w[1], n == 3 ? w[2] : NULL);
		if (!ok)
			snprintf(err, sizeof(err), "STATUS and REASON must be UTF-8");
	}
	ok = ok && json_file_write_atomic_as(rf->run_json, doc, RUN_JSON_FLAGS, err, sizeof(err));
	json_decref(doc);
	if (ok)
		snprintf(reply, size, "ok");
	else
		snprintf(reply, size, "error: %s: %s", req, err);
	return ok;
}

static bool rf_status_valid(const char *status)
{
	return strcmp(status, "completed") == 0 || strcmp(status, "interrupted") == 0 ||
	       strcmp(status, "failed") == 0;
}

/* --- running a program and taking its output --- */

/* argv run to its end (stderr the controller's), its stdout into *out (malloc'ed) when out is not
 * NULL; its exit status. */
static int rf_run(char *const argv[], char **out)
{
	struct program_run how = {.max_out = RF_REPORT_OUT_MAX};
	return program_output(argv, &how, out);
}

/* A number as jq prints it: no ".0" after a whole one. */
static void rf_number(const json_t *v, char *out, size_t size)
{
	double d = json_number_value(v);
	if (d == (double)(long long)d)
		snprintf(out, size, "%lld", (long long)d);
	else
		snprintf(out, size, "%.10g", d);
}

/* `allocspike-report harness DIR` (report): its harness_saturated events appended to
 * DIR/events.jsonl, each said on stderr; its CPU shares into run.json's parameters.harness_cpu. */
static void rf_harness_scan(struct serve_runfolder *rf, const char *dir, const char *report)
{
	const char *who = rf->scenario[0] ? rf->scenario : "allocspike-run";
	if (!report[0]) {
		fprintf(stderr,
		        "%s: allocspike-report is missing: the harness's CPU was not checked\n",
		        who);
		return;
	}
	char *out = NULL;
	char *argv[] = {(char *)report, "harness", (char *)dir, NULL};
	int st = rf_run(argv, &out);
	json_t *scan = st == 0 && out ? json_loads(out, 0, NULL) : NULL;
	free(out);
	if (!scan) {
		fprintf(stderr,
		        "%s: allocspike-report harness failed (its message is above): the "
		        "harness's CPU was not checked\n",
		        who);
		return;
	}
	char path[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/events.jsonl", dir);
	int fd = file_open_for_writing(path, O_APPEND | O_CREAT);
	size_t i;
	json_t *ev;
	json_array_foreach(json_object_get(scan, "saturated"), i, ev)
	{
		/* written by the report's writer with its own t_s (a window's start): kept as it is
		 */
		char *line = json_dumps(ev, JSON_COMPACT | JSON_PRESERVE_ORDER);
		if (line && fd >= 0) {
			size_t len = strlen(line);
			line[len] = '\n';
			if (write(fd, line, len + 1) != (ssize_t)(len + 1))
				fprintf(stderr, "%s: %s: %s\n", who, path, strerror(errno));
		}
		free(line);
		char share[32], dur[32], t[32];
		rf_number(json_object_get(ev, "cpu_share"), share, sizeof(share));
		rf_number(json_object_get(ev, "duration_s"), dur, sizeof(dur));
		rf_number(json_object_get(ev, "t_s"), t, sizeof(t));
		fprintf(stderr, "%s: harness saturated: %s used %s of a core for %ss from t=%ss\n",
		        who, json_string_value(json_object_get(ev, "variant")), share, dur, t);
	}
	if (fd >= 0)
		close(fd);
	char *cpu = json_dumps(json_object_get(scan, "cpu"), JSON_COMPACT | JSON_ENCODE_ANY);
	char *set[] = {"runjson-set", ".parameters.harness_cpu", cpu ? cpu : "null"};
	char reply[8400];
	if (!rf_runjson_change(rf, "runjson-set", set, 3, reply, sizeof(reply)))
		fprintf(stderr, "%s: %s\n", who, reply);
	free(cpu);
	json_decref(scan);
}

/* --- the beginning --- */

static void rf_keep_stale(void *ctx, const char *run_dir, json_t *stopped)
{
	json_array_append_new(ctx, json_pack("{s:s, s:O}", "run", run_dir, "stopped", stopped));
}

/* begin OWNER_PID SCENARIO DIR */
/* The state folder could not be had or written: the run goes on, unregistered, said once. */
static void rf_state_lost(struct serve_runfolder *rf, const char *why)
{
	fprintf(stderr,
	        "allocspike-run: the state folder: %s; a kill of this run cannot be cleaned up by "
	        "the next one\n",
	        why);
	rf->state[0] = '\0';
}

static void rf_begin(struct serve_runfolder *rf, struct supervisor *sup, struct run_events *ev,
                     char **w, char *reply, size_t size)
{
	char err[9000], path[PATH_MAX + 32];
	char *end;
	long owner = strtol(w[1], &end, 10);
	struct proc_stat owner_stat, self;
	if (*end || owner <= 1 || !proc_stat_read((pid_t)owner, &owner_stat)) {
		snprintf(reply, size, "error: begin: OWNER_PID: no process '%.32s'", w[1]);
		return;
	}
	if (rf->dir[0] || sup->processes_fd >= 0) {
		snprintf(reply, size, "error: begin: this controller has its run folder already");
		return;
	}
	/* before this run writes anything: a killed run's folder may be this very path */
	json_t *stale = json_array();
	if (run_registry_dir(rf->state, sizeof(rf->state), err, sizeof(err))) {
		run_registry_clean_stale(rf->state, rf_keep_stale, stale);
	} else {
		rf_state_lost(rf, err);
	}
	if (!run_outdir_make(w[3], err, sizeof(err))) {
		snprintf(reply, size, "error: begin: the run folder: %s", err);
		json_decref(stale);
		return;
	}
	if (!realpath(w[3], rf->dir)) {
		snprintf(reply, size, "error: begin: %s: %s", w[3], strerror(errno));
		json_decref(stale);
		return;
	}
	snprintf(rf->scenario, sizeof(rf->scenario), "%s", w[2]);
	rf->owner = (pid_t)owner;
	/* everything the run creates here is new: nothing (no link) is followed out of it */
	snprintf(path, sizeof(path), "%s/logs", rf->dir);
	bool ok = mkdir(path, 0777) == 0;
	if (!ok)
		snprintf(err, sizeof(err), "cannot create %s: %s", path, strerror(errno));
	snprintf(rf->run_json, sizeof(rf->run_json), "%s/run.json", rf->dir);
	ok = ok && run_json_create(rf->run_json, w[2], err, sizeof(err));
	int fd = ok ? processes_file_create(rf->dir, err, sizeof(err)) : -1;
	ok = fd >= 0 &&
	     processes_file_add(fd, RUN_OWNER_SCENARIO, rf->owner, owner_stat.start_ticks) &&
	     processes_file_add(fd, RUN_OWNER_CONTROLLER, getpid(),
	                        proc_stat_read(getpid(), &self) ? self.start_ticks : 0);
	if (fd >= 0 && !ok)
		snprintf(err, sizeof(err), "%s/processes.tsv: %s", rf->dir, strerror(errno));
	sup->processes_fd = fd;
	if (ok && rf->state[0] &&
	    !run_registry_add(rf->state, rf->owner, rf->dir, err, sizeof(err))) {
		rf_state_lost(rf, err);
	}
	snprintf(path, sizeof(path), "%s/events.jsonl", rf->dir);
	ok = ok && run_events_open(ev, path, err, sizeof(err));
	size_t i;
	json_t *run;
	json_array_foreach(stale, i, run)
	{
		if (ok)
			run_events_add(ev, RUN_OWNER_SCENARIO, "stale_run", json_incref(run));
	}
	json_decref(stale);
	if (ok) {
		snprintf(reply, size, "ok %s", rf->dir);
		return;
	}
	snprintf(reply, size, "error: begin: %s", err);
	if (rf->state[0]) /* nothing runs yet: nothing for a later run to clean */
		run_registry_remove(rf->state, rf->owner);
}

/* --- the end --- */

/* DIR/timeline.csv with its header only, when the generator never wrote one: the report can still
 * say what happened. */
static void rf_timeline_header(const char *dir)
{
	static const char *const columns[] = {
#define RF_COLUMN(name) #name,
	    TIMELINE_COLUMNS(RF_COLUMN)
#undef RF_COLUMN
	};
	char path[PATH_MAX + 16], header[4096], err[PATH_MAX + 256];
	snprintf(path, sizeof(path), "%s/timeline.csv", dir);
	struct stat st;
	if (lstat(path, &st) == 0)
		return;
	size_t len = 0;
	for (size_t i = 0; i < sizeof(columns) / sizeof(*columns); i++)
		len += (size_t)snprintf(header + len, sizeof(header) - len, "%s%s", i ? "," : "",
		                        columns[i]);
	snprintf(header + len, sizeof(header) - len, "\n");
	if (!atomic_write_file(path, header, strlen(header), err, sizeof(err)))
		fprintf(stderr, "allocspike-run: %s\n", err);
}

/* finish STATUS [reason=TEXT] [signal=NAME] [report=PROGRAM] [timeline=no] */
static void rf_finish(struct serve_runfolder *rf, struct supervisor *sup, struct run_events *ev,
                      char **w, int n, char *reply, size_t size)
{
	const char *status = w[1], *reason = "", *signame = "", *report = NULL;
	bool timeline = true;
	if (!rf_status_valid(status)) {
		snprintf(reply, size,
		         "error: finish: STATUS: '%.64s' is not completed, interrupted or failed",
		         status);
		return;
	}
	for (int i = 2; i < n; i++) {
		if (strncmp(w[i], "reason=", 7) == 0)
			reason = w[i] + 7;
		else if (strncmp(w[i], "signal=", 7) == 0)
			signame = w[i] + 7;
		else if (strncmp(w[i], "report=", 7) == 0)
			report = w[i] + 7;
		else if (strcmp(w[i], "timeline=no") == 0)
			timeline = false;
		else {
			snprintf(reply, size,
			         "error: finish: '%.64s' is none of reason=TEXT, signal=NAME, "
			         "report=PROGRAM, timeline=no",
			         w[i]);
			return;
		}
	}
	if (!rf->dir[0]) {
		snprintf(reply, size, "error: finish: no run folder (ask `begin` first)");
		return;
	}
	char err[PATH_MAX + 256], left[8192], why[8400];
	supervisor_stop_all(sup, RF_STOP_ALL_GRACE_S);
	/* interrupted during the calibration or a cpu.sh pass: back to the run's own events first
	 */
	while (ev->depth > 0 && run_events_pop(ev, err, sizeof(err))) {
	}
	bool leftovers = supervisor_leftovers_wait(sup, left, sizeof(left));
	if (leftovers) {
		size_t len = strlen(left);
		while (len > 0 && left[len - 1] == '\n')
			left[--len] = '\0';
		fprintf(stderr, "%s: still running after the stop: %s\n", rf->scenario, left);
		run_events_add(ev, RUN_OWNER_SCENARIO, "leftover",
		               json_pack("{s:s}", "processes", left));
		if (strcmp(status, "completed") == 0) {
			status = "failed";
			snprintf(why, sizeof(why), "processes left running: %s", left);
			reason = why;
		}
	}
	if (strcmp(status, "interrupted") == 0)
		run_events_add(ev, RUN_OWNER_SCENARIO, "interrupted",
		               json_pack("{s:s}", "signal", signame));
	else if (strcmp(status, "failed") == 0)
		run_events_add(ev, RUN_OWNER_SCENARIO, "failed",
		               json_pack("{s:s}", "reason", reason));
	run_events_close(ev);
	/* left over: the next run finds them and stops them */
	if (!leftovers && rf->state[0])
		run_registry_remove(rf->state, rf->owner);
	/* one line per upstream query: hundreds of MB over a default run; gzip -1 keeps it readable
	 */
	char path[PATH_MAX + 32];
	struct stat st;
	snprintf(path, sizeof(path), "%s/upstream-applied.log", rf->dir);
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		char *gzip[] = {"gzip", "-1", "-f", path, NULL};
		rf_run(gzip, NULL);
	}
	if (timeline)
		rf_timeline_header(rf->dir);
	snprintf(path, sizeof(path), "%s/timeline.csv", rf->dir);
	if (report && stat(path, &st) == 0 && st.st_size > 0)
		rf_harness_scan(rf, rf->dir, report);
	char *fin[] = {"runjson-finish", (char *)status, (char *)reason};
	if (!rf_runjson_change(rf, "runjson-finish", fin, 3, why, sizeof(why)))
		fprintf(stderr, "%s: %s\n", rf->scenario, why);
	snprintf(reply, size, "ok %s", status);
}

bool serve_runfolder_request(struct serve_runfolder *rf, struct supervisor *sup,
                             struct run_events *ev, char **w, int n, char *reply, size_t size)
{
	const char *req = w[0];
	if (strcmp(req, "begin") == 0 && n == 4) {
		rf_begin(rf, sup, ev, w, reply, size);
	} else if (strcmp(req, "finish") == 0 && n >= 2) {
		rf_finish(rf, sup, ev, w, n, reply, size);
	} else if (strcmp(req, "runjson") == 0 && n == 3) {
		char err[PATH_MAX + 256];
		if (run_json_create(w[1], w[2], err, sizeof(err))) {
			snprintf(rf->run_json, sizeof(rf->run_json), "%s", w[1]);
			snprintf(reply, size, "ok");
		} else {
			snprintf(reply, size, "error: runjson: %s", err);
		}
	} else if ((strcmp(req, "runjson-set") == 0 && n == 3) ||
	           (strcmp(req, "runjson-fields") == 0 && n >= 3)) {
		rf_runjson_change(rf, req, w, n, reply, size);
	} else if (strcmp(req, "runjson-finish") == 0 && (n == 2 || n == 3)) {
		if (rf_status_valid(w[1]))
			rf_runjson_change(rf, req, w, n, reply, size);
		else
			snprintf(reply, size,
			         "error: runjson-finish: STATUS: '%.64s' is not completed, "
			         "interrupted or failed",
			         w[1]);
	} else if (strcmp(req, "harness-scan") == 0 && n == 3) {
		rf_harness_scan(rf, w[1], w[2]);
		snprintf(reply, size, "ok");
	} else {
		return false;
	}
	return true;
}
