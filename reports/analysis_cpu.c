/* reports/analysis_cpu.c - the CPU cost per allocator of a cpu.sh run (allocspike-report cpu):
 * instructions per answer and the share spent in the allocator's own code (callgrind's exclusive
 * costs, as callgrind_annotate prints them), task-clock per answer (perf stat), answers from each
 * pass's timeline. Writes RUN/cpu.json and RUN/cpu.md. */
#include "analysis.h"

#include <math.h>
#include <regex.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "allocators/allocator.h"
#include "strbuf.h"
#include "summary_json.h"

/* The malloc API's names count whichever allocator serves them. */
#define CPU_ALLOC_API                                                                              \
	"malloc|free|calloc|realloc|reallocarray|aligned_alloc|posix_memalign|memalign|valloc|"    \
	"pvalloc|malloc_usable_size|cfree|operator new.*|operator delete.*"

/* What counts as allocator code: a line's shared object, source file or function matched by the
 * registry's patterns (common/allocators/, every allocator's, so any variant is counted alike). */
struct cpu_patterns {
	regex_t objects, files, functions;
};

/* Every adapter's pattern of one kind joined by |, inside prefix and suffix. */
static char *joined(size_t field, const char *first, const char *prefix, const char *suffix)
{
	struct strbuf b = {0};
	strbuf_printf(&b, "%s%s", prefix, first ? first : "");
	for (size_t i = 0; i < allocator_count(); i++) {
		const char *p = *(const char *const *)((const char *)&allocator_at(i)->cpu + field);
		if (p)
			strbuf_printf(&b, "%s%s", b.len > strlen(prefix) ? "|" : "", p);
	}
	strbuf_append(&b, suffix);
	return strbuf_take(&b);
}

static bool patterns_compile(struct cpu_patterns *p, char *err, size_t err_size)
{
	char *objects = joined(offsetof(struct allocator_cpu_symbols, objects), NULL, "", "");
	char *files = joined(offsetof(struct allocator_cpu_symbols, files), NULL, "", "");
	char *functions =
	    joined(offsetof(struct allocator_cpu_symbols, functions), CPU_ALLOC_API, "^(", ")$");
	/* an empty alternative would match every line */
	bool ok = objects && files && functions && objects[0] && files[0] &&
	          regcomp(&p->objects, objects, REG_EXTENDED | REG_NOSUB) == 0;
	ok = ok && (regcomp(&p->files, files, REG_EXTENDED | REG_NOSUB) == 0 ||
	            (regfree(&p->objects), false));
	ok = ok && (regcomp(&p->functions, functions, REG_EXTENDED | REG_NOSUB) == 0 ||
	            (regfree(&p->objects), regfree(&p->files), false));
	if (!ok)
		snprintf(err, err_size, "the allocator registry's CPU patterns do not compile");
	free(objects);
	free(files);
	free(functions);
	return ok;
}

static void patterns_free(struct cpu_patterns *p)
{
	regfree(&p->objects);
	regfree(&p->files);
	regfree(&p->functions);
}

static bool matches(const regex_t *re, const char *text)
{
	return text[0] && regexec(re, text, 0, NULL, 0) == 0;
}

/* A count with thousands separators ("1,234,567") at s; its end in *end. */
static double count_at(const char *s, const char **end)
{
	double n = 0;
	bool any = false;
	for (; (*s >= '0' && *s <= '9') || (*s == ',' && any); s++)
		if (*s != ',') {
			n = n * 10 + (*s - '0');
			any = true;
		}
	*end = s;
	return any ? n : NAN;
}

/* One line of callgrind_annotate's function table: "  COUNT (PCT%)  FILE:FUNCTION [OBJECT]". */
static void cost_line(const struct cpu_patterns *p, char *line, double *alloc)
{
	const char *s = line + strspn(line, " "), *after;
	double n = count_at(s, &after);
	if (isnan(n) || *after != ' ')
		return;
	s = after + strspn(after, " ");
	if (*s == '(') { /* the share column */
		const char *close = strchr(s, ')');
		if (!close)
			return;
		s = close + 1 + strspn(close + 1, " ");
	}
	char *rest = strdup(s), *obj = "";
	size_t len = strlen(rest);
	while (len && (rest[len - 1] == '\n' || rest[len - 1] == '\r'))
		rest[--len] = '\0';
	char *open = strrchr(rest, '[');
	if (len && rest[len - 1] == ']' && open && open > rest && open[-1] == ' ') {
		rest[len - 1] = '\0';
		obj = open + 1;
		open[-1] = '\0';
	}
	char *colon = strchr(rest, ':'), *fn = colon ? colon + 1 : rest + strlen(rest);
	if (colon)
		*colon = '\0';
	char *tick = strrchr(fn, '\''); /* a recursion level: name'2 */
	if (tick && tick[1] && strspn(tick + 1, "0123456789") == strlen(tick + 1))
		*tick = '\0';
	if (matches(&p->objects, obj) || matches(&p->files, rest) || matches(&p->functions, fn))
		*alloc += n;
	free(rest);
}

/* Total and allocator instructions from a callgrind_annotate listing; false when it has no total.
 */
static bool callgrind_costs(const char *path, const struct cpu_patterns *p, double *total,
                            double *alloc)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char *line = NULL;
	size_t cap = 0;
	bool body = false;
	*total = NAN;
	*alloc = 0;
	while (getline(&line, &cap, f) > 0) {
		if (strstr(line, "PROGRAM TOTALS")) {
			const char *end;
			*total = count_at(line + strspn(line, " "), &end);
		} else if (strstr(line, "file:function")) {
			body = true;
		} else if (body) {
			cost_line(p, line, alloc);
		}
	}
	free(line);
	fclose(f);
	return isfinite(*total) && *total > 0;
}

/* perf stat -x , output: the task-clock in milliseconds, NAN without one. */
static double perf_task_clock_ms(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NAN;
	char line[512];
	double ms = NAN;
	while (fgets(line, sizeof(line), f)) {
		char *comma1 = strchr(line, ','), *comma2 = comma1 ? strchr(comma1 + 1, ',') : NULL;
		if (comma2 && strncmp(comma2 + 1, "task-clock", 10) == 0 &&
		    (comma2[11] == ',' || comma2[11] == '\n'))
			ms = strtod(line, NULL);
	}
	fclose(f);
	return ms;
}

/* Answers each variant got back in a pass's timeline (DIR/timeline.csv); none read: an empty
 * object. */
static json_t *answered_per_variant(const char *dir)
{
	json_t *out = json_object();
	struct runfolder rf;
	char err[512];
	if (!runfolder_read_timeline(dir, &rf, err, sizeof(err)))
		return out;
	for (size_t i = 0; i < rf.n_rows; i++) {
		double a = rf.rows[i].v[TIMELINE_COL_answered];
		const char *name = rf.targets[rf.rows[i].target];
		if (!isfinite(a) || runfolder_is_harness(name))
			continue;
		json_object_set_new(out, name,
		                    json_real(a + json_number_value(json_object_get(out, name))));
	}
	runfolder_free(&rf);
	return out;
}

static json_t *callgrind_json(const char *run, const char *name, const struct cpu_patterns *p,
                              double answered)
{
	char path[4096];
	double total, alloc;
	snprintf(path, sizeof(path), "%s/callgrind/%s.callgrind.txt", run, name);
	if (!callgrind_costs(path, p, &total, &alloc))
		return json_null();
	return json_pack("{s:f, s:f, s:f, s:f, s:o}", "instructions", total,
	                 "allocator_instructions", alloc, "allocator_share", alloc / total,
	                 "answered", answered, "instructions_per_answer",
	                 answered > 0 ? json_real(total / answered) : json_null());
}

static json_t *perf_json(const char *run, const char *name, double answered)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/perf/%s.perf.csv", run, name);
	double ms = perf_task_clock_ms(path);
	if (!isfinite(ms))
		return json_null();
	return json_pack("{s:f, s:f, s:o}", "task_clock_ms", ms, "answered", answered,
	                 "cpu_us_per_answer",
	                 answered > 0 ? json_real(ms * 1000 / answered) : json_null());
}

json_t *analysis_cpu(const char *run, const json_t *variants, char *err, size_t err_size)
{
	struct cpu_patterns p;
	if (!patterns_compile(&p, err, err_size))
		return NULL;
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/callgrind", run);
	json_t *cg_answered = answered_per_variant(dir);
	snprintf(dir, sizeof(dir), "%s/perf", run);
	json_t *pf_answered = answered_per_variant(dir);
	json_t *rows = json_array();
	size_t i;
	const json_t *v;
	json_array_foreach(variants, i, v)
	{
		const char *name = json_string_value(json_object_get(v, "name"));
		const char *allocator = json_string_value(json_object_get(v, "allocator"));
		if (!name)
			continue;
		double cga = json_number_value(json_object_get(cg_answered, name));
		double pfa = json_number_value(json_object_get(pf_answered, name));
		json_array_append_new(rows, json_pack("{s:s, s:s?, s:o, s:o}", "variant", name,
		                                      "allocator", allocator, "callgrind",
		                                      callgrind_json(run, name, &p, cga), "perf",
		                                      perf_json(run, name, pfa)));
	}
	json_decref(cg_answered);
	json_decref(pf_answered);
	patterns_free(&p);
	return json_pack("{s:i, s:s, s:o}", "format", 1, "scenario", "cpu", "variants", rows);
}

/* ---- cpu.md ---- */

/* A figure in format (its unit after it), or "-". */
static void cell(FILE *out, double v, const char *format, const char *unit)
{
	if (isfinite(v))
		fprintf(out, format, v, unit);
	else
		fputs("-", out);
}

/* A figure's ratio to the first row's, to 0.001, or "-". */

static void ratio_cell(FILE *out, double v, double first)
{
	if (isfinite(v) && isfinite(first) && first > 0)
		fprintf(out, "%g", nearbyint(v / first * 1000) / 1000);
	else
		fputs("-", out);
}

static void answered_cell(FILE *out, const json_t *row, const char *tool)
{
	double a = summary_number(json_object_get(row, tool), "answered");
	if (isfinite(a))
		fprintf(out, "%.0f", a);
	else
		fputs("-", out);
}

bool analysis_cpu_markdown(FILE *out, const json_t *cpu, const char *status, const char *schedule)
{
	fprintf(out, "# CPU cost per allocator (%s, %s)\n\n", status, schedule);
	fputs("Instructions from callgrind (self cost of the allocator's code / all instructions), "
	      "task-clock from perf stat.\n\n"
	      "| variant | instructions per answer | in allocator | vs first | task-clock µs per "
	      "answer | vs first | answered (callgrind / perf) |\n"
	      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
	      out);
	const json_t *rows = json_object_get(cpu, "variants"), *first = json_array_get(rows, 0), *r;
	double i0 = summary_number(first, "callgrind.instructions_per_answer");
	double p0 = summary_number(first, "perf.cpu_us_per_answer");
	size_t i;
	json_array_foreach(rows, i, r)
	{
		double ipa = summary_number(r, "callgrind.instructions_per_answer");
		double share = summary_number(r, "callgrind.allocator_share");
		double us = summary_number(r, "perf.cpu_us_per_answer");
		fprintf(out, "| %s | ", json_string_value(json_object_get(r, "variant")));
		cell(out, isfinite(ipa) ? floor(ipa) : NAN, "%.0f%s", "");
		fputs(" | ", out);
		cell(out, isfinite(share) ? nearbyint(share * 1000) / 10 : NAN, "%g%s", " %");
		fputs(" | ", out);
		ratio_cell(out, ipa, i0);
		fputs(" | ", out);
		cell(out, isfinite(us) ? nearbyint(us * 10) / 10 : NAN, "%g%s", "");
		fputs(" | ", out);
		ratio_cell(out, us, p0);
		fputs(" | ", out);
		answered_cell(out, r, "callgrind");
		fputs(" / ", out);
		answered_cell(out, r, "perf");
		fputs(" |\n", out);
	}
	return !ferror(out);
}
