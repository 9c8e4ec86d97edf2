/* controller/serve_parameters.c - a served run's `parameters` request (serve_parameters.h). */
#include "serve_parameters.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli_parse.h"
#include "cpu_placement.h"
#include "run_context.h"
#include "run_json.h"
#include "serve.h"

/* runjson-set PATH to value (taken); false with its error in reply. */
static bool sp_set(const struct serve_rows_host *h, const char *path, json_t *value, char *reply,
                   size_t size)
{
	bool ok = serve_rows_host_set(h, path, value, JSON_COMPACT, reply, size);
	json_decref(value);
	return ok;
}

/* The options' numbers and texts the parameters record, each checked. */
struct sp_values {
	const char *serial, *cpu_placement, *memory_layout;
	unsigned long long interval_ms, cache_size_bytes, max_inflight;
};

static bool sp_values_read(const json_t *options, struct sp_values *v, char *err, size_t size)
{
	const char *interval, *cache, *inflight;
	if (!(v->serial = run_json_option_text(options, "serial", err, size)) ||
	    !(v->cpu_placement = run_json_option_text(options, "cpu_placement", err, size)) ||
	    !(v->memory_layout = run_json_option_text(options, "memory_layout", err, size)) ||
	    !(interval = run_json_option_text(options, "interval_ms", err, size)) ||
	    !(cache = run_json_option_text(options, "cache_size", err, size)) ||
	    !(inflight = run_json_option_text(options, "max_inflight", err, size)))
		return false;
	return cli_parse_count("interval_ms", interval, 0, ~0ULL, &v->interval_ms, err, size) &&
	       cli_parse_size("cache_size", cache, 0, ~0ULL, &v->cache_size_bytes, err, size) &&
	       cli_parse_count("max_inflight", inflight, 0, ~0ULL, &v->max_inflight, err, size);
}

/* run.json's parameters from the options (OPTIONS_JSON as given), placement p and repeat (NULL:
 * not a repeat); false with the error in reply. */
static bool sp_parameters(const struct serve_rows_host *h, const char *options_text,
                          const struct sp_values *v, const struct cpu_placement *p,
                          const char *repeat, char *reply, size_t size)
{
	if (!sp_set(h, ".parameters", json_pack("{s:n}", "schedule"), reply, size))
		return false;
	json_t *placement_json = cpu_placement_json(v->cpu_placement, p->harness, p->resolvers);
	char *placement = placement_json ? json_dumps(placement_json, JSON_COMPACT) : NULL;
	json_decref(placement_json);
	char mode[32], placement_field[512], interval[64], options[SERVE_LINE_MAX];
	snprintf(mode, sizeof(mode), "mode=%s", atoi(v->serial) ? "serial" : "parallel");
	snprintf(placement_field, sizeof(placement_field), "cpu_placement:=%s",
	         placement ? placement : "null");
	free(placement);
	snprintf(interval, sizeof(interval), "interval_ms:=%llu", v->interval_ms);
	snprintf(options, sizeof(options), "options:=%s", options_text);
	char *fields[] = {"runjson-fields", ".parameters", mode,
	                  placement_field,  interval,      options};
	if (!serve_rows_host_ask(h, fields, 6, reply, size))
		return false;
	char cache[64], inflight[64], layout[256];
	snprintf(cache, sizeof(cache), "cache_size_bytes:=%llu", v->cache_size_bytes);
	snprintf(inflight, sizeof(inflight), "max_inflight:=%llu", v->max_inflight);
	snprintf(layout, sizeof(layout), "memory_layout=%s", v->memory_layout);
	char *resolver[] = {"runjson-fields", ".parameters.resolver", cache, inflight, layout};
	if (!serve_rows_host_ask(h, resolver, 5, reply, size))
		return false;
	char *set_repeat[] = {"runjson-set", ".parameters.repeat", (char *)repeat};
	return !repeat || serve_rows_host_ask(h, set_repeat, 3, reply, size);
}

bool serve_parameters_request(const struct serve_rows_host *h, char **w, int n, char *reply,
                              size_t size)
{
	if (strcmp(w[0], "parameters") != 0)
		return false;
	if (n != 3 && n != 4) {
		snprintf(reply, size,
		         "error: parameters OPTIONS_JSON BIN_DIR [REPEAT_JSON] is expected");
		return true;
	}
	char err[512];
	/* the limit the run's processes inherit from this controller (serve_main raised it) */
	struct rlimit nofile;
	getrlimit(RLIMIT_NOFILE, &nofile);
	json_t *options = json_loads(w[1], 0, NULL);
	struct sp_values v;
	struct cpu_placement p;
	bool ok = sp_values_read(options, &v, err, sizeof(err)) &&
	          cpu_placement_choose(v.cpu_placement, &p, err, sizeof(err));
	if (!ok) {
		snprintf(reply, size, "error: parameters: %s", err);
	} else if (sp_set(h, ".machine", run_context_machine((unsigned long long)nofile.rlim_cur),
	                  reply, size) &&
	           sp_parameters(h, w[1], &v, &p, n == 4 ? w[3] : NULL, reply, size) &&
	           sp_set(h, ".programs", run_context_programs(w[2]), reply, size)) {
		snprintf(reply, size, "ok");
	}
	json_decref(options);
	return true;
}
