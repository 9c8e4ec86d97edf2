/* reports/analysis_cli.c - the analysis subcommands of allocspike-report (knee, harness, warmup,
 * event): arguments in, one JSON document or line out. */
#include "analysis.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event_line.h"
#include "terminal_text.h"

/* As every subcommand (allocspike-report --help): 1 the output could not be written, 2 bad usage
 * or a run folder that cannot be read. */
enum { EXIT_WRITE_FAILED = 1, EXIT_USAGE = 2, EXIT_RUN_UNREADABLE = 2 };

static int usage_error(const char *cmd, const char *usage, const char *why, const char *arg)
{
	if (why)
		fprintf(stderr, "allocspike-report %s: %s%s%s%s\n", cmd, why, arg ? " \"" : "",
		        arg ? arg : "", arg ? "\"" : "");
	fprintf(stderr, "usage: allocspike-report %s %s\n", cmd, usage);
	return EXIT_USAGE;
}

/* The usage error of a subcommand that takes one RUN_DIR and nothing else. */
static int usage_one_run_dir(const char *cmd, int argc, char **argv)
{
	return usage_error(cmd, "RUN_DIR", argc ? "unexpected argument" : NULL,
	                   argc > 1 ? argv[1]
	                   : argc   ? argv[0]
	                            : NULL);
}

/* A run folder that cannot be read: its message (which may quote the folder's bytes, so escaped).
 */
static int unreadable(const char *err)
{
	fputs("allocspike-report: ", stderr);
	terminal_text_fputs(err, stderr);
	fputc('\n', stderr);
	return EXIT_RUN_UNREADABLE;
}

static bool parse_number(const char *text, double *out)
{
	char *end;
	*out = strtod(text, &end);
	return end != text && *end == '\0' && isfinite(*out);
}

static int print_json(json_t *value)
{
	if (!value) {
		fprintf(stderr, "allocspike-report: out of memory\n");
		return EXIT_WRITE_FAILED;
	}
	char *text =
	    json_dumps(value, JSON_INDENT(2) | JSON_PRESERVE_ORDER | ANALYSIS_REAL_PRECISION);
	json_decref(value);
	if (!text || puts(text) < 0 || fflush(stdout) != 0) {
		free(text);
		return EXIT_WRITE_FAILED;
	}
	free(text);
	return 0;
}

/* The one-folder subcommands: read DIR's timeline (the calibration pass has no run.json), run fn.
 */
static int on_timeline(const char *dir, json_t *(*fn)(const struct runfolder *, double), double arg)
{
	struct runfolder rf;
	char err[1024];
	if (!runfolder_read_timeline(dir, &rf, err, sizeof(err)))
		return unreadable(err);
	int rc = print_json(fn(&rf, arg));
	runfolder_free(&rf);
	return rc;
}

static json_t *knee(const struct runfolder *rf, double unused)
{
	(void)unused;
	return analysis_knee(rf);
}

static json_t *harness(const struct runfolder *rf, double unused)
{
	(void)unused;
	return analysis_harness(rf);
}

int analysis_cmd_knee(int argc, char **argv)
{
	if (argc != 1 || argv[0][0] == '-')
		return usage_one_run_dir("knee", argc, argv);
	return on_timeline(argv[0], knee, 0);
}

int analysis_cmd_harness(int argc, char **argv)
{
	if (argc != 1 || argv[0][0] == '-')
		return usage_one_run_dir("harness", argc, argv);
	return on_timeline(argv[0], harness, 0);
}

int analysis_cmd_warmup(int argc, char **argv)
{
	static const char usage[] = "RUN_DIR --cap-bytes N";
	double cap;
	if (argc != 3 || strcmp(argv[1], "--cap-bytes") != 0 || argv[0][0] == '-')
		return usage_error("warmup", usage, NULL, NULL);
	if (!parse_number(argv[2], &cap) || cap <= 0)
		return usage_error("warmup", usage, "--cap-bytes wants a number > 0, got", argv[2]);
	return on_timeline(argv[0], analysis_warmup, cap);
}

int analysis_cmd_event(int argc, char **argv)
{
	static const char usage[] =
	    "[--t-s S] [--unix-s S] VARIANT EVENT [KEY=TEXT | KEY:=JSON]...";
	double t_s = NAN, unix_s = NAN;
	int i = 0;
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		double *out = strcmp(argv[i], "--t-s") == 0      ? &t_s
		              : strcmp(argv[i], "--unix-s") == 0 ? &unix_s
		                                                 : NULL;
		if (!out)
			return usage_error("event", usage, "unknown option", argv[i]);
		if (!parse_number(argv[i + 1], out))
			return usage_error("event", usage, "not a number:", argv[i + 1]);
	}
	if (argc - i < 2)
		return usage_error("event", usage, NULL, NULL);
	const char *variant = argv[i], *event = argv[i + 1];
	if (!event_line_names_valid(variant, event))
		return usage_error("event", usage, "VARIANT and EVENT must be UTF-8", NULL);
	const char *why, *bad;
	json_t *fields = event_line_fields(argv + i + 2, argc - i - 2, &why, &bad);
	if (!fields)
		return usage_error("event", usage, why, bad);
	char *text = event_line_text(t_s, variant, event, fields, unix_s);
	json_decref(fields);
	/* One line in one write: the scenario appends it to a file the generator appends to too. */
	int rc = text && printf("%s\n", text) > 0 && fflush(stdout) == 0 ? 0 : EXIT_WRITE_FAILED;
	free(text);
	return rc;
}

/* footprint RUN_DIR: RUN_DIR/footprint.json and footprint.md (scenarios/footprint.sh). The polls'
 * clock: RUN_DIR/sizes/origin_unix_s, the wall-clock second of t = 0; without it, no polls. */
int analysis_cmd_footprint(int argc, char **argv)
{
	if (argc != 1 || argv[0][0] == '-')
		return usage_one_run_dir("footprint", argc, argv);
	struct runfolder rf;
	char err[1024];
	if (!runfolder_read_timeline(argv[0], &rf, err, sizeof(err)))
		return unreadable(err);
	char path[4096];
	snprintf(path, sizeof(path), "%s/sizes/origin_unix_s", argv[0]);
	double origin = NAN;
	FILE *f = fopen(path, "r");
	bool has_origin = f && fscanf(f, "%lf", &origin) == 1 && isfinite(origin);
	if (f)
		fclose(f);
	json_t *result = analysis_footprint(&rf, argv[0], origin, has_origin);
	runfolder_free(&rf);
	bool ok = result && analysis_footprint_write(argv[0], result, err, sizeof(err));
	if (!ok)
		fprintf(stderr, "allocspike-report footprint: %s\n",
		        result ? err : "out of memory");
	json_decref(result);
	return ok ? 0 : EXIT_WRITE_FAILED;
}

/* calibration RUN_DIR --multiple M --extensions N: the decision after the passes so far. */
int analysis_cmd_calibration(int argc, char **argv)
{
	static const char usage[] = "RUN_DIR --multiple M --extensions N";
	double multiple = NAN, extensions = NAN;
	for (int i = 1; i + 1 < argc; i += 2) {
		double *into = strcmp(argv[i], "--multiple") == 0     ? &multiple
		               : strcmp(argv[i], "--extensions") == 0 ? &extensions
		                                                      : NULL;
		if (!into)
			return usage_error("calibration", usage, "unknown option", argv[i]);
		if (!parse_number(argv[i + 1], into))
			return usage_error("calibration", usage, "not a number:", argv[i + 1]);
	}
	if (argc != 5 || argv[0][0] == '-' || !(multiple > 0) ||
	    !(extensions >= 0 && extensions <= 16 && extensions == floor(extensions)))
		return usage_error(
		    "calibration", usage,
		    argc == 5 ? "--multiple > 0 and --extensions 0..16 wanted" : NULL, NULL);
	char err[1024];
	json_t *decision =
	    analysis_calibration(argv[0], multiple, (int)extensions, err, sizeof(err));
	if (!decision)
		return unreadable(err);
	return print_json(decision);
}

/* cpu RUN_DIR: RUN_DIR/cpu.json and cpu.md from a cpu.sh run's passes; prints cpu.md. */
int analysis_cmd_cpu(int argc, char **argv)
{
	if (argc != 1 || argv[0][0] == '-')
		return usage_one_run_dir("cpu", argc, argv);
	struct runfolder rf;
	char err[1024];
	if (!runfolder_read_run(argv[0], &rf, err, sizeof(err)))
		return unreadable(err);
	json_t *cpu = analysis_cpu(argv[0], json_object_get(rf.run, "variants"), err, sizeof(err));
	const char *schedule =
	    json_string_value(json_object_get(json_object_get(rf.run, "parameters"), "schedule"));
	char path[4096];
	snprintf(path, sizeof(path), "%s/cpu.json", argv[0]);
	bool ok = cpu && json_dump_file(cpu, path,
	                                JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	                                    JSON_REAL_PRECISION(15)) == 0;
	snprintf(path, sizeof(path), "%s/cpu.md", argv[0]);
	FILE *md = ok ? fopen(path, "w") : NULL;
	ok = md && analysis_cpu_markdown(md, cpu, rf.status, schedule ? schedule : "-");
	ok = (!md || fclose(md) == 0) && ok;
	if (!ok)
		fprintf(stderr, "allocspike-report cpu: %s\n",
		        cpu ? "cannot write cpu.json or cpu.md" : err);
	json_decref(cpu);
	runfolder_free(&rf);
	return ok ? 0 : EXIT_WRITE_FAILED;
}
