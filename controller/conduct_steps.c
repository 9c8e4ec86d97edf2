/* controller/conduct_steps.c - a conducted run's steps (conduct_steps.h). */
#include "conduct_steps.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conduct_presets.h"
#include "cpu_placement.h"
#include "run_events.h"
#include "run_json.h"
#include "run_words.h"
#include "serve_conduct.h"
#include "steps_client.h"
#include "supervisor.h"
#include "variant_command.h"
#include "variants_table.h"

#define STEPS_MAX_TOOLS 4

/* The steps in their order; a step a scenario has no part in is passed over. */
enum step {
	STEP_PARAMETERS,  /* run.json's machine, parameters and programs */
	STEP_ROWS_CHECK,  /* the rows that can run */
	STEP_HIERARCHY,   /* the simulated hierarchy started */
	STEP_QUERIES,     /* the query file */
	STEP_ROWS_SETUP,  /* the rows' settings (after spike.sh --clients' certificate) */
	STEP_CALIBRATE,   /* an `auto` spike height */
	STEP_SPIKE_RATE,  /* the spike height in run.json */
	STEP_SCHEDULE,    /* the schedule in run.json */
	STEP_PASS_EVENTS, /* cpu.sh: a pass's own events file */
	STEP_DRIVE,       /* the schedule over the rows */
	STEP_PASS_END,    /* cpu.sh: back to the run's events; the next tool */
	STEP_CAPACITIES,  /* ramp.sh: each row's capacity */
	STEP_WARMUP,      /* the warm-up check */
	STEP_FOOTPRINT,   /* footprint.sh: its report */
	STEP_DONE,
};

struct conduct_steps {
	struct serve_conduct *c;
	enum conduct_preset preset;
	struct steps_client *client;
	json_t *options;
	struct variants_table table;
	char bin[PATH_MAX], table_path[PATH_MAX + 16], daemons[PATH_MAX + 32], ctl_dir[PATH_MAX];
	char rows[4096];                              /* the chosen rows, "a,b,c" */
	char runnable[4096];                          /* those that can run, "a b c" */
	const char *chosen[SUPERVISOR_MAX_PROCESSES]; /* the chosen rows' names (the table's) */
	size_t n_chosen;
	char *run_rows[SUPERVISOR_MAX_PROCESSES];
	size_t n_run_rows;
	struct cpu_placement cpus;
	char up_port[16], hints[PATH_MAX], queries[PATH_MAX], tls[PATH_MAX + 8];
	char spike_rate[32], schedule[1024], parameters[512];
	char origin[64]; /* the last drive's t_s = 0, wall-clock seconds */
	char tools[STEPS_MAX_TOOLS][16];
	size_t n_tools, tool; /* cpu.sh's tools, the one whose pass is under way */
	char pass_dir[PATH_MAX + 32];
	char **w; /* the request under way */
	size_t n;
	enum step step;
	bool ended;
	char why[512]; /* what a builder of words said when it failed */
};

static void steps_say(const struct conduct_steps *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", s->c->scenario);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* The steps end: completed, or failed with why (said, and the run's failure when the first). */
static void steps_end(struct conduct_steps *s, const char *why)
{
	if (s->ended)
		return;
	s->ended = true;
	if (why) {
		fprintf(stderr, "%s: error: %s\n", s->c->scenario, why);
		if (!s->c->failure[0])
			snprintf(s->c->failure, sizeof(s->c->failure), "%s", why);
	}
	s->c->status = why ? 1 << 8 : 0; /* as waitpid gives exit 1 or 0 */
	s->c->ended = true;
}

static void steps_fail(struct conduct_steps *s, const char *fmt, ...)
{
	char why[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	steps_end(s, why);
}

/* The host a run across hosts failed on, as its events name it (a shard's failure, else a
 * placement's: docs/controller.md, "spike.sh --hosts"): ": host H (agent A)[, shard I/N]: REASON"
 * into out, "" when they name none. */
static void steps_placed_failure(const char *dir, char *out, size_t size)
{
	char path[8192];
	snprintf(path, sizeof(path), "%s/events.jsonl", dir);
	json_t *e = run_events_file_find(path, 0, NULL, "shard_failed");
	if (!e)
		e = run_events_file_find(path, 0, NULL, "placement_failed");
	const char *host = json_string_value(json_object_get(e, "host")),
	           *agent = json_string_value(json_object_get(e, "agent")),
	           *shard = json_string_value(json_object_get(e, "shard")),
	           *reason = json_string_value(json_object_get(e, "reason"));
	out[0] = '\0';
	if (host && agent && reason)
		snprintf(out, size, ": host %s (agent %s)%s%s: %s", host, agent,
		         shard ? ", shard " : "", shard ? shard : "", reason);
	json_decref(e);
}

/* Appends a word made as printf makes it to the request under way. */
static bool steps_word(struct conduct_steps *s, const char *fmt, ...)
{
	char word[8192];
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(word, sizeof(word), fmt, ap);
	va_end(ap);
	return len >= 0 && (size_t)len < sizeof(word) && variant_words_add(&s->w, &s->n, word);
}

static bool steps_words(struct conduct_steps *s, const char *const *words, size_t count)
{
	return variant_words_add_n(&s->w, &s->n, words, count);
}

/* BIN/NAME into path, or the run failed naming it, as a scenario's programs are looked for. */
static bool steps_program(struct conduct_steps *s, const char *name, const char *why, char *path,
                          size_t size)
{
	snprintf(path, size, "%s/%s", s->bin, name);
	if (access(path, X_OK) == 0)
		return true;
	steps_fail(s,
	           "%s is missing from %s (needed %s); build it (scripts/build.sh) or set "
	           "ALLOCSPIKE_BIN",
	           name, s->bin, why);
	return false;
}

static const struct variant_row *steps_row(const struct conduct_steps *s, const char *name)
{
	return variants_table_find(&s->table, name);
}

/* A row we start from our own build: a build, or an env row of one. */
static bool steps_row_ours(const struct conduct_steps *s, const char *name)
{
	const struct variant_row *r = steps_row(s, name);
	const char *kind = r ? r->cells[VARIANT_KIND] : "";
	return strcmp(kind, "build") == 0 || strcmp(kind, "env") == 0;
}

/* ok, what a builder said; when false, the steps end with why it gave (s->why). */
static bool steps_built(struct conduct_steps *s, bool ok)
{
	if (!ok)
		steps_fail(s, "%s", s->why);
	return ok;
}

/* A drive's (or the calibration's) words after its DIR SCHEDULE: the generator, the query file,
 * the CPUs, the ready timeout, then its options; measured: the scenario's own for the measured
 * drive (footprint's sampler and poller, a cpu.sh pass's tool). */
static bool steps_drive_words(struct conduct_steps *s, bool measured)
{
	char lg[PATH_MAX + 32];
	snprintf(lg, sizeof(lg), "%s/allocspike-loadgen", s->bin);
	if (!steps_words(
	        s, (const char *const[]){lg, s->queries, s->cpus.harness, s->cpus.resolvers}, 4) ||
	    !steps_word(s, "%us", conduct_preset_ready_timeout_s(s->preset)))
		return false;
	if (run_json_option_or_empty(s->options, "hosts")[0]) {
		char place[8192];
		return steps_built(s, run_words_place(place, sizeof(place), s->options, s->c->dir,
		                                      s->why, sizeof(s->why))) &&
		       steps_word(s, "place=%s", place);
	}
	const char *tool = s->preset == PRESET_CPU ? s->tools[s->tool] : NULL;
	char wrap[PATH_MAX * 3];
	for (size_t i = 0; measured && i < s->n_run_rows; i++) {
		const char *name = s->run_rows[i];
		if (!steps_row_ours(s, name))
			continue;
		if (tool)
			conduct_preset_tool_wrap(tool, s->pass_dir, name, wrap, sizeof(wrap));
		else if (s->preset == PRESET_FOOTPRINT)
			conduct_preset_footprint_wrap(s->bin, s->ctl_dir, name,
			                              steps_row(s, name)->cells[VARIANT_ALLOCATOR],
			                              wrap, sizeof(wrap));
		else
			continue;
		if (!steps_word(s, "wrap=%s:%s", name, wrap))
			return false;
	}
	if (measured && s->preset == PRESET_FOOTPRINT) {
		conduct_preset_footprint_poller(s->bin, s->c->dir, wrap, sizeof(wrap));
		if (!steps_word(s, "during=%s", wrap))
			return false;
	}
	if (measured && tool && strcmp(tool, "perf") == 0 && !steps_word(s, "stop-child=15s"))
		return false;
	return strcmp(run_json_option_or_empty(s->options, "serial"), "1") != 0 ||
	       steps_word(s, "serial");
}

/* A cpu.sh pass: the next tool with a row of ours to run under it, its folder made and its events
 * file pushed (each row alone on a clock of its own: drive's serial). False when none is left. */
static bool steps_pass(struct conduct_steps *s)
{
	for (; s->tool < s->n_tools; s->tool++) {
		const char *tool = s->tools[s->tool];
		char rows[4096] = "";
		for (size_t i = 0; i < s->n_run_rows; i++) {
			if (!steps_row_ours(s, s->run_rows[i]))
				steps_say(s,
				          "%s: %s is a daemon row; cpu.sh measures our own "
				          "resolver builds only",
				          tool, s->run_rows[i]);
			else
				snprintf(rows + strlen(rows), sizeof(rows) - strlen(rows), "%s%s",
				         rows[0] ? " " : "", s->run_rows[i]);
		}
		snprintf(s->pass_dir, sizeof(s->pass_dir), "%s/%s", s->c->dir, tool);
		char logs[PATH_MAX + 64];
		snprintf(logs, sizeof(logs), "%s/logs", s->pass_dir);
		if (!rows[0])
			continue;
		if ((mkdir(s->pass_dir, 0755) != 0 && errno != EEXIST) ||
		    (mkdir(logs, 0755) != 0 && errno != EEXIST)) {
			steps_fail(s, "cannot create %s", logs);
			return false;
		}
		steps_say(s, "%s: %s, one at a time", tool, rows);
		return steps_word(s, "events-push") &&
		       steps_word(s, "%s/events.jsonl", s->pass_dir);
	}
	return false;
}

/* The drive's rows: every runnable one, or a cpu.sh pass's own. */
static bool steps_drive_rows(struct conduct_steps *s)
{
	for (size_t i = 0; i < s->n_run_rows; i++)
		if ((s->preset != PRESET_CPU || steps_row_ours(s, s->run_rows[i])) &&
		    !steps_word(s, "%s", s->run_rows[i]))
			return false;
	return true;
}

/* Step's request into s->w: true when there is one to ask, false when the step is passed over
 * (or the steps ended: s->ended). */
static bool steps_make(struct conduct_steps *s)
{
	char path[PATH_MAX + 64], err[512];
	const char *repeat = getenv("ALLOCSPIKE_REPEAT");
	switch (s->step) {
	case STEP_PARAMETERS:
		return steps_words(s,
		                   (const char *const[]){"parameters", s->c->steps_options, s->bin},
		                   3) &&
		       (!repeat || !repeat[0] || steps_word(s, "%s", repeat));
	case STEP_ROWS_CHECK:
		if (!steps_words(s,
		                 (const char *const[]){"rows-check", s->table_path, s->bin,
		                                       s->daemons, s->rows, "--"},
		                 6))
			return false;
		return steps_built(
		    s, run_words_resolver(&s->w, &s->n, s->options, s->why, sizeof(s->why)));
	case STEP_HIERARCHY: {
		if (!steps_program(s, "allocspike-upstream", "for the simulated DNS hierarchy",
		                   path, sizeof(path)))
			return false;
		/* a daemon cannot change its upstream port */
		bool port53 = false;
		for (size_t i = 0; i < s->n_chosen; i++)
			port53 |= !steps_row_ours(s, s->chosen[i]);
		if (port53)
			steps_say(s,
			          "a daemon variant is chosen: the hierarchy listens on port 53");
		return steps_words(s,
		                   (const char *const[]){"hierarchy", path, s->cpus.harness,
		                                         port53 ? "53" : "0"},
		                   4) &&
		       steps_word(s, "given=%s", s->c->steps_given);
	}
	case STEP_QUERIES: {
		unsigned long long count;
		char querydata[PATH_MAX + 32];
		if (!steps_program(s, "allocspike-loadgen",
		                   "to count the schedule's queries and send them", path,
		                   sizeof(path)))
			return false;
		if (!conduct_preset_query_count(s->preset, s->options, &count, err, sizeof(err))) {
			steps_fail(s, "%s", err);
			return false;
		}
		snprintf(path, sizeof(path), "%s/.cache", s->c->steps_root);
		snprintf(querydata, sizeof(querydata), "%s/allocspike-querydata", s->bin);
		return steps_word(s, "queries") && steps_word(s, "%llu", count) &&
		       steps_words(s, (const char *const[]){path, querydata}, 2);
	}
	case STEP_ROWS_SETUP:
		if (s->preset == PRESET_SPIKE &&
		    strcmp(run_json_option_or_empty(s->options, "clients"), "1") == 0 &&
		    !conduct_preset_certificate(s->c->dir, s->tls, sizeof(s->tls), err,
		                                sizeof(err))) {
			steps_fail(s, "%s", err);
			return false;
		}
		return steps_word(s, "rows-setup") &&
		       steps_built(s, run_words_rows(&s->w, &s->n, s->options,
		                                     &(struct run_words_rows){
		                                         s->c->steps_root, s->bin, s->rows,
		                                         s->hints, s->up_port, s->tls},
		                                     s->why, sizeof(s->why)));
	case STEP_CALIBRATE:
		if (strcmp(s->spike_rate, "auto") != 0)
			return false;
		snprintf(path, sizeof(path), "%u", CONDUCT_CALIBRATE_EXTENSIONS);
		return steps_words(s,
		                   (const char *const[]){
		                       "calibrate", s->c->dir,
		                       run_json_option_or_empty(s->options, "spike_multiple"), path,
		                       run_json_option_or_empty(s->options, "calibrate_max")},
		                   5) &&
		       steps_drive_words(s, false) && steps_word(s, "--") &&
		       steps_words(s, (const char *const *)s->run_rows, s->n_run_rows);
	case STEP_SPIKE_RATE:
		if (!conduct_preset_schedule(s->preset, s->options, s->spike_rate, s->schedule,
		                             sizeof(s->schedule), s->parameters,
		                             sizeof(s->parameters), err, sizeof(err))) {
			steps_fail(s, "%s", err);
			return false;
		}
		if (s->preset == PRESET_FOOTPRINT) {
			conduct_preset_sampler(s->bin, path, sizeof(path));
			if (access(path, R_OK) != 0) {
				steps_fail(s, "the live sampler is missing: %s", path);
				return false;
			}
		}
		return s->spike_rate[0] &&
		       steps_words(s,
		                   (const char *const[]){
		                       "runjson-set", ".parameters.spike_rate_qps", s->spike_rate},
		                   3);
	case STEP_SCHEDULE:
		if (!steps_words(s, (const char *const[]){"runjson-fields", ".parameters"}, 2) ||
		    !steps_word(s, "schedule=%s", s->schedule) ||
		    !variant_words_add_lines(&s->w, &s->n, s->parameters))
			return false;
		steps_say(s, "run folder %s; variants %s; %s", s->c->dir, s->runnable,
		          strcmp(run_json_option_or_empty(s->options, "serial"), "1") == 0
		              ? "serial"
		              : "parallel");
		return true;
	case STEP_PASS_EVENTS:
		if (s->preset != PRESET_CPU)
			return false;
		return steps_pass(s);
	case STEP_DRIVE:
		return steps_words(s,
		                   (const char *const[]){
		                       "drive", s->preset == PRESET_CPU ? s->pass_dir : s->c->dir,
		                       s->schedule},
		                   3) &&
		       steps_drive_words(s, true) && steps_word(s, "--") && steps_drive_rows(s);
	case STEP_PASS_END:
		return s->preset == PRESET_CPU && steps_word(s, "events-pop");
	case STEP_CAPACITIES:
		return s->preset == PRESET_RAMP &&
		       steps_words(s, (const char *const[]){"capacities", s->c->dir}, 2);
	case STEP_WARMUP:
		if (s->preset == PRESET_CPU)
			return false;
		if (s->preset == PRESET_FOOTPRINT &&
		    !conduct_preset_sizes_origin(s->c->dir, s->origin, err, sizeof(err))) {
			steps_fail(s, "%s", err);
			return false;
		}
		return steps_words(s, (const char *const[]){"warmup-check", s->c->dir}, 2);
	case STEP_FOOTPRINT:
		if (s->preset == PRESET_FOOTPRINT &&
		    !conduct_preset_footprint_report(s->bin, s->c->dir, err, sizeof(err)))
			steps_fail(s, "%s", err);
		return false;
	case STEP_DONE:
		break;
	}
	return false;
}

/* Splits text (modified) at its spaces into up to max words; their count. */
static size_t steps_split(char *text, char **words, size_t max)
{
	size_t n = 0;
	for (char *save = NULL, *t = strtok_r(text, " ", &save); t && n < max;
	     t = strtok_r(NULL, " ", &save))
		words[n++] = t;
	return n;
}

/* The answer to the step's request taken; false when the steps end with it. */
static bool steps_take(struct conduct_steps *s, char *answer)
{
	char *a[SUPERVISOR_MAX_PROCESSES * 4 + 8];
	bool error = strncmp(answer, "error", 5) == 0;
	if (error) /* as `allocspike-run ask` says it */
		fprintf(stderr, "%s: %s: %s\n", s->c->scenario, s->w[0], answer);
	switch (s->step) {
	case STEP_PARAMETERS:
		if (error)
			steps_fail(s,
			           "the run's controller could not record the run's parameters: %s",
			           answer);
		break;
	case STEP_ROWS_CHECK:
		if (error) {
			steps_fail(s, "the run's controller could not check the rows (see above)");
			break;
		}
		snprintf(s->runnable, sizeof(s->runnable), "%s", answer[2] ? answer + 3 : "");
		s->n_run_rows = steps_split(answer + 2, s->run_rows, SUPERVISOR_MAX_PROCESSES);
		for (size_t i = 0; i < s->n_run_rows; i++)
			s->run_rows[i] = strdup(s->run_rows[i]);
		if (s->n_run_rows == 0)
			steps_fail(s, "none of the chosen variants can run (%s); see above",
			           s->rows);
		break;
	case STEP_HIERARCHY: { /* ok PORT PID HINTS, the hints' path the rest of the line */
		int at = -1;
		if (!error)
			sscanf(answer, "ok %15s %*s %n", s->up_port, &at);
		if (at < 0 || !answer[at]) {
			steps_fail(
			    s, "the simulated hierarchy did not start (see %s/logs/upstream.log)",
			    s->c->dir);
			break;
		}
		snprintf(s->hints, sizeof(s->hints), "%s", answer + at);
		break;
	}
	case STEP_QUERIES:
		if (strncmp(answer, "ok ", 3) == 0)
			snprintf(s->queries, sizeof(s->queries), "%s", answer + 3);
		else if (strncmp(answer, "failed ", 7) == 0)
			steps_fail(s, "%s", answer + 7);
		else
			steps_fail(s, "the query file was not made (see %s/logs/querydata.log)",
			           s->c->dir);
		break;
	case STEP_ROWS_SETUP:
		if (error)
			steps_fail(s, "the controller refused the rows' settings (see above)");
		break;
	case STEP_CALIBRATE: /* rate RATE CAPACITY SLOWEST [at-limit] */
		if (error || steps_split(answer, a, 5) < 4) {
			steps_fail(s, "the calibration of %s decided nothing (see above)",
			           s->c->dir);
		} else if (strcmp(a[2], "0") == 0) {
			steps_fail(s,
			           "calibration: variant %s answered nothing (see "
			           "%s/calibration/logs/%s.log)",
			           a[3], s->c->dir, a[3]);
		} else {
			snprintf(s->spike_rate, sizeof(s->spike_rate), "%s", a[1]);
			steps_say(s,
			          "calibrated: slowest variant %s answers %s qps; spikes at %s qps",
			          a[3], a[2], a[1]);
		}
		break;
	case STEP_SPIKE_RATE:
	case STEP_SCHEDULE:
	case STEP_PASS_EVENTS:
		if (error)
			steps_fail(s, "the run's controller refused %s (see above)", s->w[0]);
		break;
	case STEP_DRIVE: {
		const char *dir = s->preset == PRESET_CPU ? s->pass_dir : s->c->dir;
		size_t n = error ? 0 : steps_split(answer, a, 4);
		if (error)
			steps_fail(s, "the run's controller could not drive %s (see above)",
			           s->runnable);
		else if (strcmp(a[0], "ok") != 0 || n < 3)
			if (s->preset == PRESET_CPU)
				steps_say(s, "%s: no row ran (see %s/logs/)", s->tools[s->tool],
				          dir);
			else
				steps_fail(s, "no variant became ready (see %s/logs/)", dir);
		else if (strcmp(a[2], "0") != 0 &&
		         run_json_option_or_empty(s->options, "hosts")[0]) {
			char host[768];
			steps_placed_failure(dir, host, sizeof(host));
			steps_fail(s,
			           "the generator exited with status %s%s (see "
			           "%s/logs/loadgen.log and place.log)",
			           a[2], host, dir);
		} else if (strcmp(a[2], "0") != 0)
			steps_fail(s,
			           "the generator exited with status %s (see %s/logs/loadgen.log)",
			           a[2], dir);
		else
			snprintf(s->origin, sizeof(s->origin), "%s", a[1]);
		break;
	}
	case STEP_PASS_END:
		s->tool++;
		break;
	case STEP_CAPACITIES: { /* ok [NAME CAPACITY PEAK SHARE]... */
		if (error) {
			steps_fail(s, "the capacities of %s were not found (see above)", s->c->dir);
			break;
		}
		size_t n = steps_split(answer, a, sizeof(a) / sizeof(*a));
		fprintf(stderr, "%-20s %12s %18s %s\n", "variant", "capacity_qps",
		        "peak_answered_qps", "answered_share_at_top");
		for (size_t i = 1; i + 3 < n; i += 4)
			fprintf(stderr, "%-20s %12s %18s %s\n", a[i], a[i + 1], a[i + 2], a[i + 3]);
		break;
	}
	case STEP_WARMUP: { /* ok CAP [NAME BYTES]... (the caches still filling), or skipped */
		if (error) {
			steps_say(s, "the warm-up was not checked (the reason is above)");
			break;
		}
		size_t n = steps_split(answer, a, sizeof(a) / sizeof(*a));
		for (size_t i = 2; n > 1 && i + 1 < n; i += 2)
			steps_say(s,
			          "warm-up: %s's cache was still filling (%s of %s bytes); raise "
			          "--warmup-len or --warmup-rate, or lower --cache-size",
			          a[i], a[i + 1], a[1]);
		break;
	}
	case STEP_FOOTPRINT:
	case STEP_DONE:
		break;
	}
	return !s->ended;
}

/* On from the step just asked (asked) or passed over: cpu.sh's passes loop, one per tool, until
 * none is left; every other step leads to the one after it. */
static void steps_next(struct conduct_steps *s, bool asked)
{
	if (s->step == STEP_PASS_END && asked)
		s->step = STEP_PASS_EVENTS; /* the next tool's pass, if any */
	else if (s->step == STEP_PASS_EVENTS && !asked && s->preset == PRESET_CPU)
		s->step = STEP_PASS_END + 1; /* no pass left: on to what follows them */
	else
		s->step++;
}

/* The next requests asked, the steps passed over meanwhile; the end once none is left. */
static void steps_go(struct conduct_steps *s)
{
	while (!s->ended && s->step < STEP_DONE) {
		variant_words_free(s->w);
		s->w = NULL;
		s->n = 0;
		bool ask = steps_make(s);
		if (s->ended)
			return;
		if (ask) {
			char err[512];
			if (!steps_client_ask(s->client, s->w, s->n, err, sizeof(err)))
				steps_fail(s, "%s: %s", s->w[0], err);
			return;
		}
		if (s->n > 0) {
			steps_fail(s, "out of memory");
			return;
		}
		steps_next(s, false);
	}
	steps_end(s, NULL);
}

static void steps_answered(void *ctx, char *answer)
{
	struct conduct_steps *s = ctx;
	if (s->ended)
		return;
	if (!answer) {
		steps_fail(s, "%s: the run's controller gave no answer", s->w[0]);
		return;
	}
	if (steps_take(s, answer)) {
		steps_next(s, true);
		steps_go(s);
	}
}

/* The run's options and rows read, as the scenario gave them. */
static bool steps_read(struct conduct_steps *s, const char *socket_path)
{
	struct serve_conduct *c = s->c;
	char err[1024];
	json_error_t jerr;
	s->options = json_loads(c->steps_options, 0, &jerr);
	if (!json_is_object(s->options)) {
		fprintf(stderr, "%s: error: --options: not a JSON object: %s\n", c->scenario,
		        jerr.text);
		return false;
	}
	snprintf(s->bin, sizeof(s->bin), "%s", c->steps_bin);
	run_words_source(c->steps_root, s->table_path, sizeof(s->table_path), s->daemons,
	                 sizeof(s->daemons));
	snprintf(s->ctl_dir, sizeof(s->ctl_dir), "%s", socket_path);
	*strrchr(s->ctl_dir, '/') = '\0';
	bool ok = variants_table_read(&s->table, s->table_path, err, sizeof(err));
	size_t *chosen = ok ? calloc(s->table.count + 1, sizeof(*chosen)) : NULL, n = 0;
	if (ok && !chosen)
		ok = (snprintf(err, sizeof(err), "out of memory"), false);
	ok = ok &&
	     run_words_chosen(&s->table, s->options, chosen, &n, s->rows, sizeof(s->rows), err,
	                      sizeof(err)) &&
	     cpu_placement_choose(run_json_option_or_empty(s->options, "cpu_placement"), &s->cpus,
	                          err, sizeof(err));
	for (size_t i = 0; ok && i < n && s->n_chosen < SUPERVISOR_MAX_PROCESSES; i++)
		s->chosen[s->n_chosen++] = s->table.rows[chosen[i]].cells[VARIANT_NAME];
	free(chosen);
	if (!ok) {
		fprintf(stderr, "%s: error: %s\n", c->scenario, err);
		return false;
	}
	const char *rate = conduct_preset_spike_rate(s->preset, s->options);
	snprintf(s->spike_rate, sizeof(s->spike_rate), "%s", rate ? rate : "");
	if (s->preset == PRESET_CPU)
		s->n_tools = conduct_preset_tools(s->options, s->tools, STEPS_MAX_TOOLS);
	return true;
}

struct conduct_steps *conduct_steps_start(struct serve_conduct *c, struct event_base *base,
                                          const char *socket_path)
{
	struct conduct_steps *s = calloc(1, sizeof(*s));
	if (!s) {
		fprintf(stderr, "%s: error: out of memory\n", c->scenario);
		return NULL;
	}
	s->c = c;
	if (!conduct_preset_of(c->scenario, &s->preset)) {
		fprintf(stderr, "%s: error: the controller has no steps for scenario '%s'\n",
		        c->scenario, c->scenario);
	} else if (steps_read(s, socket_path) &&
	           (s->client = steps_client_new(base, socket_path, steps_answered, s)) != NULL) {
		steps_go(s);
		return s;
	}
	conduct_steps_free(s);
	return NULL;
}

void conduct_steps_interrupt(struct conduct_steps *s)
{
	if (!s || s->ended)
		return;
	steps_client_drop(s->client);
	s->ended = true;
	s->c->ended = true;
}

void conduct_steps_free(struct conduct_steps *s)
{
	if (!s)
		return;
	steps_client_free(s->client);
	variant_words_free(s->w);
	for (size_t i = 0; i < s->n_run_rows; i++)
		free(s->run_rows[i]);
	variants_table_free(&s->table);
	json_decref(s->options);
	free(s);
}
