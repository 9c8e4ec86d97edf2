/* common/runfolder_writer.c - appends timeline.csv rows and events.jsonl lines to a run folder,
 * flushed. */
#include "runfolder_writer.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const column_names[] = {
#define TIMELINE_COLUMN_NAME(name) #name,
    TIMELINE_COLUMNS(TIMELINE_COLUMN_NAME)
#undef TIMELINE_COLUMN_NAME
};

const char *runfolder_timeline_header(void)
{
	static char header[1024];
	if (!header[0]) {
		size_t len = 0;
		for (int i = 0; i < TIMELINE_COLUMN_COUNT; i++)
			len += (size_t)snprintf(header + len, sizeof(header) - len, "%s%s",
			                        i ? "," : "", column_names[i]);
	}
	return header;
}

static bool mkdir_p(const char *dir, char *err, size_t err_size)
{
	char path[4096];
	if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path)) {
		snprintf(err, err_size, "%s: path too long", dir);
		return false;
	}
	for (char *p = path + 1;; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;
			*p = '\0';
			if (mkdir(path, 0777) != 0 && errno != EEXIST) {
				snprintf(err, err_size, "%s: %s", path, strerror(errno));
				return false;
			}
			*p = c;
			if (!c)
				return true;
		}
	}
}

static FILE *open_append(const char *dir, const char *name, char *err, size_t err_size)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "a");
	if (!f)
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
	return f;
}

/* Rows appended under another header would land in the wrong columns: refuse instead. */
static bool runfolder_header_matches(const char *dir, char *err, size_t err_size)
{
	char path[4200], line[2048] = "";
	snprintf(path, sizeof(path), "%s/timeline.csv", dir);
	FILE *f = fopen(path, "r");
	bool ok = f && fgets(line, sizeof(line), f);
	if (f)
		fclose(f);
	line[strcspn(line, "\r\n")] = '\0';
	if (!ok || strcmp(line, runfolder_timeline_header()) != 0) {
		snprintf(err, err_size, "%s:1: the header is not this program's columns (%s...)",
		         path, runfolder_timeline_header());
		return false;
	}
	return true;
}

bool runfolder_writer_open(struct runfolder_writer *w, const char *dir, char *err, size_t err_size)
{
	memset(w, 0, sizeof(*w));
	if (!mkdir_p(dir, err, err_size))
		return false;
	w->timeline = open_append(dir, "timeline.csv", err, err_size);
	w->events = w->timeline ? open_append(dir, "events.jsonl", err, err_size) : NULL;
	if (!w->events) {
		runfolder_writer_close(w);
		return false;
	}
	if (ftell(w->timeline) == 0) {
		fprintf(w->timeline, "%s\n", runfolder_timeline_header());
		fflush(w->timeline);
	} else if (!runfolder_header_matches(dir, err, err_size)) {
		runfolder_writer_close(w);
		return false;
	}
	return true;
}

void runfolder_writer_close(struct runfolder_writer *w)
{
	if (w->timeline)
		fclose(w->timeline);
	if (w->events)
		fclose(w->events);
	w->timeline = w->events = NULL;
}

void timeline_row_clear(struct timeline_row *row)
{
	for (int i = 0; i < TIMELINE_COLUMN_COUNT; i++)
		row->cells[i] = NAN;
}

/* Names are ours (targets are checked when parsed), but a comma or quote must not shift columns. */
static void write_text(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
	fputc('"', f);
}

static void write_number(FILE *f, enum timeline_column c, double v)
{
	if (isnan(v))
		return;
	switch (c) {
	case TIMELINE_COL_lat_p50_ms:
	case TIMELINE_COL_lat_p90_ms:
	case TIMELINE_COL_lat_p99_ms:
		fprintf(f, "%.3f", v);
		break;
	case TIMELINE_COL_cpu_user_s:
	case TIMELINE_COL_cpu_sys_s:
		fprintf(f, "%.2f", v);
		break;
	default:
		fprintf(f, "%.0f", v);
	}
}

bool runfolder_writer_row(struct runfolder_writer *w, const struct timeline_row *row)
{
	if (!w->timeline)
		return true;
	FILE *f = w->timeline;
	fprintf(f, "%.3f,", row->t_s);
	write_text(f, row->variant);
	fputc(',', f);
	write_text(f, row->phase);
	fprintf(f, ",%u", row->spike);
	for (int c = TIMELINE_COL_offered; c < TIMELINE_COLUMN_COUNT; c++) {
		fputc(',', f);
		write_number(f, (enum timeline_column)c, row->cells[c]);
	}
	return fputc('\n', f) != EOF;
}

bool runfolder_writer_flush(struct runfolder_writer *w)
{
	return !w->timeline || fflush(w->timeline) == 0;
}

bool runfolder_writer_event(struct runfolder_writer *w, double t_s, const char *variant,
                            const char *event, json_t *extra)
{
	if (!w->events) {
		json_decref(extra);
		return true;
	}
	json_t *obj = json_object();
	/* round to the millisecond so lines stay short and readable */
	json_object_set_new(obj, "t_s", json_real(round(t_s * 1000) / 1000));
	json_object_set_new(obj, "variant", json_string(variant));
	json_object_set_new(obj, "event", json_string(event));
	if (extra) {
		json_object_update(obj, extra);
		json_decref(extra);
	}
	char *line = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
	json_decref(obj);
	if (!line)
		return false;
	bool ok = fprintf(w->events, "%s\n", line) > 0 && fflush(w->events) == 0;
	free(line);
	return ok;
}
