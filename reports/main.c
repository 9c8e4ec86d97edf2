/* reports/main.c - allocspike-report: report of a run, comparison of runs, regression gate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "advisor.h"
#include "analysis.h"
#include "atomic_write_file.h"
#include "advisor_page.h"
#include "charts.h"
#include "cli_parse.h"
#include "close_stdout.h"
#include "findings.h"
#include "gate.h"
#include "html.h"
#include "json_file.h"
#include "markdown.h"
#include "parent_death.h"
#include "runfolder_reader.h"
#include "scale.h"
#include "summary.h"
#include "terminal_text.h"

enum { EXIT_GATE_FAILED = 1, EXIT_WRITE_FAILED = 1, EXIT_BAD_INPUT = 2 };

static void usage(FILE *f)
{
	fputs("usage: allocspike-report RUN_DIR\n"
	      "         writes RUN_DIR/summary.json and RUN_DIR/report.html, prints the report's "
	      "path\n"
	      "       allocspike-report compare RUN_DIR RUN_DIR... --out FILE\n"
	      "         one page setting two or more runs side by side, written to FILE\n"
	      "       allocspike-report check RUN_DIR --fail-if EXPR [--fail-if EXPR]...\n"
	      "         exits 1 naming the figures if any EXPR holds, 0 if none does; the figures\n"
	      "         are computed from the run (run.json, timeline.csv, ...), never read from\n"
	      "         its summary.json\n"
	      "       allocspike-report check RUN_DIR RUN_DIR... --fail-if EXPR...\n"
	      "         the same over the advice of several runs, as advise computes it\n"
	      "       allocspike-report check RUN_DIR --list\n"
	      "         every figure an EXPR can test\n"
	      "       allocspike-report advise RUN_DIR... [--out DIR] [--margin-mb X] "
	      "[--margin-share X]\n"
	      "         the tuning advisor over runs of the same settings: DIR/advice.json and\n"
	      "         DIR/advisor.html (default DIR: .), prints the page's path; each run's\n"
	      "         figures are computed from the run folder\n"
	      "       allocspike-report scale RUN_DIR RUN_DIR... [--out FILE]\n"
	      "         held memory against requests in flight over runs of several spike heights:\n"
	      "         FILE (default scale.html) and scale.json beside it, prints the page's path\n"
	      "       allocspike-report knee|harness RUN_DIR, warmup RUN_DIR --cap-bytes N\n"
	      "         the calibration's capacity knee, the harness's CPU windows, the warm-up\n"
	      "         check, as JSON on stdout\n"
	      "       allocspike-report event [--t-s S] [--unix-s S] VARIANT EVENT [KEY=TEXT|KEY:=JSON]...\n"
	      "         prints one events.jsonl line\n"
	      "-o is short for --out. Figures and the EXPR syntax: docs/check.md; exit statuses:\n"
	      "0 done, 1 a condition holds (check) or writing failed, 2 usage or unreadable input\n",
	      f);
}

/* "allocspike-report[ CMD]: MESSAGE" on stderr, the message escaped for a terminal: it may carry
 * what a run folder holds (names, paths, a line of a file). */
static void say(const char *cmd, const char *message)
{
	fprintf(stderr, "allocspike-report%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	terminal_text_fputs(message, stderr);
	fputc('\n', stderr);
}

/* The charts could not be drawn (why: err): the page goes without them. */
static void say_no_charts(const char *err)
{
	fputs("allocspike-report: warning: ", stderr);
	terminal_text_fputs(err, stderr);
	fputs("; the page has no charts\n", stderr);
}

/* A path or name on stdout, escaped, one a line. */
static void print_line(const char *text)
{
	terminal_text_fputs(text, stdout);
	putchar('\n');
}

static bool write_text(const char *path, const char *text)
{
	char err[1024];
	bool ok = atomic_write_file(path, text, strlen(text), err, sizeof(err));
	if (!ok)
		say(NULL, err);
	return ok;
}

static bool run_load(const char *dir, struct runfolder *rf, json_t **summary)
{
	char err[1024];
	if (!runfolder_read(dir, rf, err, sizeof(err))) {
		say(NULL, err);
		return false;
	}
	*summary = summary_build(rf);
	json_object_set_new(*summary, "findings", findings_build(*summary));
	return true;
}

/* Writes the report's files of a loaded run into dir: charts/, summary.json, report.html,
 * summary.md. 0, or EXIT_WRITE_FAILED when any could not be written (each named on stderr). */
static int report_write(const char *dir, const struct runfolder *rf, json_t *summary,
                        struct chart *charts, size_t n_charts)
{
	char err[1024] = "", path[4096];
	snprintf(path, sizeof(path), "%s/charts", dir);
	int charts_fd = charts_files_dir_open(path, err, sizeof(err));
	if (charts_fd < 0) {
		say(NULL, err);
		return EXIT_WRITE_FAILED;
	}
	bool files_ok;
	bool drawn =
	    charts_render_files(charts, n_charts, charts_fd, path, &files_ok, err, sizeof(err));
	close(charts_fd);
	if (!drawn)
		say_no_charts(err);
	int rc = files_ok ? 0 : EXIT_WRITE_FAILED;
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	if (!json_file_write_atomic(path, summary, err, sizeof(err))) {
		say(NULL, err);
		return EXIT_WRITE_FAILED;
	}
	char *page = html_run_page(rf->run, summary, json_object_get(summary, "findings"), charts,
	                           n_charts, drawn ? NULL : err);
	snprintf(path, sizeof(path), "%s/report.html", dir);
	if (write_text(path, page))
		print_line(path);
	else
		rc = EXIT_WRITE_FAILED;
	free(page);
	/* for a merge request: summary.md and each chart as a file of its own */
	char *md = markdown_summary(summary, charts, drawn ? n_charts : 0);
	snprintf(path, sizeof(path), "%s/summary.md", dir);
	if (!write_text(path, md))
		rc = EXIT_WRITE_FAILED;
	free(md);
	return rc;
}

static int cmd_report(const char *dir)
{
	struct runfolder rf;
	json_t *summary;
	if (!run_load(dir, &rf, &summary))
		return EXIT_BAD_INPUT;
	size_t n_charts;
	struct chart *charts = charts_for_run(&rf, summary, &n_charts);
	int rc = report_write(dir, &rf, summary, charts, n_charts);
	charts_free(charts, n_charts);
	free(charts);
	json_decref(summary);
	runfolder_free(&rf);
	return rc;
}

/* Variant names over all runs, in first-seen order. */
static json_t *union_variants(json_t **summaries, size_t n)
{
	json_t *names = json_array();
	for (size_t r = 0; r < n; r++) {
		size_t i, j;
		json_t *name, *seen;
		json_array_foreach(json_object_get(summaries[r], "variant_order"), i, name)
		{
			bool known = false;
			json_array_foreach(names, j, seen) known = known || json_equal(seen, name);
			if (!known)
				json_array_append(names, name);
		}
	}
	return names;
}

/* Old option names of compare and advise, read for one release with a warning. */
static const char *option_new_name(const char *name)
{
	return strcmp(name, "--output") == 0 ? "--out" : name;
}

/* Splits the arguments of compare and advise into run folders and options with a value: names
 * (NULL-terminated) are those options, values[k] receives the value of names[k]; "-o" is "--out"
 * and an old name its new one. Returns the folders (*n of them; caller frees), or NULL after
 * saying what is wrong. */
static const char **parse_runs(const char *cmd, int argc, char **argv, const char *const *names,
                               const char **values, size_t *n)
{
	const char **dirs = calloc((size_t)argc + 1, sizeof(*dirs));
	*n = 0;
	for (int i = 0; i < argc; i++) {
		const char *name = strcmp(argv[i], "-o") == 0 ? "--out" : option_new_name(argv[i]);
		if (name != argv[i] && strcmp(argv[i], "-o") != 0)
			fprintf(stderr, "allocspike-report: warning: %s is now %s; the old name goes in "
			                "the next release\n",
			        argv[i], name);
		size_t k = 0;
		while (names[k] && strcmp(name, names[k]) != 0)
			k++;
		if (names[k] && i + 1 < argc) {
			values[k] = argv[++i];
		} else if (names[k] || argv[i][0] == '-') {
			fprintf(stderr, "allocspike-report %s: %s \"%s\"\n", cmd,
			        names[k] ? "a value is missing after" : "unexpected argument",
			        argv[i]);
			free(dirs);
			return NULL;
		} else {
			dirs[(*n)++] = argv[i];
		}
	}
	if (*n == 0) {
		usage(stderr);
		free(dirs);
		return NULL;
	}
	return dirs;
}

static int cmd_compare(int argc, char **argv)
{
	static const char *const options[] = {"--out", NULL};
	const char *values[1] = {NULL};
	size_t n;
	const char **dirs = parse_runs("compare", argc, argv, options, values, &n);
	if (!dirs)
		return EXIT_BAD_INPUT;
	const char *out = values[0];
	if (n < 2 || !out) {
		fprintf(stderr, "allocspike-report compare: %s\n",
		        n < 2 ? "two or more run folders are needed (one run: allocspike-report "
		                "RUN_DIR)"
		              : "--out FILE is required: where to write the comparison page");
		free(dirs);
		return EXIT_BAD_INPUT;
	}
	struct runfolder *rfs = calloc(n, sizeof(*rfs));
	json_t **summaries = calloc(n, sizeof(*summaries));
	const json_t **run_jsons = calloc(n, sizeof(*run_jsons));
	int rc = EXIT_BAD_INPUT;
	size_t loaded = 0;
	for (; loaded < n; loaded++) {
		if (!run_load(dirs[loaded], &rfs[loaded], &summaries[loaded]))
			break;
		run_jsons[loaded] = rfs[loaded].run;
	}
	if (loaded == n) {
		rc = EXIT_WRITE_FAILED;
		json_t *names = union_variants(summaries, n);
		size_t n_charts;
		char err[1024] = "";
		struct chart *charts =
		    charts_for_compare(rfs, (const json_t *const *)summaries, n, names, &n_charts);
		bool drawn = charts_render(charts, n_charts, err, sizeof(err));
		if (!drawn)
			say_no_charts(err);
		char *page = html_compare_page(dirs, run_jsons, (const json_t *const *)summaries, n,
		                               names, charts, n_charts, drawn ? NULL : err);
		if (write_text(out, page)) {
			print_line(out);
			rc = 0;
		}
		free(page);
		charts_free(charts, n_charts);
		free(charts);
		json_decref(names);
	}
	for (size_t i = 0; i < loaded; i++) {
		json_decref(summaries[i]);
		runfolder_free(&rfs[i]);
	}
	free(rfs);
	free(summaries);
	free(run_jsons);
	free(dirs);
	return rc;
}

/* The advice over the runs in dirs, each run's figures computed from its folder (run.json,
 * timeline.csv, ...) as its report computes them: a summary.json or advice.json in a folder is
 * never read, so editing one changes nothing. NULL after saying which run could not be read. */
static json_t *advice_compute(const char *const *dirs, size_t n, const struct advisor_options *opt)
{
	json_t **summaries = calloc(n, sizeof(*summaries));
	json_t **run_jsons = calloc(n, sizeof(*run_jsons));
	json_t *advice = NULL;
	size_t loaded = 0;
	for (; summaries && run_jsons && loaded < n; loaded++) {
		struct runfolder rf;
		if (!run_load(dirs[loaded], &rf, &summaries[loaded]))
			break;
		run_jsons[loaded] = json_incref(rf.run);
		runfolder_free(&rf);
	}
	if (summaries && run_jsons && loaded == n) {
		json_t *names = union_variants(summaries, n);
		advice = advisor_build(dirs, (const json_t *const *)summaries,
		                       (const json_t *const *)run_jsons, n, names, opt);
		json_decref(names);
	}
	for (size_t i = 0; i < loaded; i++) {
		json_decref(summaries[i]);
		json_decref(run_jsons[i]);
	}
	free(summaries);
	free(run_jsons);
	return advice;
}

static int cmd_advise(int argc, char **argv)
{
	static const char *const options[] = {"--out", "--margin-mb", "--margin-share", NULL};
	const char *values[3] = {".", "1", "0.10"};
	struct advisor_options opt;
	size_t n;
	const char **dirs = parse_runs("advise", argc, argv, options, values, &n);
	if (!dirs)
		return EXIT_BAD_INPUT;
	const char *out = values[0];
	if (!cli_option_number("--margin-mb", values[1], 0, 1e9, &opt.margin_mb) ||
	    !cli_option_number("--margin-share", values[2], 0, 1, &opt.margin_share)) {
		free(dirs);
		return EXIT_BAD_INPUT;
	}
	json_t *advice = advice_compute(dirs, n, &opt);
	free(dirs);
	if (!advice)
		return EXIT_BAD_INPUT;
	int rc = EXIT_WRITE_FAILED;
	char *page = advisor_page(advice);
	char path[4096], err[1024];
	snprintf(path, sizeof(path), "%s/advice.json", out);
	if (!json_file_write_atomic(path, advice, err, sizeof(err))) {
		say(NULL, err);
	} else {
		snprintf(path, sizeof(path), "%s/advisor.html", out);
		if (write_text(path, page)) {
			size_t i;
			json_t *sentence;
			json_array_foreach(json_object_get(advice, "sentences"), i, sentence)
			{
				terminal_text_fputs(json_string_value(sentence), stderr);
				fputc('\n', stderr);
			}
			print_line(path);
			rc = 0;
		}
	}
	free(page);
	json_decref(advice);
	return rc;
}

/* check's figures: one run's summary, or the advice over several runs (default margins), each
 * computed from the run folders. NULL after saying what could not be read. */
static json_t *check_figures(const char *const *dirs, size_t n)
{
	if (n > 1) {
		const struct advisor_options opt = {.margin_mb = 1, .margin_share = 0.10};
		return advice_compute(dirs, n, &opt);
	}
	struct runfolder rf;
	json_t *summary;
	if (!run_load(dirs[0], &rf, &summary))
		return NULL;
	if (strcmp(rf.status, "completed") != 0) {
		fputs("allocspike-report check: note: the run's status is \"", stderr);
		terminal_text_fputs(rf.status, stderr);
		fputs("\"\n", stderr);
	}
	runfolder_free(&rf);
	return summary;
}

static int cmd_check(int argc, char **argv)
{
	const char **dirs = calloc((size_t)argc + 1, sizeof(*dirs));
	const char **exprs = calloc((size_t)argc + 1, sizeof(*exprs));
	size_t n = 0, n_dirs = 0;
	bool list = false;
	int rc = EXIT_BAD_INPUT;
	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--list") == 0) {
			list = true;
		} else if (strcmp(argv[i], "--fail-if") == 0) {
			if (++i >= argc) {
				fprintf(stderr, "allocspike-report check: --fail-if needs an "
				                "expression\n");
				goto done;
			}
			exprs[n++] = argv[i];
		} else if (strncmp(argv[i], "--fail-if=", 10) == 0) {
			exprs[n++] = argv[i] + 10;
		} else if (argv[i][0] != '-') {
			dirs[n_dirs++] = argv[i];
		} else {
			fprintf(stderr, "allocspike-report check: unexpected argument \"%s\"\n",
			        argv[i]);
			goto done;
		}
	}
	if (n_dirs == 0 || (n == 0) == !list) {
		/* one line saying what is wrong and the command's own forms, not the whole usage */
		fprintf(stderr, "allocspike-report check: %s\n"
		                "usage: allocspike-report check RUN_DIR... --fail-if EXPR [--fail-if EXPR]...\n"
		                "       allocspike-report check RUN_DIR --list\n",
		        n_dirs == 0 ? "no run folder given"
		        : list      ? "--list takes no --fail-if: give one or the other"
		                    : "give --fail-if EXPR, or --list");
		goto done;
	}
	json_t *summary = check_figures(dirs, n_dirs);
	if (!summary)
		goto done;
	rc = 0;
	if (list)
		gate_list(summary, stdout);
	for (size_t i = 0; i < n; i++) {
		char err[2048], *why = NULL;
		size_t why_len = 0;
		FILE *mem = open_memstream(&why, &why_len);
		enum gate_result r = gate_eval(summary, exprs[i], mem, err, sizeof(err));
		if (mem)
			fclose(mem);
		if (r == GATE_ERROR) {
			fprintf(stderr, "allocspike-report check: %s\n", err); /* escaped by gate */
			rc = EXIT_BAD_INPUT;
		} else {
			fputs(r == GATE_TRUE ? "FAILED " : "passed ", stdout);
			print_line(exprs[i]);
			if (r == GATE_TRUE) {
				fputs(why ? why : "", stdout); /* escaped by gate */
				if (rc == 0)
					rc = EXIT_GATE_FAILED;
			}
		}
		free(why);
	}
	json_decref(summary);
done:
	free(dirs);
	free(exprs);
	return rc;
}

int main(int argc, char **argv)
{
	close_stdout_at_exit("allocspike-report");
	parent_death_arm("allocspike-report");
	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_BAD_INPUT : 0;
	}
	if (strcmp(argv[1], "compare") == 0)
		return cmd_compare(argc - 2, argv + 2);
	if (strcmp(argv[1], "check") == 0)
		return cmd_check(argc - 2, argv + 2);
	if (strcmp(argv[1], "advise") == 0)
		return cmd_advise(argc - 2, argv + 2);
	if (strcmp(argv[1], "scale") == 0)
		return scale_command(argc - 2, argv + 2);
	if (strcmp(argv[1], "knee") == 0)
		return analysis_cmd_knee(argc - 2, argv + 2);
	if (strcmp(argv[1], "harness") == 0)
		return analysis_cmd_harness(argc - 2, argv + 2);
	if (strcmp(argv[1], "warmup") == 0)
		return analysis_cmd_warmup(argc - 2, argv + 2);
	if (strcmp(argv[1], "event") == 0)
		return analysis_cmd_event(argc - 2, argv + 2);
	if (argc != 2 || argv[1][0] == '-') {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	return cmd_report(argv[1]);
}
