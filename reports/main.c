/* reports/main.c - allocspike-report: report of a run, comparison of runs, regression gate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "advisor.h"
#include "agent_reads.h"
#include "allocators/allocator.h"
#include "analysis.h"
#include "atomic_write_file.h"
#include "advisor_page.h"
#include "baseline_diff.h"
#include "baseline_diff_text.h"
#include "charts.h"
#include "cli_parse.h"
#include "close_stdout.h"
#include "gate.h"
#include "html.h"
#include "json_file.h"
#include "junit.h"
#include "markdown.h"
#include "merge.h"
#include "parent_death.h"
#include "passes.h"
#include "run_set.h"
#include "runfolder_reader.h"
#include "scale.h"
#include "terminal_text.h"

enum { EXIT_GATE_FAILED = 1, EXIT_WRITE_FAILED = 1, EXIT_BAD_INPUT = 2 };

static void usage(FILE *f)
{
	fputs(
	    "usage: allocspike-report RUN_DIR\n"
	    "         writes RUN_DIR/summary.json and RUN_DIR/report.html, prints the report's "
	    "path\n"
	    "       allocspike-report compare [--baseline OLD] RUN_DIR... [--out FILE]\n"
	    "         one page setting the runs side by side, FILE (default compare.html), and\n"
	    "         beside it compare.md and compare.json: each headline figure in the\n"
	    "         baseline (OLD, else the first run) and in each other run, the difference,\n"
	    "         \"no change\" inside the run-to-run spread; the differences also on stderr.\n"
	    "         A folder of repeats (--repeat: DIR/run-N) is one run with their spread\n"
	    "       allocspike-report check RUN_DIR --fail-if EXPR [--fail-if EXPR]...\n"
	    "                 [--baseline OLD] [--junit FILE] [--allow-missing]\n"
	    "         prints each EXPR with the figures it read and PASS or FAIL; exits 1 if any\n"
	    "         holds, or reads a figure that is n/a (unless --allow-missing), 0 if none\n"
	    "         does; baseline.NAME reads NAME of OLD; --junit writes JUnit XML. The\n"
	    "         figures are computed from the run (run.json, timeline.csv, ...), never read\n"
	    "         from its summary.json\n"
	    "       allocspike-report check RUN_DIR RUN_DIR... --fail-if EXPR...\n"
	    "         the same over the advice of several runs (or a folder of repeats), as\n"
	    "         advise computes it\n"
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
	    "       allocspike-report calibration RUN_DIR --multiple M --extensions N\n"
	    "         the calibration ramps' decision: capacities, slowest, spike rate, ramp "
	    "again\n"
	    "       allocspike-report cpu RUN_DIR\n"
	    "         a cpu.sh run's cost per allocator: RUN_DIR/cpu.json and cpu.md\n"
	    "       allocspike-report footprint RUN_DIR\n"
	    "         the request footprint of a footprint run: RUN_DIR/footprint.json and .md\n"
	    "       allocspike-report event [--t-s S] [--unix-s S] VARIANT EVENT "
	    "[KEY=TEXT|KEY:=JSON]...\n"
	    "         prints one events.jsonl line\n"
	    "       allocspike-report merge --out RUN FRAGMENT...\n"
	    "         one run folder from the fragments of sharded generators (loadgen --shard\n"
	    "         I/N --out): counts summed, quantiles from the added histograms\n"
	    "       allocspike-report allocators\n"
	    "         the allocator registry as a table (tab-separated, a header line): name,\n"
	    "         alias, colour, cpu_objects, cpu_files, cpu_functions\n"
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
	agent_reads_warn(rf, stderr);
	*summary = passes_run(rf);
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
 * and an old name its new one. Returns the folders (*n of them, maybe none; caller frees), or NULL
 * after saying what is wrong. */
static const char **parse_runs(const char *cmd, int argc, char **argv, const char *const *names,
                               const char **values, size_t *n)
{
	const char **dirs = calloc((size_t)argc + 1, sizeof(*dirs));
	*n = 0;
	for (int i = 0; i < argc; i++) {
		const char *name = strcmp(argv[i], "-o") == 0 ? "--out" : option_new_name(argv[i]);
		if (name != argv[i] && strcmp(argv[i], "-o") != 0)
			fprintf(stderr,
			        "allocspike-report: warning: %s is now %s; the old name goes in "
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
	return dirs;
}

/* The comparison with a baseline beside the page (compare.json, compare.md: the page's name with
 * those extensions), and its sentence and lines on stderr. 0, or EXIT_WRITE_FAILED. */
static int compare_diff_write(const char *page, const json_t *diff)
{
	char *md = baseline_diff_markdown(diff);
	char path[4096], err[1024];
	int rc = 0;
	file_path_beside(page, ".json", path, sizeof(path));
	if (!json_file_write_atomic(path, diff, err, sizeof(err))) {
		say(NULL, err);
		rc = EXIT_WRITE_FAILED;
	}
	file_path_beside(page, ".md", path, sizeof(path));
	if (!write_text(path, md))
		rc = EXIT_WRITE_FAILED;
	baseline_diff_print(diff, stderr);
	free(md);
	return rc;
}

static int cmd_compare(int argc, char **argv)
{
	static const char *const options[] = {"--out", "--baseline", NULL};
	const char *values[2] = {"compare.html", NULL};
	size_t n;
	const char **paths = parse_runs("compare", argc, argv, options, values, &n);
	if (!paths)
		return EXIT_BAD_INPUT;
	const char *out = values[0], *baseline = values[1];
	if (n < (baseline ? 1u : 2u)) {
		fprintf(stderr, "allocspike-report compare: %s\n",
		        baseline ? "no run to set against the baseline: give the new runs after "
		                   "--baseline OLD"
		                 : "two or more run folders are needed (one run: allocspike-report "
		                   "RUN_DIR; against a baseline: compare --baseline OLD NEW)");
		free(paths);
		return EXIT_BAD_INPUT;
	}
	/* The sides: the baseline (--baseline, else the first run), then each other path; a folder
	 * of repeats is one side of several runs. The page shows every run of every side. */
	size_t n_sides = baseline ? n + 1 : n, total = 0;
	struct run_set *sets = calloc(n_sides, sizeof(*sets));
	struct diff_side *sides = calloc(n_sides, sizeof(*sides));
	for (size_t k = 0; k < n_sides; k++) {
		sides[k].label = baseline ? (k ? paths[k - 1] : baseline) : paths[k];
		run_set_expand(sides[k].label, &sets[k]);
		total += sets[k].n;
	}
	const char **dirs = calloc(total, sizeof(*dirs));
	struct runfolder *rfs = calloc(total, sizeof(*rfs));
	json_t **summaries = calloc(total, sizeof(*summaries));
	const json_t **run_jsons = calloc(total, sizeof(*run_jsons));
	for (size_t k = 0, r = 0; k < n_sides; k++) {
		sides[k].dirs = (const char *const *)&dirs[r];
		sides[k].summaries = (const json_t *const *)&summaries[r];
		sides[k].n = sets[k].n;
		for (size_t i = 0; i < sets[k].n; i++)
			dirs[r++] = sets[k].dirs[i];
	}
	int rc = EXIT_BAD_INPUT;
	size_t loaded = 0;
	for (; loaded < total; loaded++) {
		if (!run_load(dirs[loaded], &rfs[loaded], &summaries[loaded])) {
			if (baseline && loaded < sets[0].n)
				say("compare", "the baseline (--baseline) cannot be read");
			break;
		}
		run_jsons[loaded] = rfs[loaded].run;
	}
	if (loaded == total) {
		rc = EXIT_WRITE_FAILED;
		json_t *names = union_variants(summaries, total);
		size_t n_charts;
		char err[1024] = "";
		struct chart *charts = charts_for_compare(rfs, (const json_t *const *)summaries,
		                                          total, names, &n_charts);
		bool drawn = charts_render(charts, n_charts, err, sizeof(err));
		if (!drawn)
			say_no_charts(err);
		json_t *diff = baseline_diff_build(&sides[0], sides + 1, n_sides - 1, names);
		char *page = html_compare_page(dirs, run_jsons, (const json_t *const *)summaries,
		                               total, names, json_object_get(diff, "baseline"),
		                               charts, n_charts, drawn ? NULL : err);
		bool page_ok = write_text(out, page);
		if (compare_diff_write(out, diff) == 0 && page_ok) {
			print_line(out);
			rc = 0;
		}
		json_decref(diff);
		free(page);
		charts_free(charts, n_charts);
		free(charts);
		json_decref(names);
	}
	for (size_t i = 0; i < loaded; i++) {
		json_decref(summaries[i]);
		runfolder_free(&rfs[i]);
	}
	for (size_t k = 0; k < n_sides; k++)
		run_set_free(&sets[k]);
	free(sets);
	free(sides);
	free(rfs);
	free(summaries);
	free(run_jsons);
	free(dirs);
	free(paths);
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
	if (n == 0) {
		usage(stderr);
		free(dirs);
		return EXIT_BAD_INPUT;
	}
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
 * computed from the run folders; a folder of repeats stands for its runs. NULL after saying what
 * could not be read. */
static json_t *check_figures(const char *const *paths, size_t n_paths)
{
	struct run_set all = {0};
	for (size_t i = 0; i < n_paths; i++) {
		struct run_set one;
		run_set_expand(paths[i], &one);
		char **dirs = realloc(all.dirs, (all.n + one.n) * sizeof(*dirs));
		if (!dirs)
			abort();
		all.dirs = dirs;
		memcpy(all.dirs + all.n, one.dirs, one.n * sizeof(*dirs));
		all.n += one.n;
		free(one.dirs); /* its names now belong to all */
	}
	json_t *figures = NULL;
	if (all.n > 1) {
		const struct advisor_options opt = {.margin_mb = 1, .margin_share = 0.10};
		figures = advice_compute((const char *const *)all.dirs, all.n, &opt);
	} else {
		struct runfolder rf;
		if (run_load(all.dirs[0], &rf, &figures)) {
			if (strcmp(rf.status, "completed") != 0) {
				fputs("allocspike-report check: note: the run's status is \"",
				      stderr);
				terminal_text_fputs(rf.status, stderr);
				fputs("\"\n", stderr);
			}
			runfolder_free(&rf);
		}
	}
	run_set_free(&all);
	return figures;
}

/* Prints one condition as k6 prints a threshold: a mark, PASS or FAIL, the condition and the
 * figures it read per variant; under a failure why. */
static void check_print(const char *expr, const struct gate_outcome *o)
{
	static const char *const marks[] = {"\u2717 ERROR ", "\u2713 PASS  ", "\u2717 FAIL  "};
	fputs(marks[o->result + 1], stdout);
	terminal_text_fputs(expr, stdout);
	if (o->values && *o->values)
		printf("  |  %s", o->values); /* escaped by gate */
	if (o->undecided)
		fputs("  (n/a for every variant: not decided, --allow-missing)", stdout);
	putchar('\n');
	if (o->result == GATE_TRUE)
		fputs(o->why, stdout); /* escaped by gate */
}

/* --junit FILE: one testcase per condition. 0, or EXIT_WRITE_FAILED after saying why. */
static int check_junit_write(const char *path, const char *const *exprs,
                             const struct gate_outcome *outcomes, size_t n)
{
	struct junit_case *cases = calloc(n ? n : 1, sizeof(*cases));
	struct strbuf *names = calloc(n ? n : 1, sizeof(*names));
	if (!cases || !names)
		abort();
	for (size_t i = 0; i < n; i++) {
		const struct gate_outcome *o = &outcomes[i];
		terminal_text_append(&names[i], exprs[i]);
		cases[i] = (struct junit_case){
		    .name = names[i].s,
		    .values = o->values,
		    .failure = o->result == GATE_TRUE ? o->why : NULL,
		    .error = o->result == GATE_ERROR ? o->err : NULL,
		    .skipped = o->undecided ? "n/a for every variant (--allow-missing)" : NULL};
	}
	char *xml = junit_xml("allocspike-report check", "allocspike.check", cases, n);
	int rc = write_text(path, xml) ? 0 : EXIT_WRITE_FAILED;
	free(xml);
	for (size_t i = 0; i < n; i++)
		strbuf_free(&names[i]);
	free(names);
	free(cases);
	return rc;
}

static int cmd_check(int argc, char **argv)
{
	const char **dirs = calloc((size_t)argc + 1, sizeof(*dirs));
	const char **exprs = calloc((size_t)argc + 1, sizeof(*exprs));
	size_t n = 0, n_dirs = 0;
	bool list = false;
	struct gate_options opt = {0};
	const char *baseline_dir = NULL, *junit = NULL;
	json_t *summary = NULL, *baseline = NULL;
	struct gate_outcome *outcomes = NULL;
	int rc = EXIT_BAD_INPUT;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--list") == 0) {
			list = true;
		} else if (strcmp(a, "--allow-missing") == 0) {
			opt.allow_missing = true;
		} else if (strncmp(a, "--fail-if=", 10) == 0) {
			exprs[n++] = a + 10;
		} else if (strcmp(a, "--fail-if") == 0 || strcmp(a, "--baseline") == 0 ||
		           strcmp(a, "--junit") == 0) {
			const char **slot = strcmp(a, "--fail-if") == 0    ? &exprs[n++]
			                    : strcmp(a, "--baseline") == 0 ? &baseline_dir
			                                                   : &junit;
			if (*slot) {
				fprintf(stderr, "allocspike-report check: %s is given twice\n", a);
				goto done;
			}
			if (++i >= argc) {
				fprintf(stderr, "allocspike-report check: %s needs a value\n", a);
				goto done;
			}
			*slot = argv[i];
		} else if (a[0] != '-') {
			dirs[n_dirs++] = a;
		} else {
			fputs("allocspike-report check: unexpected argument \"", stderr);
			terminal_text_fputs(a, stderr);
			fputs("\"\n", stderr);
			goto done;
		}
	}
	if (n_dirs == 0 || (n == 0) == !list || (list && (baseline_dir || junit))) {
		/* one line saying what is wrong and the command's own forms, not the whole usage */
		fprintf(
		    stderr,
		    "allocspike-report check: %s\n"
		    "usage: allocspike-report check RUN_DIR... --fail-if EXPR [--fail-if EXPR]... "
		    "[--baseline OLD] [--junit FILE] [--allow-missing]\n"
		    "       allocspike-report check RUN_DIR --list\n",
		    n_dirs == 0 ? "no run folder given"
		    : list && n ? "--list takes no --fail-if: give one or the other"
		    : list      ? "--list takes no --baseline or --junit"
		                : "give --fail-if EXPR, or --list");
		goto done;
	}
	summary = check_figures(dirs, n_dirs);
	if (!summary)
		goto done;
	if (baseline_dir) {
		opt.baseline = baseline = check_figures(&baseline_dir, 1);
		if (!baseline) {
			say("check", "the baseline (--baseline) cannot be read");
			goto done;
		}
	}
	rc = 0;
	if (list)
		gate_list(summary, stdout);
	outcomes = calloc(n ? n : 1, sizeof(*outcomes));
	if (!outcomes)
		abort();
	for (size_t i = 0; i < n; i++) {
		enum gate_result r = gate_eval(summary, exprs[i], &opt, &outcomes[i]);
		check_print(exprs[i], &outcomes[i]);
		if (r == GATE_ERROR) {
			/* escaped by gate */
			fprintf(stderr, "allocspike-report check: %s\n", outcomes[i].err);
			rc = EXIT_BAD_INPUT;
		} else if (r == GATE_TRUE && rc == 0) {
			rc = EXIT_GATE_FAILED;
		}
	}
	if (junit && check_junit_write(junit, exprs, outcomes, n) != 0 && rc == 0)
		rc = EXIT_WRITE_FAILED;
	for (size_t i = 0; i < n; i++)
		gate_outcome_free(&outcomes[i]);
done:
	free(outcomes);
	json_decref(summary);
	json_decref(baseline);
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
	if (strcmp(argv[1], "merge") == 0)
		return merge_main(argc - 2, argv + 2);
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
	if (strcmp(argv[1], "footprint") == 0)
		return analysis_cmd_footprint(argc - 2, argv + 2);
	if (strcmp(argv[1], "calibration") == 0)
		return analysis_cmd_calibration(argc - 2, argv + 2);
	if (strcmp(argv[1], "cpu") == 0)
		return analysis_cmd_cpu(argc - 2, argv + 2);
	if (strcmp(argv[1], "allocators") == 0 && argc == 2) {
		allocator_table_write(stdout);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	return cmd_report(argv[1]);
}
