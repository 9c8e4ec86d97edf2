/* controller/conduct_report.c - a conducted run's report (conduct_report.h). */
#include "conduct_report.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_write_file.h"
#include "program_output.h"

#define CONDUCT_REPORT_OUT_MAX (1u << 16) /* the report's stdout: its pages' paths */
#define CONDUCT_LISTING_MAX (64u << 20)   /* a callgrind listing: a few hundred KB in practice */

bool conduct_report_kind_parse(const char *text, enum conduct_report_kind *kind)
{
	static const char *const names[] = {"run", "cpu", "none"};
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (strcmp(text, names[i]) == 0) {
			*kind = (enum conduct_report_kind)i;
			return true;
		}
	return false;
}

/* allocspike-report DIR, its messages in DIR/logs/report.log; the last line it printed (the
 * page's path), else DIR/report.html, printed. */
static bool conduct_report_run(const char *report, const char *dir, const char *scenario)
{
	char log[PATH_MAX + 32], *out = NULL;
	snprintf(log, sizeof(log), "%s/logs/report.log", dir);
	struct program_run how = {.max_out = CONDUCT_REPORT_OUT_MAX, .err_log = log};
	char *argv[] = {(char *)report, (char *)dir, NULL};
	if (program_output(argv, &how, &out) != 0) {
		fprintf(stderr, "%s: allocspike-report failed (see %s)\n", scenario, log);
		free(out);
		return false;
	}
	size_t len = out ? strlen(out) : 0;
	while (len > 0 && out[len - 1] == '\n')
		out[--len] = '\0';
	const char *last = len ? strrchr(out, '\n') : NULL;
	last = last ? last + 1 : (len ? out : NULL);
	if (last)
		printf("%s\n", last);
	else
		printf("%s/report.html\n", dir);
	free(out);
	return true;
}

/* DIR/callgrind/NAME.callgrind.out's exclusive costs per function beside it (NAME.callgrind.txt),
 * the listing allocspike-report cpu reads: nothing is counted twice. */
static void conduct_callgrind_listings(const char *dir, const char *scenario)
{
	char folder[PATH_MAX];
	snprintf(folder, sizeof(folder), "%s/callgrind", dir);
	DIR *d = opendir(folder);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name), suffix = strlen(".callgrind.out");
		if (len <= suffix || strcmp(e->d_name + len - suffix, ".callgrind.out") != 0)
			continue;
		char in[PATH_MAX + 300], txt[PATH_MAX + 300], err[PATH_MAX + 400], *out = NULL;
		snprintf(in, sizeof(in), "%s/%s", folder, e->d_name);
		snprintf(txt, sizeof(txt), "%s/%.*s.txt", folder, (int)(len - 4), e->d_name);
		char *argv[] = {"callgrind_annotate", "--threshold=100", "--auto=no", in, NULL};
		struct program_run how = {.max_out = CONDUCT_LISTING_MAX, .quiet = true};
		if (program_output(argv, &how, &out) != 0 || !out ||
		    !atomic_write_file(txt, out, strlen(out), err, sizeof(err)))
			fprintf(
			    stderr,
			    "%s: callgrind_annotate failed on %s: no instruction counts for it\n",
			    scenario, in);
		free(out);
	}
	if (d)
		closedir(d);
}

/* allocspike-report cpu DIR after the listings; cpu.md said on stderr, its path printed. */
static bool conduct_report_cpu(const char *report, const char *dir, const char *scenario)
{
	conduct_callgrind_listings(dir, scenario);
	struct program_run how = {0};
	char *argv[] = {(char *)report, "cpu", (char *)dir, NULL};
	if (program_output(argv, &how, NULL) != 0) {
		fprintf(stderr, "%s: allocspike-report cpu failed on %s\n", scenario, dir);
		return false;
	}
	char md[PATH_MAX + 16];
	snprintf(md, sizeof(md), "%s/cpu.md", dir);
	FILE *f = fopen(md, "re");
	char line[4096];
	while (f && fgets(line, sizeof(line), f))
		fputs(line, stderr);
	if (f)
		fclose(f);
	printf("%s\n", md);
	return true;
}

bool conduct_report_make(enum conduct_report_kind kind, const char *report, const char *dir,
                         const char *scenario)
{
	if (kind == CONDUCT_REPORT_NONE)
		return false;
	if (!report) {
		fprintf(
		    stderr,
		    "%s: allocspike-report is missing beside allocspike-run: no report made (run "
		    "it later: allocspike-report %s)\n",
		    scenario, dir);
		return false;
	}
	fflush(stdout);
	bool made = kind == CONDUCT_REPORT_CPU ? conduct_report_cpu(report, dir, scenario)
	                                       : conduct_report_run(report, dir, scenario);
	fflush(stdout);
	return made;
}
