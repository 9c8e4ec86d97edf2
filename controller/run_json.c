/* controller/run_json.c - run.json's paths and its beginning and end (run_json.h). */
#include "run_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "event_line.h"
#include "json_file.h"

#define RUN_JSON_KEY_MAX 128

static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

/* One step of the path at *p: ".key" (into key) or "[...]" (into sel); false when malformed. */
static bool path_step(const char **p, char *key, char *sel, char *err, size_t err_size,
                      const char *path)
{
	const char *s = *p;
	key[0] = sel[0] = '\0';
	if (*s == '.') {
		size_t n = 0;
		for (s++; key_char(*s) && n + 1 < RUN_JSON_KEY_MAX; s++)
			key[n++] = *s;
		key[n] = '\0';
		if (n == 0 || key_char(*s)) {
			snprintf(err, err_size,
			         "PATH '%.200s': a key (letters, digits, _ and -, at most %d) is "
			         "expected after '.'",
			         path, RUN_JSON_KEY_MAX - 1);
			return false;
		}
	} else if (*s == '[') {
		const char *end = strchr(s, ']');
		if (!end || end == s + 1 || (size_t)(end - s) > RUN_JSON_KEY_MAX) {
			snprintf(err, err_size,
			         "PATH '%.200s': '[' is closed by ']' around an index or KEY=TEXT",
			         path);
			return false;
		}
		snprintf(sel, RUN_JSON_KEY_MAX, "%.*s", (int)(end - s - 1), s + 1);
		s = end + 1;
	} else {
		snprintf(err, err_size,
		         "PATH '%.200s': '.KEY' or '[...]' is expected at '%.40s' (e.g. "
		         ".parameters.hierarchy.port, .variants[name=glibc].command)",
		         path, s);
		return false;
	}
	*p = s;
	return true;
}

/* The element of list sel names: an index, or the first object whose KEY is TEXT. */
static json_t *path_select(json_t *list, const char *sel, size_t *index)
{
	const char *eq = strchr(sel, '=');
	if (!eq) {
		char *end;
		unsigned long i = strtoul(sel, &end, 10);
		if (*end || sel[0] < '0' || sel[0] > '9' || i >= json_array_size(list))
			return NULL;
		*index = i;
		return json_array_get(list, i);
	}
	char key[RUN_JSON_KEY_MAX];
	snprintf(key, sizeof(key), "%.*s", (int)(eq - sel), sel);
	size_t i;
	json_t *row;
	json_array_foreach(list, i, row)
	{
		const char *text = json_string_value(json_object_get(row, key));
		if (text && strcmp(text, eq + 1) == 0) {
			*index = i;
			return row;
		}
	}
	return NULL;
}

bool run_json_path_set(json_t *doc, const char *path, json_t *value, char *err, size_t err_size)
{
	char key[RUN_JSON_KEY_MAX], sel[RUN_JSON_KEY_MAX];
	const char *p = path;
	json_t *at = doc;
	if (!value) {
		snprintf(err, err_size, "out of memory");
		return false;
	}
	if (!*p) {
		snprintf(err, err_size, "PATH: empty (e.g. .machine)");
		json_decref(value);
		return false;
	}
	while (*p) {
		if (!path_step(&p, key, sel, err, err_size, path)) {
			json_decref(value);
			return false;
		}
		bool last = *p == '\0';
		if (key[0]) {
			if (!json_is_object(at)) {
				snprintf(err, err_size,
				         "PATH '%.200s': .%s of something not an object", path,
				         key);
				json_decref(value);
				return false;
			}
			if (last)
				return json_object_set_new(at, key, value) == 0;
			json_t *next = json_object_get(at, key);
			if (!next) {
				next = json_object();
				json_object_set_new(at, key, next);
			}
			at = next;
		} else {
			size_t index = 0;
			json_t *next = json_is_array(at) ? path_select(at, sel, &index) : NULL;
			if (!next) {
				snprintf(
				    err, err_size,
				    "PATH '%.200s': no element [%s] (a list's index, or the first "
				    "row whose KEY is TEXT)",
				    path, sel);
				json_decref(value);
				return false;
			}
			if (last)
				return json_array_set_new(at, index, value) == 0;
			at = next;
		}
	}
	return false; /* not reached: the loop returns at the last step */
}

/* The value at path, or NULL when something on the way is missing (or the path is malformed). */
static json_t *path_get(json_t *doc, const char *path)
{
	char key[RUN_JSON_KEY_MAX], sel[RUN_JSON_KEY_MAX], err[8];
	const char *p = path;
	json_t *at = doc;
	while (at && *p) {
		size_t index;
		if (!path_step(&p, key, sel, err, sizeof(err), path))
			return NULL;
		at = key[0] ? json_object_get(at, key)
		            : (json_is_array(at) ? path_select(at, sel, &index) : NULL);
	}
	return at;
}

bool run_json_fields_set(json_t *doc, const char *path, char **fields, int count, char *err,
                         size_t err_size)
{
	const char *why, *bad;
	json_t *add = event_line_fields(fields, count, &why, &bad);
	if (!add) {
		snprintf(err, err_size, "%s '%.200s'", why, bad);
		return false;
	}
	/* the object there, its other keys kept; made when missing */
	json_t *target = json_incref(path_get(doc, path));
	if (!json_is_object(target)) {
		json_decref(target);
		target = json_object();
		if (!run_json_path_set(doc, path, json_incref(target), err, err_size)) {
			json_decref(target);
			json_decref(add);
			return false;
		}
	}
	bool ok = json_object_update(target, add) == 0;
	if (!ok)
		snprintf(err, err_size, "out of memory");
	json_decref(target);
	json_decref(add);
	return ok;
}

void run_json_now(char *out, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;
	strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
}

bool run_json_create(const char *path, const char *scenario, char *err, size_t err_size)
{
	char started[32];
	run_json_now(started, sizeof(started));
	json_t *doc =
	    json_pack("{s:i, s:s, s:s, s:s, s:n, s:{}, s:[], s:{}, s:n, s:n}", "format", 1,
	              "status", "running", "scenario", scenario, "started", started, "ended",
	              "parameters", "variants", "machine", "queryfile", "calibration");
	if (!doc) {
		snprintf(err, err_size, "run.json: SCENARIO is not UTF-8");
		return false;
	}
	bool ok = json_file_write_atomic_as(path, doc, RUN_JSON_FLAGS, err, err_size);
	json_decref(doc);
	return ok;
}

bool run_json_finish(json_t *doc, const char *status, const char *reason)
{
	char ended[32];
	run_json_now(ended, sizeof(ended));
	bool ok = json_object_set_new(doc, "status", json_string(status)) == 0 &&
	          json_object_set_new(doc, "ended", json_string(ended)) == 0;
	if (ok && reason && reason[0])
		ok = json_object_set_new(doc, "failure", json_string(reason)) == 0;
	return ok;
}

const char *run_json_option_text(const json_t *options, const char *name, char *err,
                                 size_t err_size)
{
	const char *text = json_string_value(json_object_get(options, name));
	if (!json_is_object(options))
		snprintf(err, err_size, RUN_JSON_NO_OPTIONS);
	else if (!text)
		snprintf(err, err_size, "the run's options have no '%s'", name);
	return text;
}

const char *run_json_option_or_empty(const json_t *options, const char *name)
{
	const char *text = run_json_option_text(options, name, NULL, 0);
	return text ? text : "";
}

json_t *run_json_options_load(const char *path, const json_t **options, char *err, size_t err_size)
{
	json_t *doc = json_file_load(path, err, err_size);
	*options = json_object_get(json_object_get(doc, "parameters"), "options");
	if (doc && json_is_object(*options))
		return doc;
	if (doc)
		snprintf(err, err_size, RUN_JSON_NO_OPTIONS);
	json_decref(doc);
	*options = NULL;
	return NULL;
}
