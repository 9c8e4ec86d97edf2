/* controller/serve_analysis.c - a served run's `warmup-check` and `capacities` requests
 * (serve_analysis.h). */
#include "serve_analysis.h"

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis.h"
#include "json_file.h"
#include "serve.h"

/* A number's longest text: 17 significant digits, sign, point and exponent. */
#define SA_FIGURE_MAX 40

/* A figure's text as the scenarios recorded it through jq 1.6: the value the report prints (its
 * real precision) read again, written in its shortest form, an integral one without ".0"; so the
 * records keep their bytes. */
static void sa_figure(const json_t *value, char *out, size_t size)
{
	char *printed = json_dumps(value, JSON_ENCODE_ANY | ANALYSIS_REAL_PRECISION);
	json_t *v = printed ? json_loads(printed, JSON_DECODE_ANY, NULL) : NULL;
	free(printed);
	double x = json_real_value(v);
	if (json_is_integer(v))
		snprintf(out, size, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (!json_is_real(v))
		snprintf(out, size, "null");
	else if (x == floor(x) && fabs(x) < 1e17)
		snprintf(out, size, "%.0f", x);
	else /* the fewest digits that read back as the same number */
		for (int digits = 1; digits <= 17; digits++) {
			snprintf(out, size, "%.*g", digits, x);
			if (strtod(out, NULL) == x)
				break;
		}
	json_decref(v);
}

/* runjson-set PATH to value's text (the report's real precision); false with its error in reply. */
static bool sa_record(const struct serve_rows_host *h, const char *path, const json_t *value,
                      char *reply, size_t size)
{
	return serve_rows_host_set(h, path, value,
	                           JSON_COMPACT | JSON_PRESERVE_ORDER | ANALYSIS_REAL_PRECISION,
	                           reply, size);
}

/* FOLDER's timeline read; with its agents' reads placed on it where it has them (a run across
 * hosts, spike.sh --hosts: a placed row's cache and memory are its agent's, as the report reads
 * them); false with the request's error in reply. */
static bool sa_timeline(const char *req, const char *folder, struct runfolder *rf, char *reply,
                        size_t size)
{
	char err[4400], agents[PATH_MAX + 16];
	struct stat st;
	snprintf(agents, sizeof(agents), "%s/agents", folder);
	bool placed = stat(agents, &st) == 0 && S_ISDIR(st.st_mode);
	if (placed ? runfolder_read(folder, rf, err, sizeof(err))
	           : runfolder_read_timeline(folder, rf, err, sizeof(err)))
		return true;
	snprintf(reply, size, "error: %s: %s", req, err);
	return false;
}

/* The cache's cap: run.json's parameters.resolver.cache_size_bytes, the resolver's setting. */
static bool sa_cap(const struct serve_rows_host *h, json_int_t *cap, char *reply, size_t size)
{
	char err[4400] = "no run.json (ask `begin` or `runjson FILE` first)";
	json_t *doc = h->runfolder->run_json[0]
	                  ? json_file_load(h->runfolder->run_json, err, sizeof(err))
	                  : NULL;
	const json_t *v = json_object_get(
	    json_object_get(json_object_get(doc, "parameters"), "resolver"), "cache_size_bytes");
	*cap = json_integer_value(v);
	if (doc && *cap <= 0)
		snprintf(err, sizeof(err),
		         "run.json has no parameters.resolver.cache_size_bytes > 0");
	json_decref(doc);
	if (*cap > 0)
		return true;
	snprintf(reply, size, "error: warmup-check: %s", err);
	return false;
}

/* warmup-check FOLDER */
static void sa_warmup(const struct serve_rows_host *h, const char *folder, char *reply, size_t size)
{
	char path[PATH_MAX + 16];
	struct stat st;
	snprintf(path, sizeof(path), "%s/timeline.csv", folder);
	if (stat(path, &st) != 0 || st.st_size == 0) { /* no schedule ran: nothing to check */
		snprintf(reply, size, "skipped");
		return;
	}
	json_int_t cap;
	struct runfolder rf;
	if (!sa_cap(h, &cap, reply, size) || !sa_timeline("warmup-check", folder, &rf, reply, size))
		return;
	json_t *warmup = analysis_warmup(&rf, (double)cap), *v;
	runfolder_free(&rf);
	char cap_f[64], filling[SERVE_LINE_MAX / 2];
	snprintf(cap_f, sizeof(cap_f), "cap_bytes:=%" JSON_INTEGER_FORMAT, cap);
	filling[0] = '\0';
	const char *name;
	json_object_foreach(warmup, name, v)
	{
		if (json_is_true(json_object_get(v, "steady")))
			continue;
		char bytes[SA_FIGURE_MAX], growth[SA_FIGURE_MAX], bytes_f[64], growth_f[64];
		sa_figure(json_object_get(v, "cache_bytes_end"), bytes, sizeof(bytes));
		sa_figure(json_object_get(v, "growth_last_fifth"), growth, sizeof(growth));
		snprintf(bytes_f, sizeof(bytes_f), "cache_bytes:=%s", bytes);
		snprintf(growth_f, sizeof(growth_f), "entries_growth:=%s", growth);
		char *fields[] = {bytes_f, cap_f, growth_f};
		serve_rows_host_event(h, name, "warmup_not_steady", fields, 3);
		snprintf(filling + strlen(filling), sizeof(filling) - strlen(filling), " %s %s",
		         name, bytes);
	}
	if (sa_record(h, ".warmup", warmup, reply, size))
		snprintf(reply, size, "ok %" JSON_INTEGER_FORMAT "%s", cap, filling);
	json_decref(warmup);
}

/* capacities FOLDER */
static void sa_capacities(const struct serve_rows_host *h, const char *folder, char *reply,
                          size_t size)
{
	struct runfolder rf;
	if (!sa_timeline("capacities", folder, &rf, reply, size))
		return;
	json_t *knee = analysis_knee(&rf), *capacity = json_object(), *v;
	runfolder_free(&rf);
	char rows[SERVE_LINE_MAX / 2];
	rows[0] = '\0';
	size_t i;
	json_array_foreach(json_object_get(knee, "variants"), i, v)
	{
		const char *name = json_string_value(json_object_get(v, "variant"));
		char knee_qps[SA_FIGURE_MAX], peak[SA_FIGURE_MAX], share[SA_FIGURE_MAX];
		sa_figure(json_object_get(v, "knee_qps"), knee_qps, sizeof(knee_qps));
		sa_figure(json_object_get(v, "peak_answered_qps"), peak, sizeof(peak));
		sa_figure(json_object_get(v, "top_answered_share"), share, sizeof(share));
		json_object_set_new(
		    capacity, name,
		    json_pack("{s:o, s:o, s:o}", "capacity_qps",
		              json_loads(knee_qps, JSON_DECODE_ANY, NULL), "peak_answered_qps",
		              json_loads(peak, JSON_DECODE_ANY, NULL), "answered_share_at_top",
		              json_loads(share, JSON_DECODE_ANY, NULL)));
		char rate_f[64], peak_f[64];
		snprintf(rate_f, sizeof(rate_f), "rate_qps:=%s", knee_qps);
		snprintf(peak_f, sizeof(peak_f), "peak_answered_qps:=%s", peak);
		char *fields[] = {rate_f, peak_f};
		serve_rows_host_event(h, name, "calibrated", fields, 2);
		snprintf(rows + strlen(rows), sizeof(rows) - strlen(rows), " %s %s %s %s", name,
		         knee_qps, peak, share);
	}
	if (sa_record(h, ".capacity", capacity, reply, size))
		snprintf(reply, size, "ok%s", rows);
	json_decref(capacity);
	json_decref(knee);
}

bool serve_analysis_request(const struct serve_rows_host *h, char **w, int n, char *reply,
                            size_t size)
{
	bool warmup = strcmp(w[0], "warmup-check") == 0;
	if (!warmup && strcmp(w[0], "capacities") != 0)
		return false;
	if (n != 2)
		snprintf(reply, size, "error: %s FOLDER is expected", w[0]);
	else if (warmup)
		sa_warmup(h, w[1], reply, size);
	else
		sa_capacities(h, w[1], reply, size);
	return true;
}
