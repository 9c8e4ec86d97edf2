/* common/runfolder_reader.c - the one reader of a run folder (docs/run-folder.md). */
#include "runfolder_reader.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_file.h"

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

const char *runfolder_column_name(enum timeline_column col)
{
	return (unsigned)col < TIMELINE_COLUMN_COUNT ? column_names[col] : "?";
}

bool runfolder_is_harness(const char *target)
{
	return target && target[0] == '_';
}

int runfolder_target_index(const struct runfolder *rf, const char *name)
{
	for (size_t i = 0; i < rf->n_targets; i++)
		if (strcmp(rf->targets[i], name) == 0)
			return (int)i;
	return -1;
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

/* Reads one line; returns its length without the newline (-1 at end of file), and whether it had
 * one, so a writer stopped mid-line can be told from a complete last line. */
static ssize_t read_line(FILE *f, char **buf, size_t *cap, bool *had_newline)
{
	ssize_t n = getline(buf, cap, f);
	if (n < 0)
		return -1;
	*had_newline = n > 0 && (*buf)[n - 1] == '\n';
	if (*had_newline)
		(*buf)[--n] = '\0';
	if (n > 0 && (*buf)[n - 1] == '\r')
		(*buf)[--n] = '\0';
	return n;
}

static bool read_run_json(struct runfolder *rf, char *err, size_t err_size)
{
	char *path = path_join(rf->dir, "run.json");
	if (!path)
		return set_err(err, err_size, "out of memory"), false;
	FILE *probe = fopen(path, "r");
	if (!probe) {
		set_err(err, err_size, "%s: cannot open: %s", path, strerror(errno));
		free(path);
		return false;
	}
	fclose(probe);
	rf->run = json_file_load(path, err, err_size);
	if (rf->run && !json_is_object(rf->run)) {
		set_err(err, err_size, "%s:1: not a JSON object", path);
		json_decref(rf->run);
		rf->run = NULL;
	}
	free(path);
	if (!rf->run)
		return false;
	const char *status = json_string_value(json_object_get(rf->run, "status"));
	rf->status = status ? status : "unknown";
	return true;
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
	json_t *t = json_object_get(obj, "t_s");
	if (!json_is_object(obj))
		problem = "not a JSON object";
	else if (!json_is_number(t))
		problem = "missing or non-numeric \"t_s\"";
	else if (!json_is_string(json_object_get(obj, "event")))
		problem = "missing or non-string \"event\"";
	else if (json_object_get(obj, "variant") &&
	         !json_is_string(json_object_get(obj, "variant")))
		problem = "non-string \"variant\"";
	if (problem) {
		set_err(why, why_size, "%s", problem);
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
	char *buf = NULL, why[256];
	size_t cap = 0, lineno = 0, alloc = 0;
	bool ok = true, had_newline;
	ssize_t n;
	while ((n = read_line(f, &buf, &cap, &had_newline)) >= 0) {
		lineno++;
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
		if (rf->n_events == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			void *p = realloc(rf->events, alloc * sizeof(*rf->events));
			if (!p) {
				json_decref(ev.obj);
				set_err(err, err_size, "out of memory");
				ok = false;
				break;
			}
			rf->events = p;
		}
		rf->events[rf->n_events++] = ev;
	}
	free(buf);
	fclose(f);
	free(path);
	return ok;
}

/* Splits line in place into cells (RFC 4180 quoting, as the writer quotes a name holding a comma
 * or a quote). Returns the number of cells, or 0 for an unterminated quote. *cells is
 * allocated (caller frees). */
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

static int target_intern(struct runfolder *rf, const char *name)
{
	int i = runfolder_target_index(rf, name);
	if (i >= 0)
		return i;
	char **p = realloc(rf->targets, (rf->n_targets + 1) * sizeof(*p));
	if (!p)
		return -1;
	rf->targets = p;
	if (!(p[rf->n_targets] = strdup(name)))
		return -1;
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

static bool cell_number(const char *cell, double *out)
{
	if (*cell == '\0') {
		*out = NAN;
		return true;
	}
	char *end;
	errno = 0;
	double v = strtod(cell, &end);
	if (end == cell || *end != '\0' || errno == ERANGE || !isfinite(v))
		return false;
	*out = v;
	return true;
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
			if (*cell == '\0') {
				set_err(why, why_size, "empty \"variant\"");
				ok = false;
			} else if ((row->target = target_intern(rf, cell)) < 0) {
				set_err(why, why_size, "out of memory");
				ok = false;
			}
			row->v[c] = NAN;
		} else if (c == TIMELINE_COL_phase) {
			if (strlen(cell) >= sizeof(row->phase)) {
				set_err(why, why_size, "phase \"%s\" is not a phase name", cell);
				ok = false;
			}
			snprintf(row->phase, sizeof(row->phase), "%s", cell);
			row->v[c] = NAN;
		} else if (!cell_number(cell, &row->v[c])) {
			set_err(why, why_size, "column \"%s\": \"%s\" is not a number",
			        column_names[c], cell);
			ok = false;
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
	char *buf = NULL, why[256];
	size_t cap = 0, lineno = 0, alloc = 0;
	bool ok = true, had_newline, have_header = false;
	struct csv_header h;
	ssize_t n;
	while ((n = read_line(f, &buf, &cap, &had_newline)) >= 0) {
		lineno++;
		if (n == 0)
			continue;
		if (!have_header) {
			if (!had_newline) {
				/* The header itself was cut: the run recorded nothing yet. */
				rf->timeline_truncated = true;
				break;
			}
			if (!header_parse(buf, &h, why, sizeof(why))) {
				set_err(err, err_size, "%s:%zu: %s", path, lineno, why);
				ok = false;
				break;
			}
			have_header = true;
			continue;
		}
		if (!had_newline) {
			/* The writer ends every row with its newline: a row without one was cut
			 * mid-write, and even if it parses its last cell may have lost digits. */
			rf->timeline_truncated = true;
			break;
		}
		struct runfolder_row row = {.line = lineno};
		if (!row_parse(rf, &h, buf, &row, why, sizeof(why))) {
			set_err(err, err_size, "%s:%zu: %s", path, lineno, why);
			ok = false;
			break;
		}
		if (rf->n_rows == alloc) {
			alloc = alloc ? alloc * 2 : 1024;
			void *p = realloc(rf->rows, alloc * sizeof(*rf->rows));
			if (!p) {
				set_err(err, err_size, "out of memory");
				ok = false;
				break;
			}
			rf->rows = p;
		}
		rf->rows[rf->n_rows++] = row;
	}
	/* An empty timeline.csv is a run stopped before the generator wrote anything: no rows. */
	free(buf);
	fclose(f);
	free(path);
	return ok;
}

/* One of the per-instance files: its numeric columns by name, and where to put its rows. */
struct instance_table {
	const char *file;
	const char *const *names;
	size_t n_names;
	struct runfolder_instance_row **rows;
	size_t *n_rows;
	bool *present;
};

/* Parses one data line of a per-instance file; why says what is wrong. */
static bool instance_row_parse(struct runfolder *rf, const struct instance_table *t,
                               const int *col_of, int variant_col, int phase_col, int spike_col,
                               size_t n_cells, char *line, struct runfolder_instance_row *row,
                               char *why, size_t why_size)
{
	char **cells = NULL;
	size_t n = csv_split(line, &cells);
	if (n == 0)
		return set_err(why, why_size, "unterminated quote"), false;
	bool ok = true;
	if (n != n_cells) {
		set_err(why, why_size, "%zu cells where the header has %zu", n, n_cells);
		ok = false;
	} else if (!*cells[variant_col]) {
		set_err(why, why_size, "empty \"variant\"");
		ok = false;
	} else if ((row->target = target_intern(rf, cells[variant_col])) < 0) {
		set_err(why, why_size, "out of memory");
		ok = false;
	} else if (strlen(cells[phase_col]) >= sizeof(row->phase)) {
		set_err(why, why_size, "phase \"%s\" is not a phase name", cells[phase_col]);
		ok = false;
	}
	double spike = NAN;
	if (ok && (!cell_number(cells[spike_col], &spike) || isnan(spike))) {
		set_err(why, why_size, "column \"spike\": \"%s\" is not a number",
		        cells[spike_col]);
		ok = false;
	}
	for (size_t c = 0; ok && c < t->n_names; c++) {
		const char *cell = col_of[c] >= 0 ? cells[col_of[c]] : "";
		if (!cell_number(cell, &row->v[c])) {
			set_err(why, why_size, "column \"%s\": \"%s\" is not a number", t->names[c],
			        cell);
			ok = false;
		}
	}
	if (ok) {
		snprintf(row->phase, sizeof(row->phase), "%s", cells[phase_col]);
		row->spike = (int)spike;
	}
	free(cells);
	return ok;
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
	char *buf = NULL, why[256];
	size_t cap = 0, lineno = 0, alloc = 0, n_cells = 0;
	int col_of[PHASES_COLUMN_COUNT], variant_col = -1, phase_col = -1, spike_col = -1;
	bool ok = true, had_newline;
	ssize_t n;
	while (ok && (n = read_line(f, &buf, &cap, &had_newline)) >= 0) {
		lineno++;
		if (n == 0)
			continue;
		if (n_cells == 0) {
			char **cells = NULL;
			n_cells = csv_split(buf, &cells);
			for (size_t c = 0; c < t->n_names; c++)
				col_of[c] = -1;
			for (size_t i = 0; i < n_cells; i++) {
				if (strcmp(cells[i], "variant") == 0)
					variant_col = (int)i;
				else if (strcmp(cells[i], "phase") == 0)
					phase_col = (int)i;
				else if (strcmp(cells[i], "spike") == 0)
					spike_col = (int)i;
				for (size_t c = 0; c < t->n_names; c++)
					if (strcmp(cells[i], t->names[c]) == 0 && col_of[c] < 0)
						col_of[c] = (int)i;
			}
			free(cells);
			if (variant_col < 0 || phase_col < 0 || spike_col < 0) {
				set_err(err, err_size,
				        "%s:%zu: header lacks the \"variant\", \"phase\" or "
				        "\"spike\" column",
				        path, lineno);
				ok = false;
			}
			continue;
		}
		struct runfolder_instance_row row = {.line = lineno};
		for (size_t c = 0; c < PHASES_COLUMN_COUNT; c++)
			row.v[c] = NAN;
		if (!instance_row_parse(rf, t, col_of, variant_col, phase_col, spike_col, n_cells,
		                        buf, &row, why, sizeof(why))) {
			set_err(err, err_size, "%s:%zu: %s", path, lineno, why);
			ok = false;
			break;
		}
		if (*t->n_rows == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			void *p = realloc(*t->rows, alloc * sizeof(**t->rows));
			if (!p) {
				set_err(err, err_size, "out of memory");
				ok = false;
				break;
			}
			*t->rows = p;
		}
		(*t->rows)[(*t->n_rows)++] = row;
	}
	free(buf);
	fclose(f);
	free(path);
	return ok;
}

static bool read_instance_tables(struct runfolder *rf, char *err, size_t err_size)
{
	const struct instance_table tables[] = {
	    {"phases.csv", phases_column_names, PHASES_COLUMN_COUNT, &rf->phase_rows,
	     &rf->n_phase_rows, &rf->has_phases},
	    {"latency_hist.csv", hist_column_names, HIST_COLUMN_COUNT, &rf->hist_rows,
	     &rf->n_hist_rows, &rf->has_latency_hist},
	};
	for (size_t i = 0; i < sizeof(tables) / sizeof(*tables); i++)
		if (!read_instance_table(rf, &tables[i], err, err_size))
			return false;
	return true;
}

bool runfolder_read(const char *dir, struct runfolder *rf, char *err, size_t err_size)
{
	memset(rf, 0, sizeof(*rf));
	rf->dir = strdup(dir);
	if (!rf->dir)
		return set_err(err, err_size, "out of memory"), false;
	if (read_run_json(rf, err, err_size) && read_events(rf, err, err_size) &&
	    read_timeline(rf, err, err_size) && read_instance_tables(rf, err, err_size))
		return true;
	runfolder_free(rf);
	return false;
}

bool runfolder_read_timeline(const char *dir, struct runfolder *rf, char *err, size_t err_size)
{
	memset(rf, 0, sizeof(*rf));
	rf->dir = strdup(dir);
	if (!rf->dir)
		return set_err(err, err_size, "out of memory"), false;
	rf->status = "unknown";
	if (read_timeline(rf, err, err_size))
		return true;
	runfolder_free(rf);
	return false;
}

void runfolder_free(struct runfolder *rf)
{
	for (size_t i = 0; i < rf->n_events; i++)
		json_decref(rf->events[i].obj);
	free(rf->events);
	for (size_t i = 0; i < rf->n_targets; i++)
		free(rf->targets[i]);
	free(rf->targets);
	free(rf->rows);
	free(rf->phase_rows);
	free(rf->hist_rows);
	json_decref(rf->run);
	free(rf->dir);
	memset(rf, 0, sizeof(*rf));
}
