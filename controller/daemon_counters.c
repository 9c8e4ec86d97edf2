/* controller/daemon_counters.c - a daemon's own counters from its control tool's output
 * (daemon_counters.h). */
#include "daemon_counters.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"

static FILE *daemon_counters_open(const char *label, const char *file, char *err, size_t err_size)
{
	FILE *f = strcmp(file, "-") == 0 ? stdin : fopen(file, "r");
	if (!f)
		snprintf(err, err_size, "%s: cannot read %s", label, file);
	return f;
}

static void daemon_counters_close(FILE *f)
{
	if (f != stdin)
		fclose(f);
}

/* `NAME=VALUE` lines (split at the first '='; blank lines skipped) into an object of strings. */
static json_t *daemon_counters_text(FILE *f, const char *label, char *err, size_t err_size)
{
	json_t *obj = json_object();
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	for (unsigned n = 1; obj && (len = getline(&line, &cap, f)) >= 0; n++) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '\0')
			continue;
		char *eq = strchr(line, '=');
		if (!eq || eq == line) {
			snprintf(err, err_size, "%s: line %u is not NAME=VALUE: '%s'", label, n,
			         line);
			json_decref(obj);
			obj = NULL;
			break;
		}
		*eq = '\0';
		json_object_set_new(obj, line, json_string(eq + 1));
	}
	free(line);
	return obj;
}

/* One value a line, named by names in order; exactly as many lines as names. */
static json_t *daemon_counters_values(FILE *f, const char *label, const char *names, char *err,
                                      size_t err_size)
{
	json_t *obj = json_object();
	char *line = NULL, *list = strdup(names), *save = NULL;
	size_t cap = 0, lines = 0, wanted = 0;
	for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		wanted++;
		if (getline(&line, &cap, f) < 0)
			continue;
		lines++;
		line[strcspn(line, "\n")] = '\0';
		json_object_set_new(obj, name, json_string(line));
	}
	while (getline(&line, &cap, f) >= 0)
		lines++;
	if (lines != wanted) {
		snprintf(err, err_size, "%s answered %zu lines, not %zu", label, lines, wanted);
		json_decref(obj);
		obj = NULL;
	}
	free(line);
	free(list);
	return obj;
}

static json_t *daemon_counters_json(FILE *f, const char *label, char *err, size_t err_size)
{
	json_error_t jerr;
	json_t *doc = json_loadf(f, 0, &jerr);
	if (!doc)
		snprintf(err, err_size, "%s is not JSON: line %d: %s", label, jerr.line, jerr.text);
	else if (!json_is_object(doc)) {
		snprintf(err, err_size, "%s is not a JSON object", label);
		json_decref(doc);
		doc = NULL;
	}
	return doc;
}

bool daemon_counters_read(struct daemon_counters *c, enum daemon_output kind, const char *label,
                          const char *file, const char *names, char *err, size_t err_size)
{
	if (c->n == DAEMON_COUNTERS_MAX_SOURCES) {
		snprintf(err, err_size, "more than %d outputs", DAEMON_COUNTERS_MAX_SOURCES);
		return false;
	}
	FILE *f = daemon_counters_open(label, file, err, err_size);
	if (!f)
		return false;
	json_t *counters =
	    kind == DAEMON_OUTPUT_TEXT     ? daemon_counters_text(f, label, err, err_size)
	    : kind == DAEMON_OUTPUT_VALUES ? daemon_counters_values(f, label, names, err, err_size)
	                                   : daemon_counters_json(f, label, err, err_size);
	daemon_counters_close(f);
	if (!counters)
		return false;
	c->sources[c->n++] = (struct daemon_source){label, counters, kind == DAEMON_OUTPUT_JSON};
	return true;
}

void daemon_counters_free(struct daemon_counters *c)
{
	for (size_t i = 0; i < c->n; i++)
		json_decref(c->sources[i].counters);
	c->n = 0;
}

/* The value at name's dotted path in doc; NULL when a step is missing or null; *bad when a step
 * on the way is no object (a document of another shape than the daemon's). */
static json_t *daemon_counters_walk(json_t *doc, const char *name, bool *bad)
{
	const char *step = name;
	json_t *v = doc;
	while (v && !json_is_null(v)) {
		if (!json_is_object(v)) {
			*bad = true;
			return NULL;
		}
		size_t len = strcspn(step, ".");
		v = json_object_getn(v, step, len);
		if (step[len] == '\0')
			break;
		step += len + 1;
	}
	return json_is_null(v) ? NULL : v;
}

enum daemon_counter_state daemon_counters_get(const struct daemon_counters *c, const char *name,
                                              unsigned long long *value, char *err, size_t err_size)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct daemon_source *s = &c->sources[i];
		bool bad = false;
		json_t *v = s->by_path ? daemon_counters_walk(s->counters, name, &bad)
		                       : json_object_get(s->counters, name);
		char what[256];
		snprintf(what, sizeof(what), "%s: %s", s->label, name);
		if (bad) {
			snprintf(err, err_size, "%s: a step of the path is not an object", what);
			return DAEMON_COUNTER_BAD;
		}
		if (!v)
			continue;
		/* a text output's values are text; a JSON document's string is no number */
		if (!s->by_path && json_is_string(v))
			return cli_parse_count(what, json_string_value(v), 0, ~0ULL, value, err,
			                       err_size)
			           ? DAEMON_COUNTER_FOUND
			           : DAEMON_COUNTER_BAD;
		if (json_is_integer(v) && json_integer_value(v) >= 0) {
			*value = (unsigned long long)json_integer_value(v);
			return DAEMON_COUNTER_FOUND;
		}
		char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		snprintf(err, err_size, "%s: '%.64s' is not a whole number", what,
		         text ? text : "?");
		free(text);
		return DAEMON_COUNTER_BAD;
	}
	return DAEMON_COUNTER_ABSENT;
}

void daemon_counters_labels(const struct daemon_counters *c, char *out, size_t size)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < c->n && used < size; i++)
		used += (size_t)snprintf(out + used, size - used, "%s%s", i ? " or " : "",
		                         c->sources[i].label);
}
