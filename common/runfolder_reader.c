/* common/runfolder_reader.c - the one reader of a run folder (docs/run-folder.md). */
#include "runfolder_reader.h"
#include "grow.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "identifier.h"
#include "json_file.h"
#include "runfolder_agents.h"

static const char *const column_names[TIMELINE_COLUMN_COUNT] = {
#define TIMELINE_COLUMN_NAME(name) #name,
    TIMELINE_COLUMNS(TIMELINE_COLUMN_NAME)
#undef TIMELINE_COLUMN_NAME
};

static const char *const phases_column_names[PHASES_COLUMN_COUNT] = {
#define PHASES_COLUMN_NAME(name) #name,
    PHASES_COLUMNS(PHASES_COLUMN_NAME)
#undef PHASES_COLUMN_NAME
};
static const char *const hist_column_names[HIST_COLUMN_COUNT] = {"upper_us", "count"};
static const char *const interval_hist_column_names[IHIST_COLUMN_COUNT] = {"t_s", "upper_us",
                                                                           "count"};

const char *runfolder_column_name(enum timeline_column col)
{
	return (unsigned)col < TIMELINE_COLUMN_COUNT ? column_names[col] : "?";
}

bool runfolder_is_harness(const char *target)
{
	return target && target[0] == '_';
}

bool runfolder_realtime_ns(const char *text, int64_t *ns)
{
	if (!text)
		return false;
	size_t whole = strspn(text, "0123456789");
	if (whole == 0 || whole > 11 || text[whole] != '.' || strlen(text + whole + 1) != 9 ||
	    strspn(text + whole + 1, "0123456789") != 9)
		return false;
	*ns = strtoll(text, NULL, 10) * 1000000000 + strtoll(text + whole + 1, NULL, 10);
	return true;
}

bool runfolder_is_generator(const char *target)
{
	static const char base[] = "_loadgen";
	size_t n = sizeof(base) - 1;
	if (!target || strncmp(target, base, n) != 0)
		return false;
	if (!target[n])
		return true;
	if (target[n] != '_' || !target[n + 1])
		return false;
	for (const char *p = target + n + 1; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

int runfolder_target_index(const struct runfolder *rf, const char *name)
{
	json_t *i = rf->target_index && name ? json_object_get(rf->target_index, name) : NULL;
	return i ? (int)json_integer_value(i) : -1;
}

static void set_err(char *err, size_t err_size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, err_size, fmt, ap);
	va_end(ap);
}

static char *path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* Reads one line of at most RUNFOLDER_MAX_LINE bytes; returns its length without the newline (-1
 * at end of file), and whether it had one, so a writer stopped mid-line can be told from a
 * complete last line. A longer line or one holding a NUL byte (not text: everything after it would
 * be lost to the C strings below) is read to its end and reported in *fault. */
ssize_t runfolder_line_read(FILE *f, char **buf, size_t *cap, bool *had_newline,
                            enum line_fault *fault)
{
	size_t n = 0;
	int c;
	*had_newline = false;
	*fault = LINE_OK;
	while ((c = getc_unlocked(f)) != EOF) {
		if (c == '\n') {
			*had_newline = true;
			break;
		}
		if (c == '\0' && *fault == LINE_OK)
			*fault = LINE_NUL;
		if (n >= RUNFOLDER_MAX_LINE) {
			*fault = LINE_TOO_LONG;
			continue;
		}
		if (n + 1 >= *cap) {
			size_t more = *cap ? *cap * 2 : 256;
			char *p = realloc(*buf, more);
			if (!p)
				return -2;
			*buf = p;
			*cap = more;
		}
		(*buf)[n++] = (char)c;
	}
	if (n == 0 && !*had_newline && *fault == LINE_OK)
		return -1;
	if (!*buf && !(*buf = malloc(*cap = 256)))
		return -2;
	(*buf)[n] = '\0';
	if (n > 0 && (*buf)[n - 1] == '\r')
		(*buf)[--n] = '\0';
	return (ssize_t)n;
}

/* Whether the line runfolder_line_read returned n for must be refused: then err says why (an
 * unreadable line, an oversized one, a NUL byte). */
bool runfolder_line_refused(ssize_t n, enum line_fault fault, const char *path, size_t lineno,
                            char *err, size_t err_size)
{
	if (n == -2)
		set_err(err, err_size, "%s:%zu: out of memory", path, lineno);
	else if (fault == LINE_TOO_LONG)
		set_err(err, err_size,
		        "%s:%zu: line longer than %d bytes (docs/run-folder.md, \"Limits\")", path,
		        lineno, RUNFOLDER_MAX_LINE);
	else if (fault == LINE_NUL)
		set_err(err, err_size, "%s:%zu: a NUL byte in the line (not text)", path, lineno);
	return n == -2 || fault != LINE_OK;
}

/* What a number must be: within [lo, hi], and whole when whole is set. */
struct number_range {
	double lo, hi;
	bool whole;
};

static const struct number_range T_S_RANGE = {-RUNFOLDER_MAX_T_S, RUNFOLDER_MAX_T_S, false};
static const struct number_range SPIKE_RANGE = {0, RUNFOLDER_MAX_SPIKE, true};
static const struct number_range VALUE_RANGE = {-RUNFOLDER_MAX_MAGNITUDE, RUNFOLDER_MAX_MAGNITUDE,
                                                false};
/* latency_hist.csv: the smallest upper edge is 1 ns. */
static const struct number_range UPPER_US_RANGE = {0.001, RUNFOLDER_MAX_MAGNITUDE, false};
static const struct number_range HIST_COUNT_RANGE = {0, RUNFOLDER_MAX_HIST_COUNT, true};

/* Whether v is within r; otherwise why says so, after the prefix naming where v was, showing v
 * as text when there is one (the cell as written). */
static bool number_in_range(double v, const struct number_range *r, const char *where,
                            const char *text, char *why, size_t why_size)
{
	if (isfinite(v) && v >= r->lo && v <= r->hi && (!r->whole || v == floor(v)))
		return true;
	char shown[64];
	if (text)
		snprintf(shown, sizeof(shown), "\"%.40s\"", text);
	else
		snprintf(shown, sizeof(shown), "%g", v);
	set_err(why, why_size,
	        "%s%s is out of range (%s%.17g to %.17g; docs/run-folder.md, "
	        "\"Limits\")",
	        where, shown, r->whole ? "a whole number from " : "", r->lo, r->hi);
	return false;
}

/* A numeric cell: NAN when empty (not available); else a number within r. why names the column
 * (by its name, as every reader's message does). */
static bool cell_number(const char *cell, const struct number_range *r, const char *name,
                        double *out, char *why, size_t why_size)
{
	if (*cell == '\0') {
		*out = NAN;
		return true;
	}
	char where[128];
	snprintf(where, sizeof(where), "column \"%s\": ", name);
	char *end;
	double v = strtod(cell, &end);
	if (end == cell || *end != '\0' || isnan(v)) {
		set_err(why, why_size, "%s\"%.40s\" is not a number", where, cell);
		return false;
	}
	*out = v;
	return number_in_range(v, r, where, cell, why, why_size);
}

/* A name cell (variant, phase): an identifier (common/identifier.h). */
static bool cell_name(const char *cell, const char *name, char *why, size_t why_size)
{
	char bad[160];
	if (identifier_valid(cell, bad, sizeof(bad)))
		return true;
	set_err(why, why_size, "column \"%s\": %s", name, bad);
	return false;
}

/* A phase cell: empty (not recorded) or a name short enough to be one of the phases. */
static bool cell_phase(const char *cell, char phase[16], char *why, size_t why_size)
{
	phase[0] = '\0';
	if (*cell == '\0')
		return true;
	if (!cell_name(cell, "phase", why, why_size))
		return false;
	if (strlen(cell) >= 16) {
		set_err(why, why_size, "column \"phase\": \"%s\" is not a phase name", cell);
		return false;
	}
	snprintf(phase, 16, "%s", cell);
	return true;
}

/* Whether name is the name of a row of run.json "variants". */
static bool run_json_names(const json_t *run, const char *name)
{
	size_t i;
	json_t *row;
	json_array_foreach(json_object_get(run, "variants"), i, row)
	{
		const char *n = json_string_value(json_object_get(row, "name"));
		if (n && strcmp(n, name) == 0)
			return true;
	}
	return false;
}

/* The checked value at a path of run.json ("parameters.interval_ms"): absent or null, or a number
 * within [lo, hi]. */
static bool run_json_number(const json_t *run, const char *section, const char *key, double lo,
                            double hi, const char *path, char *err, size_t err_size)
{
	const json_t *x = json_object_get(json_object_get(run, section), key);
	if (!x || json_is_null(x))
		return true;
	char where[256];
	snprintf(where, sizeof(where), "%s: \"%s.%s\": ", path, section, key);
	if (!json_is_number(x)) {
		set_err(err, err_size, "%snot a number", where);
		return false;
	}
	const struct number_range r = {lo, hi, false};
	return number_in_range(json_number_value(x), &r, where, NULL, err, err_size);
}

/* The keys of a map of run.json keyed by variant ("warmup", "calibration.capacity_qps"): names,
 * no more of them than a run has targets. */
static bool run_json_keys(const json_t *map, const char *where, const char *path, char *err,
                          size_t err_size)
{
	if (!json_is_object(map))
		return true;
	if (json_object_size(map) > RUNFOLDER_MAX_VARIANTS + RUNFOLDER_MAX_HARNESS) {
		set_err(err, err_size,
		        "%s: \"%s\" has %zu keys, more than a run has targets (%d; "
		        "docs/run-folder.md, \"Limits\")",
		        path, where, json_object_size(map),
		        RUNFOLDER_MAX_VARIANTS + RUNFOLDER_MAX_HARNESS);
		return false;
	}
	const char *k;
	json_t *v;
	char bad[160];
	json_object_foreach((json_t *)map, k, v)
	{
		if (!identifier_valid(k, bad, sizeof(bad))) {
			set_err(err, err_size, "%s: a key of \"%s\": %s", path, where, bad);
			return false;
		}
	}
	return true;
}

/* The names and numbers of run.json the readers use: each variant's name an identifier, at most
 * RUNFOLDER_MAX_VARIANTS of them; the interval and the machine's cores in range. Counts the
 * variant names into rf->n_variants. jansson keeps no position of a value, so a message names the
 * key. */
static bool run_json_check(struct runfolder *rf, const char *path, char *err, size_t err_size)
{
	const json_t *variants = json_object_get(rf->run, "variants");
	if (variants && !json_is_null(variants) && !json_is_array(variants)) {
		set_err(err, err_size, "%s: \"variants\" is not an array", path);
		return false;
	}
	size_t n = json_array_size(variants);
	if (n > RUNFOLDER_MAX_VARIANTS + RUNFOLDER_MAX_HARNESS) {
		set_err(err, err_size,
		        "%s: \"variants\" has %zu rows, more than %d (docs/run-folder.md, "
		        "\"Limits\")",
		        path, n, RUNFOLDER_MAX_VARIANTS + RUNFOLDER_MAX_HARNESS);
		return false;
	}
	char bad[160];
	for (size_t i = 0; i < n; i++) {
		const char *name =
		    json_string_value(json_object_get(json_array_get(variants, i), "name"));
		if (!name || !identifier_valid(name, bad, sizeof(bad))) {
			set_err(err, err_size, "%s: \"variants\"[%zu].name: %s", path, i,
			        name ? bad : "missing or not a string");
			return false;
		}
		/* the row's host (optional: runs before it was recorded have none) */
		const json_t *host = json_object_get(json_array_get(variants, i), "host");
		if (host && !json_is_null(host) &&
		    (!json_is_string(host) ||
		     !identifier_valid(json_string_value(host), bad, sizeof(bad)))) {
			set_err(err, err_size, "%s: \"variants\"[%zu].host: %s", path, i,
			        json_is_string(host) ? bad : "not a string");
			return false;
		}
		bool repeated = false;
		for (size_t j = 0; j < i && !repeated; j++)
			repeated = strcmp(name, json_string_value(json_object_get(
			                            json_array_get(variants, j), "name"))) == 0;
		if (repeated || runfolder_is_harness(name))
			continue;
		if (++rf->n_variants > RUNFOLDER_MAX_VARIANTS) {
			set_err(err, err_size,
			        "%s: \"variants\"[%zu] \"%s\" is variant %zu: at most %d "
			        "(docs/run-folder.md, \"Limits\")",
			        path, i, name, rf->n_variants, RUNFOLDER_MAX_VARIANTS);
			return false;
		}
	}
	const json_t *cal = json_object_get(rf->run, "calibration");
	return run_json_number(rf->run, "parameters", "interval_ms", RUNFOLDER_MIN_INTERVAL_MS,
	                       RUNFOLDER_MAX_INTERVAL_MS, path, err, err_size) &&
	       run_json_number(rf->run, "machine", "cores", 1, RUNFOLDER_MAX_CORES, path, err,
	                       err_size) &&
	       run_json_keys(json_object_get(rf->run, "warmup"), "warmup", path, err, err_size) &&
	       run_json_keys(json_object_get(cal, "capacity_qps"), "calibration.capacity_qps", path,
	                     err, err_size) &&
	       run_json_keys(json_object_get(cal, "still_answering_at_top"),
	                     "calibration.still_answering_at_top", path, err, err_size);
}

static bool read_run_json(struct runfolder *rf, char *err, size_t err_size)
{
	char *path = path_join(rf->dir, "run.json");
	if (!path)
		return set_err(err, err_size, "out of memory"), false;
	struct stat st;
	if (stat(path, &st) != 0) {
		set_err(err, err_size, "%s: cannot open: %s", path, strerror(errno));
		free(path);
		return false;
	}
	if (st.st_size > RUNFOLDER_MAX_RUN_JSON) {
		set_err(err, err_size,
		        "%s: %lld bytes, more than %d (docs/run-folder.md, \"Limits\")", path,
		        (long long)st.st_size, RUNFOLDER_MAX_RUN_JSON);
		free(path);
		return false;
	}
	rf->run = json_file_load(path, err, err_size);
	if (rf->run && !json_is_object(rf->run)) {
		set_err(err, err_size, "%s:1: not a JSON object", path);
		json_decref(rf->run);
		rf->run = NULL;
	}
	bool ok = rf->run && run_json_check(rf, path, err, err_size);
	free(path);
	if (!ok)
		return false;
	const char *status = json_string_value(json_object_get(rf->run, "status"));
	rf->status = status ? status : "unknown";
	return true;
}

/* A string key of an event that holds a name (variant, phase): absent, or an identifier. */
static bool event_name(const json_t *obj, const char *key, char *why, size_t why_size)
{
	const json_t *x = json_object_get(obj, key);
	if (!x)
		return true;
	char bad[160];
	if (!json_is_string(x)) {
		set_err(why, why_size, "non-string \"%s\"", key);
		return false;
	}
	if (identifier_valid(json_string_value(x), bad, sizeof(bad)))
		return true;
	set_err(why, why_size, "\"%s\": %s", key, bad);
	return false;
}

/* Parses one events.jsonl line into ev; on failure writes the reason (without file:line) to why. */
static bool event_parse(const char *line, struct runfolder_event *ev, char *why, size_t why_size)
{
	json_error_t jerr;
	json_t *obj = json_loads(line, 0, &jerr);
	if (!obj) {
		set_err(why, why_size, "column %d: %s", jerr.column, jerr.text);
		return false;
	}
	const char *problem = NULL;
	json_t *t = json_object_get(obj, "t_s"), *spike = json_object_get(obj, "spike");
	bool ok = false;
	if (!json_is_object(obj))
		problem = "not a JSON object";
	else if (!json_is_number(t))
		problem = "missing or non-numeric \"t_s\"";
	else if (!json_is_string(json_object_get(obj, "event")))
		problem = "missing or non-string \"event\"";
	else if (spike && !json_is_number(spike))
		problem = "non-numeric \"spike\"";
	else
		ok = number_in_range(json_number_value(t), &T_S_RANGE, "\"t_s\": ", NULL, why,
		                     why_size) &&
		     (!spike || number_in_range(json_number_value(spike), &SPIKE_RANGE,
		                                "\"spike\": ", NULL, why, why_size)) &&
		     event_name(obj, "variant", why, why_size) &&
		     event_name(obj, "phase", why, why_size);
	if (problem)
		set_err(why, why_size, "%s", problem);
	if (!ok) {
		json_decref(obj);
		return false;
	}
	ev->obj = obj;
	ev->t_s = json_number_value(t);
	ev->event = json_string_value(json_object_get(obj, "event"));
	const char *variant = json_string_value(json_object_get(obj, "variant"));
	ev->variant = variant ? variant : "";
	return true;
}

/* Room for one more of a file's rows in *rows (n used, *alloc allocated, first allocation
 * first): false with err set past RUNFOLDER_MAX_ROWS or out of memory. */
static bool rows_grow(void **rows, size_t n, size_t *alloc, size_t first, size_t size,
                      const char *path, size_t lineno, char *err, size_t err_size)
{
	if (n >= RUNFOLDER_MAX_ROWS) {
		set_err(err, err_size, "%s:%zu: more than %d rows (docs/run-folder.md, \"Limits\")",
		        path, lineno, RUNFOLDER_MAX_ROWS);
		return false;
	}
	void *p = grow_room(*rows, alloc, n, size, first);
	if (!p) {
		set_err(err, err_size, "%s:%zu: out of memory", path, lineno);
		return false;
	}
	*rows = p;
	return true;
}

static bool read_events(struct runfolder *rf, char *err, size_t err_size)
{
	char *path = path_join(rf->dir, "events.jsonl");
	FILE *f = path ? fopen(path, "r") : NULL;
	if (!f) {
		set_err(err, err_size, "%s: cannot open: %s", path ? path : "events.jsonl",
		        strerror(errno));
		free(path);
		return false;
	}
	char *buf = NULL, why[512];
	size_t cap = 0, lineno = 0, alloc = 0;
	bool ok = true, had_newline;
	enum line_fault fault;
	ssize_t n;
	while ((n = runfolder_line_read(f, &buf, &cap, &had_newline, &fault)) != -1) {
		lineno++;
		if (n >= 0 && fault != LINE_OK && !had_newline) {
			/* the writer was stopped mid-line */
			rf->events_truncated = true;
			break;
		}
		if (runfolder_line_refused(n, fault, path, lineno, err, err_size)) {
			ok = false;
			break;
		}
		if (strspn(buf, " \t") == (size_t)n)
			continue;
		struct runfolder_event ev = {.line = lineno};
		if (!event_parse(buf, &ev, why, sizeof(why))) {
			if (!had_newline) {
				rf->events_truncated = true;
				break;
			}
			set_err(err, err_size, "%s:%zu: %s", path, lineno, why);
			ok = false;
			break;
		}
		if (!rows_grow((void **)&rf->events, rf->n_events, &alloc, 64, sizeof(*rf->events),
		               path, lineno, err, err_size)) {
			json_decref(ev.obj);
			ok = false;
			break;
		}
		rf->events[rf->n_events++] = ev;
	}
	free(buf);
	fclose(f);
	free(path);
	return ok;
}

static size_t csv_split(char *line, char ***cells)
{
	size_t n = 0, cap = 32;
	char **c = malloc(cap * sizeof(*c));
	char *p = line;
	if (!c)
		return 0;
	for (;;) {
		if (n == cap) {
			char **more = realloc(c, (cap *= 2) * sizeof(*c));
			if (!more) {
				free(c);
				return 0;
			}
			c = more;
		}
		c[n++] = p;
		if (*p == '"') {
			char *out = p, *in = p + 1;
			for (;;) {
				if (*in == '\0') {
					free(c);
					return 0;
				}
				if (*in == '"' && in[1] == '"') {
					*out++ = '"';
					in += 2;
				} else if (*in == '"') {
					in++;
					break;
				} else {
					*out++ = *in++;
				}
			}
			*out = '\0';
			if (*in != ',' && *in != '\0') {
				free(c);
				return 0;
			}
			p = in;
		} else {
			p += strcspn(p, ",");
		}
		if (*p == '\0')
			break;
		*p++ = '\0';
	}
	*cells = c;
	return n;
}

/* The index of a target name, added at its first appearance; -1 with why set past the limits
 * (RUNFOLDER_MAX_VARIANTS, counted with run.json's variants, and RUNFOLDER_MAX_HARNESS). */
static int target_intern(struct runfolder *rf, const char *name, char *why, size_t why_size)
{
	int i = runfolder_target_index(rf, name);
	if (i >= 0)
		return i;
	bool harness = runfolder_is_harness(name);
	bool counted = harness || !run_json_names(rf->run, name);
	size_t *count = harness ? &rf->n_harness : &rf->n_variants;
	int limit = harness ? RUNFOLDER_MAX_HARNESS : RUNFOLDER_MAX_VARIANTS;
	if (counted && *count >= (size_t)limit) {
		set_err(why, why_size,
		        "column \"variant\": \"%s\" would be %s name %zu of the run: at most %d "
		        "(docs/run-folder.md, \"Limits\")",
		        name, harness ? "harness" : "variant", *count + 1, limit);
		return -1;
	}
	char **p = realloc(rf->targets, (rf->n_targets + 1) * sizeof(*p));
	if (!rf->target_index)
		rf->target_index = json_object();
	if (!p || !rf->target_index) {
		if (p)
			rf->targets = p;
		return set_err(why, why_size, "out of memory"), -1;
	}
	rf->targets = p;
	if (!(p[rf->n_targets] = strdup(name)) ||
	    json_object_set_new(rf->target_index, name, json_integer((json_int_t)rf->n_targets)) !=
	        0)
		return set_err(why, why_size, "out of memory"), -1;
	if (counted)
		(*count)++;
	return (int)rf->n_targets++;
}

struct csv_header {
	int col_of[TIMELINE_COLUMN_COUNT]; /* file cell index of each known column, -1 if absent */
	size_t n_cells;
};

static bool header_parse(char *line, struct csv_header *h, char *why, size_t why_size)
{
	for (int c = 0; c < TIMELINE_COLUMN_COUNT; c++)
		h->col_of[c] = -1;
	char **cells = NULL;
	size_t n = csv_split(line, &cells);
	if (n == 0)
		return set_err(why, why_size, "unterminated quote in the header"), false;
	h->n_cells = n;
	for (size_t i = 0; i < n; i++)
		for (int c = 0; c < TIMELINE_COLUMN_COUNT; c++)
			if (strcmp(cells[i], column_names[c]) == 0 && h->col_of[c] < 0)
				h->col_of[c] = (int)i;
	free(cells);
	if (h->col_of[TIMELINE_COL_t_s] < 0 || h->col_of[TIMELINE_COL_variant] < 0) {
		set_err(why, why_size, "header lacks the \"t_s\" or \"variant\" column");
		return false;
	}
	return true;
}

/* The range of a timeline column's numbers. */
static const struct number_range *timeline_range(int c)
{
	return c == TIMELINE_COL_t_s     ? &T_S_RANGE
	       : c == TIMELINE_COL_spike ? &SPIKE_RANGE
	                                 : &VALUE_RANGE;
}

static bool row_parse(struct runfolder *rf, const struct csv_header *h, char *line,
                      struct runfolder_row *row, char *why, size_t why_size)
{
	char **cells = NULL;
	size_t n = csv_split(line, &cells);
	if (n == 0)
		return set_err(why, why_size, "unterminated quote"), false;
	if (n != h->n_cells) {
		set_err(why, why_size, "%zu cells where the header has %zu", n, h->n_cells);
		free(cells);
		return false;
	}
	bool ok = true;
	for (int c = 0; c < TIMELINE_COLUMN_COUNT && ok; c++) {
		const char *cell = h->col_of[c] >= 0 ? cells[h->col_of[c]] : "";
		if (c == TIMELINE_COL_variant) {
			ok = cell_name(cell, "variant", why, why_size) &&
			     (row->target = target_intern(rf, cell, why, why_size)) >= 0;
			row->v[c] = NAN;
		} else if (c == TIMELINE_COL_phase) {
			ok = cell_phase(cell, row->phase, why, why_size);
			row->v[c] = NAN;
		} else {
			ok = cell_number(cell, timeline_range(c), column_names[c], &row->v[c], why,
			                 why_size);
		}
	}
	free(cells);
	if (!ok)
		return false;
	if (isnan(row->v[TIMELINE_COL_t_s])) {
		set_err(why, why_size, "empty \"t_s\"");
		return false;
	}
	row->t_s = row->v[TIMELINE_COL_t_s];
	/* whole and within RUNFOLDER_MAX_SPIKE: the conversion is exact */
	row->spike = isnan(row->v[TIMELINE_COL_spike]) ? 0 : (int)row->v[TIMELINE_COL_spike];
	return true;
}

static bool read_timeline(struct runfolder *rf, char *err, size_t err_size)
{
	char *path = path_join(rf->dir, "timeline.csv");
	FILE *f = path ? fopen(path, "r") : NULL;
	if (!f) {
		set_err(err, err_size, "%s: cannot open: %s", path ? path : "timeline.csv",
		        strerror(errno));
		free(path);
		return false;
	}
	char *buf = NULL, why[512];
	size_t cap = 0, lineno = 0, alloc = 0;
	bool ok = true, had_newline, have_header = false;
	enum line_fault fault;
	struct csv_header h;
	ssize_t n;
	while ((n = runfolder_line_read(f, &buf, &cap, &had_newline, &fault)) != -1) {
		lineno++;
		if (n >= 0 && !had_newline) {
			/* The writer ends every line with its newline: a line without one was cut
			 * mid-write (the header itself: the run recorded nothing yet), and even if
			 * it parses its last cell may have lost digits. */
			rf->timeline_truncated = true;
			break;
		}
		if (runfolder_line_refused(n, fault, path, lineno, err, err_size)) {
			ok = false;
			break;
		}
		if (n == 0)
			continue;
		if (!have_header) {
			if (!header_parse(buf, &h, why, sizeof(why))) {
				set_err(err, err_size, "%s:%zu: %s", path, lineno, why);
				ok = false;
				break;
			}
			have_header = true;
			continue;
		}
		struct runfolder_row row = {.line = lineno};
		if (!row_parse(rf, &h, buf, &row, why, sizeof(why))) {
			set_err(err, err_size, "%s:%zu: %s", path, lineno, why);
			ok = false;
			break;
		}
		if (!rows_grow((void **)&rf->rows, rf->n_rows, &alloc, 1024, sizeof(*rf->rows),
		               path, lineno, err, err_size)) {
			ok = false;
			break;
		}
		rf->rows[rf->n_rows++] = row;
	}
	/* An empty timeline.csv is a run stopped before the generator wrote anything: no rows. */
	free(buf);
	fclose(f);
	free(path);
	return ok;
}

/* One of the per-instance files: its numeric columns by name and their ranges, and where to put
 * its rows. */
struct instance_table {
	const char *file;
	const char *const *names;
	const struct number_range *const *ranges;
	size_t n_names;
	struct runfolder_instance_row **rows;
	size_t *n_rows;
	bool *present;
};

/* Where a per-instance file's columns are: cell indexes, -1 when absent. */
struct instance_header {
	int col_of[PHASES_COLUMN_COUNT];
	int variant, phase, spike;
	size_t n_cells;
};

/* Parses one data line of a per-instance file; why says what is wrong. */
static bool instance_row_parse(struct runfolder *rf, const struct instance_table *t,
                               const struct instance_header *h, char *line,
                               struct runfolder_instance_row *row, char *why, size_t why_size)
{
	char **cells = NULL;
	size_t n = csv_split(line, &cells);
	if (n == 0)
		return set_err(why, why_size, "unterminated quote"), false;
	bool ok = true;
	double spike = NAN;
	if (n != h->n_cells) {
		set_err(why, why_size, "%zu cells where the header has %zu", n, h->n_cells);
		ok = false;
	} else {
		ok = cell_name(cells[h->variant], "variant", why, why_size) &&
		     (row->target = target_intern(rf, cells[h->variant], why, why_size)) >= 0 &&
		     cell_phase(cells[h->phase], row->phase, why, why_size) &&
		     cell_number(cells[h->spike], &SPIKE_RANGE, "spike", &spike, why, why_size);
		if (ok && isnan(spike)) {
			set_err(why, why_size, "column \"spike\": empty");
			ok = false;
		}
	}
	for (size_t c = 0; ok && c < t->n_names; c++) {
		const char *cell = h->col_of[c] >= 0 ? cells[h->col_of[c]] : "";
		ok = cell_number(cell, t->ranges[c], t->names[c], &row->v[c], why, why_size);
	}
	if (ok)
		row->spike = (int)spike; /* whole and within RUNFOLDER_MAX_SPIKE: exact */
	free(cells);
	return ok;
}

/* Parses a per-instance file's header line into h; why says what is wrong. */
static bool instance_header_parse(const struct instance_table *t, char *line,
                                  struct instance_header *h, char *why, size_t why_size)
{
	char **cells = NULL;
	h->n_cells = csv_split(line, &cells);
	h->variant = h->phase = h->spike = -1;
	for (size_t c = 0; c < t->n_names; c++)
		h->col_of[c] = -1;
	for (size_t i = 0; i < h->n_cells; i++) {
		if (strcmp(cells[i], "variant") == 0)
			h->variant = (int)i;
		else if (strcmp(cells[i], "phase") == 0)
			h->phase = (int)i;
		else if (strcmp(cells[i], "spike") == 0)
			h->spike = (int)i;
		for (size_t c = 0; c < t->n_names; c++)
			if (strcmp(cells[i], t->names[c]) == 0 && h->col_of[c] < 0)
				h->col_of[c] = (int)i;
	}
	free(cells);
	if (h->variant < 0 || h->phase < 0 || h->spike < 0) {
		set_err(why, why_size,
		        "header lacks the \"variant\", \"phase\" or \"spike\" column");
		return false;
	}
	return true;
}

/* Reads a per-instance file if it exists (the writer replaces it whole, atomically, so a cut line
 * is an error like any other). */
static bool read_instance_table(struct runfolder *rf, const struct instance_table *t, char *err,
                                size_t err_size)
{
	char *path = path_join(rf->dir, t->file);
	FILE *f = path ? fopen(path, "r") : NULL;
	if (!f) {
		bool absent = path && errno == ENOENT;
		if (!absent)
			set_err(err, err_size, "%s: cannot open: %s", path ? path : t->file,
			        strerror(errno));
		free(path);
		return absent;
	}
	*t->present = true;
	char *buf = NULL, why[512];
	size_t cap = 0, lineno = 0, alloc = 0;
	struct instance_header h = {.n_cells = 0};
	bool ok = true, had_newline;
	enum line_fault fault;
	ssize_t n;
	while (ok && (n = runfolder_line_read(f, &buf, &cap, &had_newline, &fault)) != -1) {
		lineno++;
		if (runfolder_line_refused(n, fault, path, lineno, err, err_size)) {
			ok = false;
			break;
		}
		if (n == 0)
			continue;
		if (h.n_cells == 0) {
			ok = instance_header_parse(t, buf, &h, why, sizeof(why));
		} else {
			struct runfolder_instance_row row = {.line = lineno};
			for (size_t c = 0; c < PHASES_COLUMN_COUNT; c++)
				row.v[c] = NAN;
			ok = instance_row_parse(rf, t, &h, buf, &row, why, sizeof(why));
			if (ok && !rows_grow((void **)t->rows, *t->n_rows, &alloc, 64, sizeof(row),
			                     path, lineno, err, err_size)) {
				ok = false;
				break;
			}
			if (ok)
				(*t->rows)[(*t->n_rows)++] = row;
		}
		if (!ok)
			set_err(err, err_size, "%s:%zu: %s", path, lineno, why);
	}
	free(buf);
	fclose(f);
	free(path);
	return ok;
}

static bool read_instance_tables(struct runfolder *rf, char *err, size_t err_size)
{
	static const struct number_range *const phases_ranges[PHASES_COLUMN_COUNT] = {
#define PHASES_COLUMN_RANGE(name) &VALUE_RANGE,
	    PHASES_COLUMNS(PHASES_COLUMN_RANGE)
#undef PHASES_COLUMN_RANGE
	};
	static const struct number_range *const hist_ranges[HIST_COLUMN_COUNT] = {
	    [HIST_COL_upper_us] = &UPPER_US_RANGE, [HIST_COL_count] = &HIST_COUNT_RANGE};
	static const struct number_range *const interval_hist_ranges[IHIST_COLUMN_COUNT] = {
	    [IHIST_COL_t_s] = &T_S_RANGE,
	    [IHIST_COL_upper_us] = &UPPER_US_RANGE,
	    [IHIST_COL_count] = &HIST_COUNT_RANGE};
	const struct instance_table tables[] = {
	    {"phases.csv", phases_column_names, phases_ranges, PHASES_COLUMN_COUNT, &rf->phase_rows,
	     &rf->n_phase_rows, &rf->has_phases},
	    {"interval_hist.csv", interval_hist_column_names, interval_hist_ranges,
	     IHIST_COLUMN_COUNT, &rf->interval_hist_rows, &rf->n_interval_hist_rows,
	     &rf->has_interval_hist},
	    {"latency_hist.csv", hist_column_names, hist_ranges, HIST_COLUMN_COUNT, &rf->hist_rows,
	     &rf->n_hist_rows, &rf->has_latency_hist},
	};
	for (size_t i = 0; i < sizeof(tables) / sizeof(*tables); i++)
		if (!read_instance_table(rf, &tables[i], err, err_size))
			return false;
	return true;
}

typedef bool (*runfolder_part_reader)(struct runfolder *rf, char *err, size_t err_size);

/* Reads the parts of DIR's folder into rf in order (status: what rf->status is without run.json,
 * NULL where run.json is read); on any failure rf is freed. */
static bool read_parts(const char *dir, struct runfolder *rf, const char *status,
                       const runfolder_part_reader *parts, size_t n, char *err, size_t err_size)
{
	memset(rf, 0, sizeof(*rf));
	rf->dir = strdup(dir);
	if (!rf->dir)
		return set_err(err, err_size, "out of memory"), false;
	rf->status = status;
	for (size_t i = 0; i < n; i++)
		if (!parts[i](rf, err, err_size)) {
			runfolder_free(rf);
			return false;
		}
	return true;
}

bool runfolder_read(const char *dir, struct runfolder *rf, char *err, size_t err_size)
{
	static const runfolder_part_reader parts[] = {read_run_json, read_events, read_timeline,
	                                              read_instance_tables, runfolder_agents_place};
	return read_parts(dir, rf, NULL, parts, sizeof(parts) / sizeof(*parts), err, err_size);
}

bool runfolder_read_run(const char *dir, struct runfolder *rf, char *err, size_t err_size)
{
	static const runfolder_part_reader parts[] = {read_run_json};
	return read_parts(dir, rf, NULL, parts, 1, err, err_size);
}

bool runfolder_read_timeline(const char *dir, struct runfolder *rf, char *err, size_t err_size)
{
	static const runfolder_part_reader parts[] = {read_timeline};
	return read_parts(dir, rf, "unknown", parts, 1, err, err_size);
}

const char *const runfolder_fragment_files[] = {"fragment.json",
                                                "timeline.csv",
                                                "events.jsonl",
                                                "phases.csv",
                                                "latency_hist.csv",
                                                "interval_hist.csv",
                                                NULL};

bool runfolder_read_fragment(const char *dir, struct runfolder *rf, char *err, size_t err_size)
{
	static const runfolder_part_reader parts[] = {read_events, read_timeline,
	                                              read_instance_tables};
	return read_parts(dir, rf, "unknown", parts, sizeof(parts) / sizeof(*parts), err, err_size);
}

const char *runfolder_row_host(const struct runfolder *rf, const char *variant)
{
	const json_t *variants = json_object_get(rf->run, "variants");
	for (size_t i = 0; i < json_array_size(variants); i++) {
		const json_t *row = json_array_get(variants, i);
		const char *host = json_string_value(json_object_get(row, "host"));
		const char *name = json_string_value(json_object_get(row, "name"));
		if (host && name && strcmp(name, variant) == 0)
			return host; /* checked by run_json_check */
	}
	const char *machine =
	    json_string_value(json_object_get(json_object_get(rf->run, "machine"), "hostname"));
	return machine && identifier_valid(machine, NULL, 0) ? machine : NULL;
}

void runfolder_free(struct runfolder *rf)
{
	for (size_t i = 0; i < rf->n_events; i++)
		json_decref(rf->events[i].obj);
	free(rf->events);
	for (size_t i = 0; i < rf->n_targets; i++)
		free(rf->targets[i]);
	free(rf->targets);
	json_decref(rf->target_index);
	free(rf->rows);
	free(rf->phase_rows);
	free(rf->hist_rows);
	free(rf->interval_hist_rows);
	free(rf->agents);
	json_decref(rf->run);
	free(rf->dir);
	memset(rf, 0, sizeof(*rf));
}
