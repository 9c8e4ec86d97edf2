/* controller/dry_run.c - a scenario's --dry-run plan (dry_run.h). What only the start decides is
 * in capitals, as the scenarios' --dry-run always printed it: /CTL (the control folder), QUERIES
 * (the generated query file), PORT (the hierarchy's port), ADDR and PID (a row's), SCHEDULE (a
 * schedule the start decides). */
#include "dry_run.h"

#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "daemon_row.h"
#include "hierarchy_command.h"
#include "loadgen_command.h"
#include "place_command.h"
#include "row_launch.h"
#include "run_json.h"
#include "scenario_schedule.h"
#include "seconds_text.h"
#include "conduct_presets.h"
#include "run_words.h"
#include "supervise_plan.h"
#include "variant_command.h"

#define DRY_CTL "/CTL"

/* What the scenario knows and passes (dry_run_usage). */
struct dry_run_args {
	const char *scenario, *options, *given, *root, *bin, *out;
	const char *cpus_harness, *cpus_resolvers;
	/* the scenario's, from its options (conduct_presets.h): its schedule (R for a calibrated
	 * spike rate), the line on its calibration, the queries its file needs; "" unknown */
	char schedule[1024], note[2048], queries_needed[32];
	const char *expected_s, *calibration_s; /* NULL: the scenario cannot tell */
};

/* run.json's parameters.options as the header and the builders read them. */
struct dry_run_options {
	const char *serial, *repeat, *queries, *query_seed, *query_count;
	const char *hosts; /* spike.sh --hosts's file, or NULL */
	struct hierarchy_options hierarchy;
	struct loadgen_options loadgen;
};

/* What is built, owned here until the plan is printed. */
struct dry_run_build {
	struct row_settings settings;
	struct hierarchy_command hierarchy;
	struct row_launch *rows; /* one per row, argv NULL for a daemon row's */
	char **names;            /* the rows' names, in the run's order */
	char **targets;          /* the generator's --target words, one per row */
	size_t n_rows;
	char **loadgen;
	char **
	    place; /* spike.sh --hosts: the run's placement command instead of rows and generator */
	/* the programs, and place's options (drive's place=), "" without hosts */
	char upstream[PATH_MAX + 32], loadgen_path[PATH_MAX + 32], place_words[8192];
	char **settings_words; /* what settings points into */
};

void dry_run_usage(FILE *out)
{
	fprintf(
	    out,
	    "allocspike-run dry-run --scenario NAME --options JSON [--given NAME,...]\n"
	    "                       --root DIR --bin DIR --out DIR\n"
	    "                       [--cpus-harness LIST] [--cpus-resolvers LIST] [--schedule S]\n"
	    "                       [--note LINE]... [--expected-s S --calibration-s S]\n"
	    "                       [--queries-needed N]\n"
	    "  a scenario's --dry-run: its rows, schedule, expected length and every process\n"
	    "  the run starts, made by the run's own builders from the source tree (--root)\n"
	    "  and the programs (--bin); starts and writes nothing\n");
}

/* The arguments into a; the exit status when they are not right, else -1. */
static int dry_run_parse(struct dry_run_args *a, int argc, char **argv)
{
	*a = (struct dry_run_args){.given = "", .cpus_harness = "", .cpus_resolvers = ""};
	/* each option takes a value, put where to[] says in names' order */
	static const char *const names[] = {
	    "scenario", "options",      "given",          "root",       "bin",
	    "out",      "cpus-harness", "cpus-resolvers", "expected-s", "calibration-s"};
	const char **to[] = {&a->scenario,   &a->options,      &a->given,        &a->root,
	                     &a->bin,        &a->out,          &a->cpus_harness, &a->cpus_resolvers,
	                     &a->expected_s, &a->calibration_s};
	struct option longs[sizeof(names) / sizeof(*names) + 1] = {{0}};
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		longs[i] = (struct option){names[i], required_argument, NULL, 0};
	int c = 0, at;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+", longs, &at)) == 0)
		*to[at] = optarg;
	if (c != -1) {
		dry_run_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (!a->scenario || !a->options || !a->root || !a->bin || !a->out || optind < argc ||
	    (!a->expected_s != !a->calibration_s)) {
		fprintf(
		    stderr,
		    "allocspike-run dry-run: --scenario, --options, --root, --bin and --out are "
		    "required, --expected-s with --calibration-s\n");
		dry_run_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	return -1;
}

/* The header's and the builders' options, given the options the user gave; false with why in
 * err. */
static bool dry_run_options_read(struct dry_run_options *o, const json_t *options,
                                 const char *given, char *err, size_t size)
{
	o->hosts = json_string_value(json_object_get(options, "hosts")); /* spike.sh's alone */
	return hierarchy_options_read(&o->hierarchy, options, given, err, size) &&
	       loadgen_options_read(&o->loadgen, options, err, size) &&
	       (o->serial = run_json_option_text(options, "serial", err, size)) &&
	       (o->repeat = run_json_option_text(options, "repeat", err, size)) &&
	       (o->queries = run_json_option_text(options, "queries", err, size)) &&
	       (o->query_seed = run_json_option_text(options, "query_seed", err, size)) &&
	       (o->query_count = run_json_option_text(options, "query_count", err, size));
}

/* The query file's size the header names: the user's --query-count, else the scenario's need
 * rounded as the start rounds it, else COUNT (not known yet). */
static bool query_count_text(const struct dry_run_args *a, const struct dry_run_options *o,
                             char *out, size_t size, char *err, size_t err_size)
{
	unsigned long long needed;
	if (o->query_count[0])
		snprintf(out, size, "%s", o->query_count);
	else if (!a->queries_needed[0])
		snprintf(out, size, "COUNT");
	else if (!cli_parse_count("--queries-needed", a->queries_needed, 1, ~0ULL, &needed, err,
	                          err_size))
		return false;
	else
		snprintf(out, size, "%llu", scenario_round_count(needed));
	return true;
}

/* A load scenario's schedule, its calibration's line and its file's need, as its steps make them
 * (conduct_presets.h); nothing for another scenario. False with why in err. */
static bool dry_run_preset(struct dry_run_args *a, const json_t *options, char *err, size_t size)
{
	enum conduct_preset p;
	unsigned long long count;
	char parameters[512], ramp[1024];
	if (!conduct_preset_of(a->scenario, &p))
		return true;
	const char *rate = conduct_preset_spike_rate(p, options);
	bool calibrated = rate && strcmp(rate, "auto") == 0;
	if (!conduct_preset_query_count(p, options, &count, err, size) ||
	    !conduct_preset_schedule(p, options, calibrated ? "R" : rate, a->schedule,
	                             sizeof(a->schedule), parameters, sizeof(parameters), err,
	                             size))
		return false;
	snprintf(a->queries_needed, sizeof(a->queries_needed), "%llu", count);
	if (!calibrated)
		return true;
	const char *top = run_json_option_text(options, "calibrate_max", err, size);
	const char *multiple = run_json_option_text(options, "spike_multiple", err, size);
	if (!top || !multiple ||
	    !scenario_schedule(options, "calibrate", top, ramp, sizeof(ramp), err, size))
		return false;
	snprintf(a->note, sizeof(a->note),
	         "calibration: %s against fresh processes, ramped again to twice the top while the "
	         "slowest row still answers there (at most %d times); R = %s x the slowest row's "
	         "knee",
	         ramp, CONDUCT_CALIBRATE_EXTENSIONS, multiple);
	return true;
}

/* The lines before the processes: the rows, CPUs, repeats, the scenario's notes, the schedule,
 * the query file, the expected length; false with why in err. */
static bool print_header(const struct dry_run_args *a, const struct dry_run_options *o,
                         const char *rows, unsigned long long expected_s, char *err,
                         size_t err_size)
{
	char count[64];
	if (!query_count_text(a, o, count, sizeof(count), err, err_size))
		return false;
	printf("dry run of %s: nothing is started or written\nrows: ", a->scenario);
	for (const char *p = rows; *p; p++)
		putchar(*p == ',' ? ' ' : *p);
	printf(" (%s)\n", strcmp(o->serial, "1") == 0 ? "one at a time" : "in parallel");
	printf("CPUs: harness %s, resolvers %s\n", a->cpus_harness[0] ? a->cpus_harness : "any",
	       a->cpus_resolvers[0] ? a->cpus_resolvers : "any");
	if (strcmp(o->repeat, "1") != 0)
		printf(
		    "repeats: %s runs as below into RUN/run-1..%s (with R, the later runs spike at "
		    "the first's), then a comparison page\n",
		    o->repeat, o->repeat);
	if (a->note[0])
		printf("%s\n", a->note);
	printf("schedule: %s\n", a->schedule[0] ? a->schedule : "decided at the start");
	if (!o->queries[0])
		printf("queries: QUERIES, generated at the start (allocspike-querydata generate "
		       "--seed %s --count %s)\n",
		       o->query_seed, count);
	if (a->expected_s) {
		char text[64];
		seconds_text(expected_s, text, sizeof(text));
		printf("expected: about %s in all\n", text);
	}
	return true;
}

/* Each row's command, or for a daemon row the line saying its definition makes it at the start,
 * and its --target word: the generator's as row-targets gives it, the address and PID to come. */
static bool build_rows(struct dry_run_build *b, const char *out, bool clients, char *err,
                       size_t size)
{
	const struct row_settings *s = &b->settings;
	size_t n = 1;
	for (const char *p = s->rows; *p; p++)
		n += *p == ',';
	b->rows = calloc(n, sizeof(*b->rows));
	b->names = calloc(n + 1, sizeof(*b->names));
	b->targets = calloc(n + 1, sizeof(*b->targets));
	if (!b->rows || !b->names || !b->targets) {
		snprintf(err, size, "out of memory");
		return false;
	}
	for (const char *p = s->rows; *p; b->n_rows++) {
		char target[PATH_MAX + 256];
		size_t len = strcspn(p, ",");
		char *name = b->names[b->n_rows] = strndup(p, len);
		p += len + (p[len] == ',');
		if (!name) {
			snprintf(err, size, "out of memory");
			return false;
		}
		const struct variant_row *row = variants_table_find(&s->table, name);
		if (row && daemon_row_is_daemon(&s->table, name)) {
			/* its definition as daemons/lib/run.sh's daemon_definition names it */
			printf("row %s (%s): its command is made at the start by %s/lib/../%s.sh\n",
			       name, row->cells[VARIANT_KIND], s->daemons_dir,
			       row->cells[VARIANT_BASE]);
			/* its sampler's socket, as row_launch names every row's control */
			snprintf(b->rows[b->n_rows].control, sizeof(b->rows[b->n_rows].control),
			         "%s/%s.sock", DRY_CTL, name);
		} else if (!row_launch_build(s, name, out, DRY_CTL, true, NULL, 0,
		                             &b->rows[b->n_rows], err, size)) {
			return false;
		}
		/* the address, PID and, in a --clients run, DoT address to come (the row's ready
		 * file gives it; `tcp` when the row turns out to serve no DoT) */
		if (!loadgen_target_word(target, sizeof(target), name, "ADDR", "PID",
		                         b->rows[b->n_rows].control, clients ? "DOT" : NULL) ||
		    !(b->targets[b->n_rows] = strdup(target))) {
			snprintf(err, size, "out of memory");
			return false;
		}
	}
	return true;
}

/* The rows the options choose, "a,b,c" in rows, from the source tree's table. */
static bool dry_run_chosen(const char *root, const json_t *options, char *rows, size_t size,
                           char *err, size_t err_size)
{
	char table_path[PATH_MAX + 16], daemons[PATH_MAX + 32];
	run_words_source(root, table_path, sizeof(table_path), daemons, sizeof(daemons));
	struct variants_table table = {0};
	if (!variants_table_read(&table, table_path, err, err_size))
		return false;
	size_t *chosen = calloc(table.count + 1, sizeof(*chosen)), n = 0;
	bool ok = chosen ? run_words_chosen(&table, options, chosen, &n, rows, size, err, err_size)
	                 : (snprintf(err, err_size, "out of memory"), false);
	free(chosen);
	variants_table_free(&table);
	return ok;
}

/* The rows' settings, as the run's steps give them (run_words.h): the hints and the certificate
 * in the run folder, the port to come; the programs; place's options. False with why in err. */
static bool dry_run_settings(struct dry_run_build *b, const struct dry_run_args *a,
                             const json_t *options, const struct dry_run_options *o, char *err,
                             size_t size)
{
	char rows[4096], hints[PATH_MAX + 16], tls[PATH_MAX + 8];
	size_t n = 0;
	snprintf(hints, sizeof(hints), "%s/root.hints", a->out);
	snprintf(tls, sizeof(tls), "%s/tls", a->out);
	snprintf(b->upstream, sizeof(b->upstream), "%s/allocspike-upstream", a->bin);
	snprintf(b->loadgen_path, sizeof(b->loadgen_path), "%s/allocspike-loadgen", a->bin);
	bool ok =
	    dry_run_chosen(a->root, options, rows, sizeof(rows), err, size) &&
	    run_words_rows(&b->settings_words, &n, options,
	                   &(struct run_words_rows){a->root, a->bin, rows, hints, "PORT",
	                                            o->loadgen.clients ? tls : ""},
	                   err, size) &&
	    row_settings_parse(b->settings_words, (int)n, &b->settings, err, size) &&
	    (!o->hosts || !o->hosts[0] ||
	     run_words_place(b->place_words, sizeof(b->place_words), options, a->out, err, size));
	return ok;
}

/* The hierarchy, the rows and the generator built into b; false with why in err. */
static bool dry_run_build(struct dry_run_build *b, const struct dry_run_args *a,
                          const struct dry_run_options *o, char *err, size_t size)
{
	if (!hierarchy_command_make(&b->hierarchy, &o->hierarchy, b->upstream, a->out, DRY_CTL,
	                            "0")) {
		snprintf(err, size, "the hierarchy's command could not be made");
		return false;
	}
	if (b->place_words[0]) { /* the rows are the agents': place's command, its placement shown
		                  */
		char bin_dir[PATH_MAX];
		size_t n = 0;
		if (!o->hosts || !o->hosts[0]) {
			snprintf(err, size, "--place: the options name no hosts file");
			return false;
		}
		if (!place_command_print_placement(stdout, o->hosts, &b->settings.table, err, size))
			return false;
		if (!variant_command_bin_dir(bin_dir, sizeof(bin_dir)) ||
		    !place_command_add(&b->place, &n, bin_dir, a->out,
		                       a->schedule[0] ? a->schedule : "SCHEDULE",
		                       o->queries[0] ? o->queries : "QUERIES", b->place_words))
			snprintf(err, size, "the placement's command could not be made");
		return b->place != NULL;
	}
	if (!build_rows(b, a->out, o->loadgen.clients, err, size))
		return false;
	struct loadgen_run run = {.program = b->loadgen_path,
	                          .queries = o->queries[0] ? o->queries : "QUERIES",
	                          .schedule = a->schedule[0] ? a->schedule : "SCHEDULE",
	                          .dir = a->out,
	                          .targets = (const char *const *)b->targets,
	                          .target_count = b->n_rows,
	                          .upstream_pid = "PID"};
	if (!(b->loadgen = loadgen_command_make(&o->loadgen, &run)))
		snprintf(err, size, "the generator's command could not be made");
	return b->loadgen != NULL;
}

/* The built processes as a supervise plan: the hierarchy, each build or env row, the generator
 * (its exit ends the run), and the measured run's length; false with why in err. */
static bool dry_run_plan(struct supervise_plan *plan, const struct dry_run_build *b,
                         const struct dry_run_args *a, double run_s, char *err, size_t size)
{
	supervise_plan_init(plan);
	plan->duration_s = run_s;
	if (!supervise_plan_add(plan, "_upstream", "logs/upstream.log", a->cpus_harness,
	                        DRY_CTL "/upstream.ready", false, b->hierarchy.argv, a->out, err,
	                        size))
		return false;
	if (b->place) /* it places the rows and runs the collector and the generator from T0 */
		return supervise_plan_add(plan, "_place", "logs/place.log", a->cpus_harness, NULL,
		                          true, b->place, a->out, err, size);
	for (size_t i = 0; i < b->n_rows; i++) {
		const struct row_launch *l = &b->rows[i];
		char log[PATH_MAX];
		if (!l->argv) /* a daemon row's */
			continue;
		snprintf(log, sizeof(log), "logs/%s.log", b->names[i]);
		if (!supervise_plan_add(plan, b->names[i], log, a->cpus_resolvers, l->ready, false,
		                        l->argv, a->out, err, size))
			return false;
	}
	return supervise_plan_add(plan, "_loadgen", "logs/loadgen.log", a->cpus_harness, NULL, true,
	                          b->loadgen, a->out, err, size);
}

static void dry_run_build_free(struct dry_run_build *b)
{
	for (size_t i = 0; b->rows && i < b->n_rows; i++)
		row_launch_free(&b->rows[i]);
	free(b->rows);
	variant_words_free(b->names);
	variant_words_free(b->targets);
	variant_words_free(b->loadgen);
	variant_words_free(b->place);
	hierarchy_command_free(&b->hierarchy);
	row_settings_free(&b->settings);
	variant_words_free(b->settings_words);
}

/* The expected seconds, and those of the measured run (without its calibration); false with why
 * in err. */
static bool expected_read(const struct dry_run_args *a, unsigned long long *all, double *run_s,
                          char *err, size_t size)
{
	unsigned long long calibration = 0;
	*all = 0;
	*run_s = 0;
	if (!a->expected_s)
		return true;
	if (!cli_parse_count("--expected-s", a->expected_s, 0, ~0ULL, all, err, size) ||
	    !cli_parse_count("--calibration-s", a->calibration_s, 0, *all, &calibration, err, size))
		return false;
	*run_s = (double)(*all - calibration);
	return true;
}

int dry_run_main(int argc, char **argv)
{
	struct dry_run_args a;
	int rc = dry_run_parse(&a, argc, argv);
	if (rc >= 0) {
		return rc;
	}
	char err[8192];
	json_error_t jerr;
	json_t *options = json_loads(a.options, 0, &jerr);
	struct dry_run_options o;
	struct dry_run_build b = {0};
	unsigned long long expected_s;
	double run_s;
	rc = CLI_EXIT_USAGE;
	if (!options)
		snprintf(err, sizeof(err), "--options: %s", jerr.text);
	else if (dry_run_options_read(&o, options, a.given, err, sizeof(err)) &&
	         expected_read(&a, &expected_s, &run_s, err, sizeof(err)) &&
	         dry_run_preset(&a, options, err, sizeof(err)) &&
	         dry_run_settings(&b, &a, options, &o, err, sizeof(err)) &&
	         print_header(&a, &o, b.settings.rows, expected_s, err, sizeof(err))) {
		/* 32 processes of 4 kB paths: not on the stack */
		static struct supervise_plan plan;
		rc = CLI_EXIT_FAILED;
		if (dry_run_build(&b, &a, &o, err, sizeof(err))) {
			/* a plan supervise would refuse: its status for a refused plan */
			rc = CLI_EXIT_USAGE;
			if (dry_run_plan(&plan, &b, &a, run_s, err, sizeof(err))) {
				printf("run folder %s\n", a.out);
				supervise_plan_print(&plan, stdout);
				rc = CLI_EXIT_OK;
			}
		}
		supervise_plan_free(&plan);
	}
	if (rc != CLI_EXIT_OK) {
		fflush(stdout); /* the plan's lines so far, then why it stops */
		fprintf(stderr, "allocspike-run dry-run: %s\n", err);
	}
	dry_run_build_free(&b);
	json_decref(options);
	return rc;
}
