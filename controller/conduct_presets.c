/* controller/conduct_presets.c - each load scenario's own steps (conduct_presets.h). */
#include "conduct_presets.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic_write_file.h"
#include "cli_parse.h"
#include "program_output.h"
#include "run_json.h"
#include "scenario_schedule.h"

static const char *const preset_names[] = {"spike", "footprint", "ramp", "steady", "cpu"};

bool conduct_preset_of(const char *scenario, enum conduct_preset *preset)
{
	for (size_t i = 0; i < sizeof(preset_names) / sizeof(*preset_names); i++)
		if (strcmp(scenario, preset_names[i]) == 0) {
			*preset = (enum conduct_preset)i;
			return true;
		}
	return false;
}

unsigned conduct_preset_ready_timeout_s(enum conduct_preset p)
{
	return p == PRESET_CPU ? 120 : 30;
}

static bool spiky(enum conduct_preset p)
{
	return p == PRESET_SPIKE || p == PRESET_FOOTPRINT;
}

/* ramp.sh's top (its --rate, 10000 by default) or steady.sh's rate (--rate, else the baseline's) */
static const char *preset_rate(enum conduct_preset p, const json_t *options)
{
	const char *rate = run_json_option_or_empty(options, "rate");
	if (rate[0])
		return rate;
	return p == PRESET_RAMP ? "10000" : run_json_option_or_empty(options, "baseline_rate");
}

bool conduct_preset_query_count(enum conduct_preset p, const json_t *options,
                                unsigned long long *count, char *err, size_t err_size)
{
	const char *given = run_json_option_or_empty(options, "query_count");
	if (given[0])
		return cli_parse_count("query_count", given, 1, 1ull << 40, count, err, err_size);
	unsigned long long n;
	double seconds;
	char text[1024];
	switch (p) {
	case PRESET_SPIKE:
	case PRESET_FOOTPRINT:
		if (!scenario_spike_queries(options, CONDUCT_CALIBRATE_EXTENSIONS, &n, err,
		                            err_size))
			return false;
		break;
	case PRESET_RAMP:
	case PRESET_STEADY:
		if (!scenario_schedule(options, p == PRESET_RAMP ? "ramp" : "steady",
		                       preset_rate(p, options), text, sizeof(text), err,
		                       err_size) ||
		    !scenario_schedule_measure(text, &n, &seconds, err, err_size))
			return false;
		break;
	case PRESET_CPU:
		if (!cli_parse_count("count", run_json_option_or_empty(options, "count"), 1,
		                     1ull << 40, &n, err, err_size))
			return false;
		break;
	}
	*count = scenario_round_count(n);
	return true;
}

const char *conduct_preset_spike_rate(enum conduct_preset p, const json_t *options)
{
	return spiky(p) ? run_json_option_or_empty(options, "spike_rate") : NULL;
}

bool conduct_preset_schedule(enum conduct_preset p, const json_t *options, const char *spike_rate,
                             char *schedule, size_t size, char *parameters, size_t psize, char *err,
                             size_t err_size)
{
	parameters[0] = '\0';
	if (spiky(p))
		return scenario_schedule(options, "spike", spike_rate, schedule, size, err,
		                         err_size);
	if (p != PRESET_CPU)
		return scenario_schedule(options, p == PRESET_RAMP ? "ramp" : "steady",
		                         preset_rate(p, options), schedule, size, err, err_size);
	/* cpu.sh: its --count at its --rate, one baseline */
	unsigned long long count, rate;
	if (!cli_parse_count("count", run_json_option_or_empty(options, "count"), 1, 1ull << 40,
	                     &count, err, err_size) ||
	    !cli_parse_count("rate", run_json_option_or_empty(options, "rate"), 1, 1ull << 30,
	                     &rate, err, err_size))
		return false;
	snprintf(schedule, size, "baseline:%llums@%llu", count * 1000 / rate, rate);
	snprintf(parameters, psize, "count:=%llu\ntools=%s", count,
	         run_json_option_or_empty(options, "tools"));
	return true;
}

size_t conduct_preset_tools(const json_t *options, char tools[][16], size_t max)
{
	const char *list = run_json_option_or_empty(options, "tools");
	size_t n = 0;
	while (*list && n < max) {
		size_t len = strcspn(list, ",");
		if (len > 0 && len < 16)
			snprintf(tools[n++], 16, "%.*s", (int)len, list);
		list += len + (list[len] == ',');
	}
	return n;
}

void conduct_preset_tool_wrap(const char *tool, const char *dir, const char *name, char *out,
                              size_t size)
{
	if (strcmp(tool, "callgrind") == 0)
		snprintf(out, size,
		         "valgrind\n--tool=callgrind\n--callgrind-out-file=%s/%s.callgrind.out\n"
		         "--dump-instr=no",
		         dir, name);
	else /* perf stat writes its count only when its child exits (drive's stop-child) */
		snprintf(out, size, "perf\nstat\n-e\ntask-clock\n-x\n,\n-o\n%s/%s.perf.csv\n--",
		         dir, name);
}

bool conduct_preset_certificate(const char *run_dir, char *tls, size_t size, char *err,
                                size_t err_size)
{
	char key[PATH_MAX + 32], pem[PATH_MAX + 32], log[PATH_MAX + 32];
	snprintf(tls, size, "%s/tls", run_dir);
	if (mkdir(tls, 0700) != 0 && errno != EEXIST) {
		snprintf(err, err_size, "cannot create %s", tls);
		return false;
	}
	snprintf(key, sizeof(key), "%s/server.key", tls);
	snprintf(pem, sizeof(pem), "%s/server.pem", tls);
	snprintf(log, sizeof(log), "%s/openssl.log", tls);
	char *argv[] = {"openssl",
	                "req",
	                "-x509",
	                "-newkey",
	                "ec",
	                "-pkeyopt",
	                "ec_paramgen_curve:prime256v1",
	                "-nodes",
	                "-keyout",
	                key,
	                "-out",
	                pem,
	                "-days",
	                "2",
	                "-subj",
	                "/CN=allocspike-test",
	                NULL};
	struct program_run how = {.err_log = log};
	int status = program_output(argv, &how, NULL);
	if (status == -1)
		snprintf(
		    err, err_size,
		    "--clients needs openssl for the test certificate (apt-get install openssl)");
	else if (status != 0)
		snprintf(err, err_size, "openssl could not make the test certificate (see %s)",
		         log);
	return status == 0;
}

void conduct_preset_sampler(const char *bin, char *path, size_t size)
{
	const char *slash = strrchr(bin, '/');
	int len = slash ? (int)(slash - bin) : 1;
	snprintf(path, size, "%.*s/lib/liballocspike-live-sampler.so", len, slash ? bin : ".");
}

void conduct_preset_footprint_wrap(const char *bin, const char *ctl_dir, const char *name,
                                   const char *allocator, char *out, size_t size)
{
	char sampler[PATH_MAX + 64];
	conduct_preset_sampler(bin, sampler, sizeof(sampler));
	snprintf(out, size,
	         "env\nLD_PRELOAD=%s\nALLOCSPIKE_SAMPLER_SOCKET=%s/%s.sizes.sock\n"
	         "ALLOCSPIKE_SAMPLER_ALLOCATOR=%s",
	         sampler, ctl_dir, name, allocator);
}

void conduct_preset_footprint_poller(const char *bin, const char *run_dir, char *out, size_t size)
{
	const char *period = getenv("FOOTPRINT_POLL_PERIOD_S");
	snprintf(out, size,
	         "_footprint_poll\n%s/logs/footprint-poll.log\n%s/allocspike-run\npoll-sizes\n"
	         "%s/sizes\n%s\n14400",
	         run_dir, bin, run_dir, period && period[0] ? period : "0.5");
}

bool conduct_preset_sizes_origin(const char *run_dir, const char *origin, char *err,
                                 size_t err_size)
{
	char dir[PATH_MAX + 16], path[PATH_MAX + 48], text[80];
	snprintf(dir, sizeof(dir), "%s/sizes", run_dir);
	snprintf(path, sizeof(path), "%s/origin_unix_s", dir);
	snprintf(text, sizeof(text), "%s\n", origin);
	if ((mkdir(dir, 0755) != 0 && errno != EEXIST) ||
	    !atomic_write_file(path, text, strlen(text), err, err_size)) {
		snprintf(err, err_size, "cannot write %s", path);
		return false;
	}
	return true;
}

bool conduct_preset_footprint_report(const char *bin, const char *run_dir, char *err,
                                     size_t err_size)
{
	char report[PATH_MAX + 32];
	snprintf(report, sizeof(report), "%s/allocspike-report", bin);
	char *argv[] = {report, "footprint", (char *)run_dir, NULL};
	struct program_run how = {0};
	fflush(stdout);
	if (program_output(argv, &how, NULL) != 0) {
		snprintf(err, err_size, "allocspike-report footprint failed on %s", run_dir);
		return false;
	}
	printf("%s/footprint.md\n", run_dir);
	fflush(stdout);
	return true;
}
