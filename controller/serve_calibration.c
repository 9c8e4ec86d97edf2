/* controller/serve_calibration.c - a served run's `calibrate` passes and `calibration-step`
 * request (serve_calibration.h). */
#include "serve_calibration.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis.h"
#include "cli_parse.h"
#include "run_json.h"
#include "run_outdir.h"
#include "run_words.h"
#include "scenario_schedule.h"
#include "variant_command.h"

/* The request's words, checked. */
struct calibration_step {
	const char *run, *folder, *schedule, *multiple_text;
	json_t *multiple; /* as written, for the records */
	double multiple_value;
	unsigned long long extensions, top;
};

/* RUN MULTIPLE EXTENSIONS TOP, w[1..4] of calibration-step and of calibrate, checked into st. */
static bool sc_numbers(struct calibration_step *st, char **w, char *reply, size_t size)
{
	char err[256];
	st->run = w[1];
	st->multiple_text = w[2];
	if (!cli_parse_number("MULTIPLE", w[2], 0, 1e3, &st->multiple_value, err, sizeof(err)) ||
	    !cli_parse_count("EXTENSIONS", w[3], 0, 16, &st->extensions, err, sizeof(err)) ||
	    !cli_parse_count("TOP", w[4], 1, 1000000000, &st->top, err, sizeof(err))) {
		snprintf(reply, size, "error: %s: %s", w[0], err);
		return false;
	}
	st->multiple = json_loads(w[2], JSON_DECODE_ANY, NULL);
	if (!json_is_number(st->multiple)) {
		json_decref(st->multiple);
		snprintf(reply, size, "error: %s: MULTIPLE: '%.64s' is no JSON number", w[0], w[2]);
		return false;
	}
	return true;
}

static bool sc_words(struct calibration_step *st, char **w, int n, char *reply, size_t size)
{
	if (n != 7) {
		snprintf(reply, size,
		         "error: calibration-step RUN MULTIPLE EXTENSIONS TOP FOLDER SCHEDULE is "
		         "expected");
		return false;
	}
	*st = (struct calibration_step){.folder = w[5], .schedule = w[6]};
	return sc_numbers(st, w, reply, size);
}

/* {VARIANT: its key's value} of the decision's variants. */
static json_t *sc_per_variant(const json_t *variants, const char *key)
{
	json_t *out = json_object(), *v;
	const char *name;
	json_object_foreach((json_t *)variants, name, v)
	{
		json_t *value = json_object_get(v, key);
		json_object_set_new(out, name, value ? json_incref(value) : json_null());
	}
	return out;
}

/* run.json's calibration: the first ramp's schedule, the per-variant figures, the decision and
 * every pass. */
static bool sc_record(const struct serve_calibration *c, const struct serve_rows_host *h,
                      const struct calibration_step *st, const json_t *d, char *reply, size_t size)
{
	const json_t *variants = json_object_get(d, "variants");
	json_t *cal =
	    json_pack("{s:O, s:i, s:o, s:o, s:o, s:O, s:O, s:O, s:O, s:s, s:O}", "schedule",
	              json_object_get(json_array_get(c->passes, 0), "schedule"), "window_s", 1,
	              "capacity_qps", sc_per_variant(variants, "capacity_qps"), "peak_answered_qps",
	              sc_per_variant(variants, "peak_answered_qps"), "still_answering_at_top",
	              sc_per_variant(variants, "still_answering_at_top"), "slowest",
	              json_object_get(d, "slowest"), "capacity_of_slowest_qps",
	              json_object_get(d, "capacity_of_slowest_qps"), "multiple", st->multiple,
	              "spike_rate_qps", json_object_get(d, "spike_rate_qps"), "folder",
	              "calibration", "passes", c->passes);
	char *text = cal ? json_dumps(cal, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(cal);
	if (!text) {
		snprintf(reply, size, "error: calibration-step: out of memory");
		return false;
	}
	char *words[] = {"runjson-set", ".calibration", text};
	serve_runfolder_request(h->runfolder, h->sup, h->events, words, 3, reply, size);
	free(text);
	return strcmp(reply, "ok") == 0;
}

/* The decision's records once no ramp follows, and its answer. */
static void sc_done(const struct serve_calibration *c, const struct serve_rows_host *h,
                    const struct calibration_step *st, const json_t *d, char *reply, size_t size)
{
	const json_t *variants = json_object_get(d, "variants"), *v;
	size_t i;
	json_array_foreach(json_object_get(d, "fallbacks"), i, v)
	{
		char field[96];
		const char *name = json_string_value(v);
		snprintf(field, sizeof(field), "peak_answered_qps:=%lld",
		         (long long)json_integer_value(json_object_get(
		             json_object_get(variants, name), "peak_answered_qps")));
		char *fields[] = {field};
		serve_rows_host_event(h, name, "calibration_fallback", fields, 1);
	}
	long long rate = (long long)json_integer_value(json_object_get(d, "spike_rate_qps"));
	long long capacity =
	    (long long)json_integer_value(json_object_get(d, "capacity_of_slowest_qps"));
	const char *slowest = json_string_value(json_object_get(d, "slowest"));
	if (capacity > 0) { /* else the scenario ends the run, saying which variant */
		if (!sc_record(c, h, st, d, reply, size))
			return;
		char rate_f[48], capacity_f[48], slowest_f[96], multiple_f[96];
		snprintf(rate_f, sizeof(rate_f), "rate_qps:=%lld", rate);
		snprintf(capacity_f, sizeof(capacity_f), "capacity_qps:=%lld", capacity);
		snprintf(slowest_f, sizeof(slowest_f), "slowest=%s", slowest);
		snprintf(multiple_f, sizeof(multiple_f), "multiple:=%s", st->multiple_text);
		char *fields[] = {rate_f, capacity_f, slowest_f, multiple_f};
		serve_rows_host_event(h, "_scenario", "calibrated", fields, 4);
	}
	snprintf(reply, size, "rate %lld %lld %s%s", rate, capacity, slowest,
	         json_is_true(json_object_get(d, "at_extension_limit")) ? " at-limit" : "");
}

bool serve_calibration_request(struct serve_calibration *c, const struct serve_rows_host *h,
                               char **w, int n, char *reply, size_t size)
{
	if (strcmp(w[0], "calibration-step") != 0)
		return false;
	struct calibration_step st;
	if (!sc_words(&st, w, n, reply, size))
		return true;
	if (!c->passes || strcmp(st.folder, "calibration") == 0) {
		json_decref(c->passes);
		c->passes = json_array();
	}
	json_array_append_new(c->passes,
	                      json_pack("{s:s, s:s, s:I}", "folder", st.folder, "schedule",
	                                st.schedule, "top_qps", (json_int_t)st.top));
	char err[4400];
	json_t *d =
	    analysis_calibration(st.run, st.multiple_value, (int)st.extensions, err, sizeof(err));
	if (!d) {
		snprintf(reply, size, "error: calibration-step: %s", err);
	} else if (json_is_true(json_object_get(d, "extend"))) {
		const json_t *v;
		size_t i;
		snprintf(reply, size, "extend");
		json_array_foreach(json_object_get(d, "still_answering_at_top"), i, v) snprintf(
		    reply + strlen(reply), size - strlen(reply), " %s", json_string_value(v));
	} else {
		sc_done(c, h, &st, d, reply, size);
	}
	json_decref(d);
	json_decref(st.multiple);
	return true;
}

#define CALIBRATE_DRIVE_WORDS 5 /* LOADGEN QUERIES CPUS ROW_CPUS TIMEOUT, as drive's */
#define CALIBRATE_USAGE                                                                            \
	"calibrate RUN MULTIPLE EXTENSIONS TOP LOADGEN QUERIES CPUS ROW_CPUS TIMEOUT [OPTION...] " \
	"-- "                                                                                      \
	"ROW... is expected"

bool serve_calibrate_parse(struct serve_calibration *c, const struct serve_rows_host *h, char **w,
                           int n, char *reply, size_t size)
{
	int dashes = 5 + CALIBRATE_DRIVE_WORDS;
	while (dashes < n && strcmp(w[dashes], "--") != 0)
		dashes++;
	if (dashes + 1 >= n) {
		snprintf(reply, size, "error: " CALIBRATE_USAGE);
		return false;
	}
	struct calibration_step st;
	if (!sc_numbers(&st, w, reply, size))
		return false;
	json_decref(st.multiple);
	char err[4400];
	json_t *doc = run_json_options_load(h->runfolder->run_json, &c->options, err, sizeof(err));
	if (!doc) {
		snprintf(reply, size, "error: calibrate: %s", err);
		return false;
	}
	size_t count = 0, names = 0;
	bool ok = variant_words_add_n(&c->words, &count, (const char *const *)w, (size_t)n) &&
	          variant_words_add_n(&c->names, &names, (const char *const *)w + dashes + 1,
	                              (size_t)(n - dashes - 1));
	c->run_json = doc;
	c->drive_at = 5;
	c->rows_at = dashes + 1;
	c->pass = 0;
	c->top = st.top;
	c->active = true;
	if (!ok) {
		snprintf(reply, size, "error: out of memory");
		serve_calibrate_end(c);
	}
	return ok;
}

/* Whether name is one of the pass's rows. */
static bool sc_in_pass(const struct serve_calibration *c, const char *name, size_t len)
{
	for (char **row = c->names; row && *row; row++)
		if (strlen(*row) == len && strncmp(*row, name, len) == 0)
			return true;
	return false;
}

/* drive's place= for this pass: the rows placed again under an id of the pass's own (`cal1`, the
 * first ramp; `cal2`... its extensions), appended to the list; false with the error in reply. */
static bool sc_place_word(const struct serve_calibration *c, const char *word, char ***list,
                          size_t *n, char *reply, size_t size)
{
	char pass[16], words[8400];
	snprintf(pass, sizeof(pass), "cal%u", c->pass + 1);
	memcpy(words, "place=", 6);
	if (!run_words_place_pass(word + 6, pass, words + 6, sizeof(words) - 6)) {
		snprintf(reply, size, "error: calibrate: place= names no --run, or is too long");
		return false;
	}
	if (!variant_words_add(list, n, words)) {
		snprintf(reply, size, "error: out of memory");
		return false;
	}
	return true;
}

char **serve_calibrate_drive(struct serve_calibration *c, int *count, char *reply, size_t size)
{
	char top[32], err[256];
	snprintf(top, sizeof(top), "%llu", c->top);
	if (c->pass == 0)
		snprintf(c->folder, sizeof(c->folder), "calibration");
	else
		snprintf(c->folder, sizeof(c->folder), "calibration/extend-%u", c->pass);
	snprintf(c->dir, sizeof(c->dir), "%s/%s", c->words[1], c->folder);
	if (!scenario_schedule(c->options, "calibrate", top, c->schedule, sizeof(c->schedule), err,
	                       sizeof(err))) {
		snprintf(reply, size, "error: calibrate: %s", err);
		return NULL;
	}
	char **list = NULL;
	size_t n = 0;
	bool ok = variant_words_add_list(&list, &n, "drive", c->dir, c->schedule);
	for (int at = c->drive_at; ok && at < c->rows_at; at++) {
		const char *word = c->words[at], *colon = strchr(word, ':');
		if (strncmp(word, "wrap=", 5) == 0 && colon &&
		    !sc_in_pass(c, word + 5, (size_t)(colon - word - 5)))
			continue; /* the row's wrap, the row not ramped again */
		if (strncmp(word, "place=", 6) == 0) {
			if (!sc_place_word(c, word, &list, &n, reply, size)) {
				variant_words_free(list);
				return NULL;
			}
			continue;
		}
		ok = variant_words_add(&list, &n, word);
	}
	for (char **row = c->names; ok && *row; row++)
		ok = variant_words_add(&list, &n, *row);
	if (!ok) {
		variant_words_free(list);
		snprintf(reply, size, "error: out of memory");
		return NULL;
	}
	*count = (int)n;
	return list;
}

bool serve_calibrate_folder(const struct serve_calibration *c, const struct serve_rows_host *h,
                            char *reply, size_t size)
{
	char logs[4300], why[4400];
	snprintf(logs, sizeof(logs), "%s/logs", c->dir);
	if (!run_outdir_make(logs, why, sizeof(why))) {
		snprintf(reply, size, "error: calibrate: %s", why);
		return false;
	}
	fprintf(stderr, "%s: calibrating the spike height: %s\n", h->runfolder->scenario,
	        c->schedule);
	return true;
}

/* The pass's drive answer judged: true when it drove a row and its generator ended well; false
 * with the error in reply. */
static bool sc_pass_driven(const struct serve_calibration *c, char *reply, size_t size)
{
	double origin;
	int status;
	if (strcmp(reply, "none") == 0) {
		snprintf(reply, size, "error: calibrate: no variant became ready (see %s/logs/)",
		         c->dir);
		return false;
	}
	if (strncmp(reply, "ok ", 3) != 0)
		return false; /* drive's error */
	if (sscanf(reply, "ok %lf %d", &origin, &status) != 2 || status != 0) {
		snprintf(reply, size,
		         "error: calibrate: the generator exited with status %d (see "
		         "%s/logs/loadgen.log)",
		         status, c->dir);
		return false;
	}
	char path[4300];
	struct stat st;
	snprintf(path, sizeof(path), "%s/timeline.csv", c->dir);
	if (stat(path, &st) != 0 || st.st_size == 0) {
		snprintf(reply, size, "error: calibrate: calibration wrote no timeline (%s)", path);
		return false;
	}
	return true;
}

int serve_calibrate_passed(struct serve_calibration *c, const struct serve_rows_host *h,
                           char *reply, size_t size)
{
	if (!sc_pass_driven(c, reply, size))
		return -1;
	char top[32];
	snprintf(top, sizeof(top), "%llu", c->top);
	char *words[] = {"calibration-step", c->words[1], c->words[2], c->words[3], top,
	                 c->folder,          c->schedule};
	serve_calibration_request(c, h, words, 7, reply, size);
	const char *scenario = h->runfolder->scenario;
	if (strncmp(reply, "extend ", 7) == 0) {
		char **names = NULL, *save = NULL;
		size_t n = 0;
		bool ok = true;
		for (char *name = strtok_r(reply + 7, " ", &save); ok && name;
		     name = strtok_r(NULL, " ", &save))
			ok = variant_words_add(&names, &n, name);
		if (!ok) {
			variant_words_free(names);
			snprintf(reply, size, "error: out of memory");
			return -1;
		}
		variant_words_free(c->names);
		c->names = names;
		c->top *= 2;
		c->pass++;
		fprintf(stderr, "%s: calibration:", scenario);
		for (char **row = names; *row; row++)
			fprintf(stderr, " %s", *row);
		fprintf(stderr, " still answered at the top; ramping again to %llu qps\n", c->top);
		return 0;
	}
	if (strncmp(reply, "rate ", 5) != 0)
		return -1;
	size_t len = strlen(reply);
	if (len > 9 && strcmp(reply + len - 9, " at-limit") == 0)
		fprintf(stderr,
		        "%s: calibration: every variant still answered at %llu qps after %u "
		        "extensions; its capacity is at least that\n",
		        scenario, c->top, c->pass);
	return 1;
}

void serve_calibrate_end(struct serve_calibration *c)
{
	variant_words_free(c->words);
	variant_words_free(c->names);
	json_decref(c->run_json);
	c->words = c->names = NULL;
	c->run_json = NULL;
	c->options = NULL;
	c->active = c->pushed = false;
}

void serve_calibration_free(struct serve_calibration *c)
{
	serve_calibrate_end(c);
	json_decref(c->passes);
	c->passes = NULL;
}
