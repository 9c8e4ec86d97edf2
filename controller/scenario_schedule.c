/* controller/scenario_schedule.c - the scenarios' schedules (scenario_schedule.h). */
#include "scenario_schedule.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "run_json.h"
#include "schedule.h"

/* An option's value as run.json records it; "" for one the run does not have. */
bool scenario_schedule(const json_t *options, const char *kind, const char *arg, char *out,
                       size_t size, char *err, size_t err_size)
{
	const json_t *o = options;
	int n = -1;
	if (strcmp(kind, "spike") == 0) {
		/* with --clients each spike raises the clients too: a connection spike */
		char clients[64] = "";
		if (strcmp(run_json_option_or_empty(o, "clients"), "1") == 0)
			snprintf(clients, sizeof(clients), "/clients=%s",
			         run_json_option_or_empty(o, "spike_clients"));
		/* the rate never drops to zero: jemalloc purges only while the process allocates */
		n = snprintf(
		    out, size, "warmup:%s@%s,baseline:%s@%s,%s*(spike:%s@%s%s,recovery:%s@%s)",
		    run_json_option_or_empty(o, "warmup_len"),
		    run_json_option_or_empty(o, "warmup_rate"),
		    run_json_option_or_empty(o, "baseline_len"),
		    run_json_option_or_empty(o, "baseline_rate"),
		    run_json_option_or_empty(o, "spikes"), run_json_option_or_empty(o, "spike_len"),
		    arg, clients, run_json_option_or_empty(o, "recovery_len"),
		    run_json_option_or_empty(o, "baseline_rate"));
	} else if (strcmp(kind, "calibrate") == 0) {
		n = snprintf(out, size, "calibrate:%s@%s..%s",
		             run_json_option_or_empty(o, "calibrate_len"),
		             run_json_option_or_empty(o, "baseline_rate"), arg);
	} else if (strcmp(kind, "ramp") == 0) {
		n = snprintf(out, size, "warmup:%s@%s,calibrate:%s@%s..%s",
		             run_json_option_or_empty(o, "warmup_len"),
		             run_json_option_or_empty(o, "warmup_rate"),
		             run_json_option_or_empty(o, "calibrate_len"),
		             run_json_option_or_empty(o, "baseline_rate"), arg);
	} else if (strcmp(kind, "steady") == 0) {
		n = snprintf(out, size, "warmup:%s@%s,baseline:%s@%s",
		             run_json_option_or_empty(o, "warmup_len"),
		             run_json_option_or_empty(o, "warmup_rate"),
		             run_json_option_or_empty(o, "baseline_len"), arg);
	} else {
		snprintf(err, err_size, "unknown schedule '%s' (spike, calibrate, ramp, steady)",
		         kind);
		return false;
	}
	if (n < 0 || (size_t)n >= size) {
		snprintf(err, err_size, "the %s schedule is too long", kind);
		return false;
	}
	return true;
}

bool scenario_schedule_measure(const char *text, unsigned long long *queries, double *seconds,
                               char *err, size_t err_size)
{
	struct schedule s;
	if (!schedule_parse(text, &s, err, err_size))
		return false;
	*queries = schedule_total_queries(&s);
	*seconds = s.duration_s;
	schedule_free(&s);
	return true;
}

unsigned long long scenario_round_count(unsigned long long n)
{
	unsigned long long r = (n + 99999) / 100000 * 100000;
	return r < 100000 ? 100000 : r > 2000000 ? 2000000 : r;
}

/* The seconds one spike run takes (its schedule at the given rate, or at --calibrate-max's, which
 * lasts as long, for auto, plus SCENARIO_SPIKE_OVERHEAD_S), then the part its one calibration ramp
 * takes (0 with a given rate; each extension past --calibrate-max adds one more). */
static bool spike_expected(const json_t *o, long *total_s, long *calibration_s, char *err,
                           size_t err_size)
{
	bool automatic = strcmp(run_json_option_or_empty(o, "spike_rate"), "auto") == 0;
	char text[1024];
	unsigned long long q;
	double run_s, cal_s = 0;
	if (!scenario_schedule(o, "spike",
	                       automatic ? run_json_option_or_empty(o, "calibrate_max")
	                                 : run_json_option_or_empty(o, "spike_rate"),
	                       text, sizeof(text), err, err_size) ||
	    !scenario_schedule_measure(text, &q, &run_s, err, err_size))
		return false;
	if (automatic &&
	    (!scenario_schedule(o, "calibrate", run_json_option_or_empty(o, "calibrate_max"), text,
	                        sizeof(text), err, err_size) ||
	     !scenario_schedule_measure(text, &q, &cal_s, err, err_size)))
		return false;
	*calibration_s = lround(cal_s);
	*total_s = lround(run_s) + SCENARIO_SPIKE_OVERHEAD_S + *calibration_s;
	return true;
}

bool scenario_spike_queries(const json_t *o, unsigned extensions, unsigned long long *queries,
                            char *err, size_t err_size)
{
	char rate[32], text[1024];
	snprintf(rate, sizeof(rate), "%s", run_json_option_or_empty(o, "spike_rate"));
	if (strcmp(rate, "auto") == 0) {
		double top = 0, multiple = 0;
		if (!cli_parse_number("calibrate_max", run_json_option_or_empty(o, "calibrate_max"),
		                      1, 1e9, &top, err, err_size) ||
		    !cli_parse_number("spike_multiple",
		                      run_json_option_or_empty(o, "spike_multiple"), 0, 1e3,
		                      &multiple, err, err_size))
			return false;
		/* in thousandths, as the scenarios' own options give it (allocspike-run options) */
		long long milli = llround(multiple * 1000);
		snprintf(rate, sizeof(rate), "%lld",
		         (long long)top * (1ll << extensions) * milli / 1000);
	}
	double s;
	return scenario_schedule(o, "spike", rate, text, sizeof(text), err, err_size) &&
	       scenario_schedule_measure(text, queries, &s, err, err_size);
}

static void usage(FILE *out)
{
	fprintf(out,
	        "usage: allocspike-run schedule --options JSON KIND ARG [--count | --seconds]\n"
	        "       allocspike-run schedule --options JSON --spike-expected\n"
	        "       allocspike-run schedule --options JSON --spike-queries EXTENSIONS\n"
	        "       allocspike-run schedule --round-count N\n"
	        "  KIND ARG: spike RATE, calibrate TOP, ramp TOP, steady RATE (docs/schedule.md),\n"
	        "  made from JSON, the run's options as run.json's parameters.options has them.\n"
	        "  Prints the schedule, or with --count its queries as the generator counts them,\n"
	        "  with --seconds its length in whole seconds. --spike-expected: 'TOTAL CAL', the\n"
	        "  seconds a spike run takes and the part of them its calibration takes;\n"
	        "  --spike-queries: the queries its file must hold (auto: at the highest spike a\n"
	        "  calibration of EXTENSIONS extensions can ask for); --round-count: a query\n"
	        "  file's size for N queries. Exit 0, or 2 with the reason.\n");
}

/* KIND ARG's schedule, or with how ("--count", "--seconds") what it costs, on stdout. */
static bool print_schedule(const json_t *o, const char *kind, const char *arg, const char *how,
                           char *err, size_t err_size)
{
	char text[1024];
	unsigned long long q;
	double s;
	if (!scenario_schedule(o, kind, arg, text, sizeof(text), err, err_size) ||
	    (how && !scenario_schedule_measure(text, &q, &s, err, err_size)))
		return false;
	if (!how)
		printf("%s\n", text);
	else if (strcmp(how, "--count") == 0)
		printf("%llu\n", q);
	else
		printf("%ld\n", lround(s));
	return true;
}

int scenario_schedule_main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "--round-count") == 0) {
		unsigned long long n;
		if (!cli_option_count("--round-count", argv[2], 0, 1ull << 40, &n))
			return 2;
		printf("%llu\n", scenario_round_count(n));
		return 0;
	}
	if (argc < 4 || strcmp(argv[1], "--options") != 0) {
		usage(stderr);
		return 2;
	}
	json_t *o = json_loads(argv[2], 0, NULL);
	char **w = argv + 3;
	int n = argc - 3;
	bool measured = n == 3 && (strcmp(w[2], "--count") == 0 || strcmp(w[2], "--seconds") == 0);
	char err[512] = "--options must be a JSON object (run.json's parameters.options)";
	bool ok = false, known = true;
	unsigned long long count = 0, extensions;
	long total, cal;
	if (!json_is_object(o)) {
		ok = false;
	} else if (n == 1 && strcmp(w[0], "--spike-expected") == 0) {
		if ((ok = spike_expected(o, &total, &cal, err, sizeof(err))))
			printf("%ld %ld\n", total, cal);
	} else if (n == 2 && strcmp(w[0], "--spike-queries") == 0) {
		ok = cli_parse_count("--spike-queries", w[1], 0, 10, &extensions, err,
		                     sizeof(err)) &&
		     scenario_spike_queries(o, (unsigned)extensions, &count, err, sizeof(err));
		if (ok)
			printf("%llu\n", count);
	} else if (n == 2 || measured) {
		ok = print_schedule(o, w[0], w[1], measured ? w[2] : NULL, err, sizeof(err));
	} else {
		known = false;
	}
	json_decref(o);
	if (!known) {
		usage(stderr);
		return 2;
	}
	if (!ok)
		fprintf(stderr, "allocspike-run schedule: %s\n", err);
	return ok ? 0 : 2;
}
