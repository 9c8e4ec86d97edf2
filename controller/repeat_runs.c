/* controller/repeat_runs.c - allocspike-run repeat (repeat_runs.h). */
#include "repeat_runs.h"

#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child_run.h"
#include "cli_parse.h"
#include "json_file.h"
#include "run_outdir.h"

/* Words added to the scenario's own: --repeat 1 --out, --no-build, --spike-rate, --query-count. */
#define REPEAT_EXTRA_WORDS 10

struct repeat_options {
	unsigned long long runs;
	const char *out, *scenario, *report;
	bool calibrated;   /* the scenario calibrates its spike rate (--spike-rate auto) */
	bool same_queries; /* its query file is generated at a length it chooses */
	char **command;    /* the scenario's command line */
	int command_count;
};

void repeat_runs_usage(FILE *out)
{
	fprintf(out,
	        "allocspike-run repeat --runs N --out DIR --scenario NAME [--report PROGRAM]\n"
	        "                      [--calibrated] [--same-queries] -- COMMAND...\n"
	        "  a scenario's --repeat N: COMMAND --repeat 1 --out DIR/run-I for I = 1..N, then\n"
	        "  PROGRAM compare of them into DIR/compare.html (its path printed)\n");
}

/* The scenario's message on stderr, as its sc_say (kind "") and sc_die ("error: ") write it. */
static void repeat_say(const struct repeat_options *o, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void repeat_say(const struct repeat_options *o, const char *kind, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: %s", o->scenario, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* child_run with its stdout thrown away (the comparison's page path is ours to print). */
static int repeat_run_quiet(char **argv, int *signalled)
{
	fflush(stdout);
	int saved = dup(STDOUT_FILENO), null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0)
		return -1;
	int st = child_run(argv, argv[0], signalled);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(null);
	return st;
}

/* The whole number run.json holds at the keys (NULL-terminated) as text into out; false when it
 * holds none there. */
static bool repeat_recorded(const char *run_json, const char *const *keys, char *out, size_t size)
{
	char err[4400];
	json_t *doc = json_file_load(run_json, err, sizeof(err)), *v = doc;
	for (; *keys && v; keys++)
		v = json_object_get(v, *keys);
	bool ok = json_is_integer(v) && json_integer_value(v) >= 0;
	if (ok)
		snprintf(out, size, "%lld", (long long)json_integer_value(v));
	json_decref(doc);
	return ok;
}

static int repeat_parse(struct repeat_options *o, int argc, char **argv)
{
	static const struct option longs[] = {{"runs", required_argument, NULL, 'n'},
	                                      {"out", required_argument, NULL, 'o'},
	                                      {"scenario", required_argument, NULL, 's'},
	                                      {"report", required_argument, NULL, 'r'},
	                                      {"calibrated", no_argument, NULL, 'c'},
	                                      {"same-queries", no_argument, NULL, 'q'},
	                                      {NULL, 0, NULL, 0}};
	*o = (struct repeat_options){.report = "", .scenario = "allocspike-run repeat"};
	const char *runs = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+", longs, NULL)) != -1) {
		switch (c) {
		case 'n':
			runs = optarg;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 's':
			o->scenario = optarg;
			break;
		case 'r':
			o->report = optarg;
			break;
		case 'c':
			o->calibrated = true;
			break;
		case 'q':
			o->same_queries = true;
			break;
		default:
			return CLI_EXIT_USAGE;
		}
	}
	if (!runs || !o->out || optind >= argc || strcmp(argv[optind - 1], "--") != 0) {
		fprintf(
		    stderr,
		    "allocspike-run repeat: --runs, --out, then -- and the command are expected\n");
		return CLI_EXIT_USAGE;
	}
	if (!cli_option_count("--runs", runs, 1, 10000, &o->runs))
		return CLI_EXIT_USAGE;
	o->command = argv + optind;
	o->command_count = argc - optind;
	return CLI_EXIT_OK;
}

int repeat_runs_main(int argc, char **argv)
{
	struct repeat_options o;
	int rc = repeat_parse(&o, argc, argv);
	if (rc != CLI_EXIT_OK) {
		repeat_runs_usage(stderr);
		return rc;
	}
	char why[4400], run_dir[PATH_MAX], run_json[PATH_MAX + 16], rate[32] = "", count[32] = "";
	char env[160], page[PATH_MAX + 16], real[PATH_MAX];
	/* the folder of the repeats follows --out's rule; each run gets a new one in it */
	if (!run_outdir_make(o.out, why, sizeof(why))) {
		repeat_say(&o, "error: ", "the folder of the repeats: %s", why);
		return CLI_EXIT_FAILED;
	}
	char **words = calloc((size_t)o.command_count + REPEAT_EXTRA_WORDS + 1, sizeof(*words));
	/* the comparison's command: PROGRAM compare DIR/run-1 ... -o PAGE */
	char **compare = calloc(o.runs + 5, sizeof(*compare)), **runs = compare + 2;
	if (!words || !compare) {
		free(words);
		free(compare);
		return CLI_EXIT_FAILED;
	}
	bool rate_from_first = false;
	for (unsigned long long i = 1; i <= o.runs && rc == CLI_EXIT_OK; i++) {
		repeat_say(&o, "", "repeat %llu of %llu", i, o.runs);
		snprintf(run_dir, sizeof(run_dir), "%s/run-%llu", o.out, i);
		int w = 0;
		for (int a = 0; a < o.command_count; a++)
			words[w++] = o.command[a];
		words[w++] = "--repeat";
		words[w++] = "1";
		words[w++] = "--out";
		words[w++] = run_dir;
		if (i > 1)
			words[w++] = "--no-build";
		if (rate[0]) {
			words[w++] = "--spike-rate";
			words[w++] = rate;
		}
		if (count[0]) {
			words[w++] = "--query-count";
			words[w++] = count;
		}
		words[w] = NULL;
		/* the run records which repeat it is and where its rate came from (run.json
		 * parameters.repeat) */
		snprintf(env, sizeof(env), "{\"run\":%llu,\"of\":%llu,\"spike_rate_from\":%s}", i,
		         o.runs, rate_from_first ? "\"run-1\"" : "null");
		setenv("ALLOCSPIKE_REPEAT", env, 1);
		int signalled = 0, st = child_run(words, "repeat", &signalled);
		runs[i - 1] = strdup(run_dir);
		if (signalled) {
			rc = 130;
			break;
		}
		if (st != 0) {
			repeat_say(&o, "error: ",
			           "repeat %llu ended with status %d; stopping the repeats", i, st);
			rc = CLI_EXIT_FAILED;
			break;
		}
		snprintf(run_json, sizeof(run_json), "%s/run.json", run_dir);
		if (i == 1 && o.calibrated) {
			static const char *const at[] = {"parameters", "spike_rate_qps", NULL};
			if (!repeat_recorded(run_json, at, rate, sizeof(rate))) {
				repeat_say(
				    &o, "error: ",
				    "repeat 1 recorded no spike rate (%s); stopping the repeats",
				    run_json);
				rc = CLI_EXIT_FAILED;
				break;
			}
			repeat_say(&o, "",
			           "repeats 2 to %llu spike at repeat 1's calibrated %s qps",
			           o.runs, rate);
			rate_from_first = true;
		}
		/* the default query file's length follows the spike rate (auto: the highest the
		 * calibration could ask for); the later repeats replay the very file of the first
		 */
		static const char *const generated[] = {"queryfile", "generated", "count", NULL};
		if (i == 1 && o.same_queries)
			repeat_recorded(run_json, generated, count, sizeof(count));
	}
	if (rc == CLI_EXIT_OK) {
		snprintf(page, sizeof(page), "%s/compare.html", o.out);
		compare[0] = (char *)o.report;
		compare[1] = "compare";
		runs[o.runs] = "-o";
		runs[o.runs + 1] = page;
		/* looked for now: the first run may have built it */
		bool missing = access(o.report, X_OK) != 0;
		int signalled = 0, st = missing ? -1 : repeat_run_quiet(compare, &signalled);
		rc = signalled ? 130 : CLI_EXIT_FAILED;
		if (missing)
			repeat_say(&o, "error: ",
			           "allocspike-report is missing: no comparison of the repeats");
		else if (st != 0 && !signalled)
			repeat_say(&o, "error: ", "allocspike-report compare failed");
		else if (st == 0 && realpath(o.out, real)) {
			printf("%s/compare.html\n", real);
			rc = CLI_EXIT_OK;
		}
	}
	for (unsigned long long i = 0; i < o.runs; i++)
		free(runs[i]);
	free(compare);
	free(words);
	return rc;
}
