/* controller/serve_calibration.c - a served run's `calibration-step` request
 * (serve_calibration.h). */
#include "serve_calibration.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cli_parse.h"

/* The request's words, checked. */
struct calibration_step {
	const char *run, *folder, *schedule, *multiple_text;
	json_t *multiple; /* as written, for the records */
	double multiple_value;
	unsigned long long extensions, top;
};

static bool sc_words(struct calibration_step *st, char **w, int n, char *reply, size_t size)
{
	char err[256];
	if (n != 7) {
		snprintf(reply, size,
		         "error: calibration-step RUN MULTIPLE EXTENSIONS TOP FOLDER SCHEDULE is "
		         "expected");
		return false;
	}
	*st = (struct calibration_step){
	    .run = w[1], .folder = w[5], .schedule = w[6], .multiple_text = w[2]};
	if (!cli_parse_number("MULTIPLE", w[2], 0, 1e3, &st->multiple_value, err, sizeof(err)) ||
	    !cli_parse_count("EXTENSIONS", w[3], 0, 16, &st->extensions, err, sizeof(err)) ||
	    !cli_parse_count("TOP", w[4], 1, 1000000000, &st->top, err, sizeof(err))) {
		snprintf(reply, size, "error: calibration-step: %s", err);
		return false;
	}
	st->multiple = json_loads(w[2], JSON_DECODE_ANY, NULL);
	if (!json_is_number(st->multiple)) {
		json_decref(st->multiple);
		snprintf(reply, size,
		         "error: calibration-step: MULTIPLE: '%.64s' is no JSON number", w[2]);
		return false;
	}
	return true;
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

void serve_calibration_free(struct serve_calibration *c)
{
	json_decref(c->passes);
	c->passes = NULL;
}
