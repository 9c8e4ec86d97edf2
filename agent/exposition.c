/* agent/exposition.c - the agent's figures in Prometheus' text format and in OpenMetrics. Names
 * follow Prometheus' conventions: base units (bytes, seconds), "_total" for counters. */
#include "exposition.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"

/* A label value with the three characters the formats escape escaped. */
static void write_label_value(FILE *out, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\')
			fputs("\\\\", out);
		else if (*v == '"')
			fputs("\\\"", out);
		else if (*v == '\n')
			fputs("\\n", out);
		else
			fputc(*v, out);
	}
}

/* One sample line: 16 significant digits (a realtime stamp to the microsecond, integers exact),
 * then the timestamp in seconds when there is one. */
static void write_sample(FILE *out, const struct agent_labels *l, const char *name,
                         const char *extra, double value, double timestamp_s)
{
	fprintf(out, "%s{run=\"", name);
	write_label_value(out, l->run);
	fputs("\",host=\"", out);
	write_label_value(out, l->host);
	fputs("\",variant=\"", out);
	write_label_value(out, l->variant);
	fputc('"', out);
	if (extra)
		fprintf(out, ",%s", extra);
	fprintf(out, "} %.16g", value);
	if (!isnan(timestamp_s))
		fprintf(out, " %.3f", timestamp_s);
	fputc('\n', out);
}

/* HELP and TYPE of a family. OpenMetrics names a counter's family without its "_total". */
static void write_header(FILE *out, const char *name, const char *type, const char *help,
                         bool openmetrics)
{
	size_t len = strlen(name);
	if (openmetrics && strcmp(type, "counter") == 0 && len > 6 &&
	    strcmp(name + len - 6, "_total") == 0)
		len -= 6;
	fprintf(out, "# HELP %.*s %s\n# TYPE %.*s %s\n", (int)len, name, help, (int)len, name,
	        type);
}

/* An agent-level figure: one family of one series. */
static void write_single(FILE *out, const struct agent_labels *l, const char *name,
                         const char *type, const char *help, double value)
{
	write_header(out, name, type, help, false);
	write_sample(out, l, name, NULL, value, NAN);
}

void exposition_write(FILE *out, const struct agent_labels *l, const struct agent_sampler *s)
{
	const struct agent_sample *a = &s->last;
	write_single(out, l, "allocspike_agent_samples_total", "counter",
	             "Reads of the target the agent has made.", (double)s->samples);
	write_single(out, l, "allocspike_agent_control_failures_total", "counter",
	             "Reads whose control socket did not answer.", (double)s->control_failures);
	if (s->samples == 0)
		return;
	write_single(out, l, "allocspike_sample_start_timestamp_seconds", "gauge",
	             "The agent's CLOCK_REALTIME when the latest read started.",
	             (double)a->read_start_ns / 1e9);
	const char *family = NULL;
	for (size_t i = 0; i < AGENT_METRICS_COUNT; i++) {
		const struct agent_metric *m = &AGENT_METRICS[i];
		double v = m->value(a);
		if (isnan(v))
			continue;
		if (!family || strcmp(family, m->name) != 0)
			write_header(out, m->name, m->type, m->help, false);
		family = m->name;
		write_sample(out, l, m->name, m->label, v, NAN);
	}
}

/* The reads of a record: their start times and, per figure, their values (NAN where absent). */
struct record_reads {
	size_t n, cap;
	double *t_s;
	double **values; /* one array per figure of the table */
};

static bool reads_add(struct record_reads *r, json_t *line)
{
	if (r->n == r->cap) {
		/* the arrays grow together; cap moves only once all have, so an array that could
		 * not grow is never written past, and none is lost */
		size_t cap = r->cap ? 2 * r->cap : 1024;
		double *t = realloc(r->t_s, cap * sizeof(double));
		if (!t)
			return false;
		r->t_s = t;
		for (size_t i = 0; i < AGENT_METRICS_COUNT; i++) {
			double *v = realloc(r->values[i], cap * sizeof(double));
			if (!v)
				return false;
			r->values[i] = v;
		}
		r->cap = cap;
	}
	r->t_s[r->n] = json_number_value(json_object_get(line, "t_start_ns")) / 1e9;
	for (size_t i = 0; i < AGENT_METRICS_COUNT; i++) {
		json_t *v = json_object_get(line, AGENT_METRICS[i].key);
		r->values[i][r->n] = json_is_number(v) ? json_number_value(v) : NAN;
	}
	r->n++;
	return true;
}

bool exposition_openmetrics(FILE *in, FILE *out, const struct agent_labels *l, char *err,
                            size_t err_size)
{
	struct record_reads r = {.values = calloc(AGENT_METRICS_COUNT, sizeof(double *))};
	char *line = NULL;
	size_t cap = 0;
	bool ok = r.values != NULL;
	if (!ok)
		snprintf(err, err_size, "out of memory");
	for (size_t lineno = 1; ok && getline(&line, &cap, in) > 0; lineno++) {
		json_error_t jerr;
		json_t *o = json_loads(line, 0, &jerr);
		if (!json_is_object(o) || !json_is_integer(json_object_get(o, "t_start_ns"))) {
			snprintf(err, err_size, "line %zu: not a read of the agent's record",
			         lineno);
			ok = false;
		} else if (!reads_add(&r, o)) {
			snprintf(err, err_size, "out of memory");
			ok = false;
		}
		json_decref(o);
	}
	free(line);
	for (size_t i = 0; ok && i < AGENT_METRICS_COUNT; i++) {
		const struct agent_metric *m = &AGENT_METRICS[i];
		if (i == 0 || strcmp(AGENT_METRICS[i - 1].name, m->name) != 0)
			write_header(out, m->name, m->type, m->help, true);
		for (size_t k = 0; k < r.n; k++)
			if (!isnan(r.values[i][k]))
				write_sample(out, l, m->name, m->label, r.values[i][k], r.t_s[k]);
	}
	if (ok)
		fputs("# EOF\n", out);
	free(r.t_s);
	for (size_t i = 0; r.values && i < AGENT_METRICS_COUNT; i++)
		free(r.values[i]);
	free(r.values);
	return ok;
}
