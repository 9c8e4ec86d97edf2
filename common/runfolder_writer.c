/* common/runfolder_writer.c - appends timeline.csv rows and events.jsonl lines to a run folder,
 * flushed; the first failed write stops appending. */
#include "runfolder_writer.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Records the first failure; the file it hit is closed and never written again. */
static void writer_fail(struct runfolder_writer *w, int *fd, const char *name, int error)
{
	if (!w->failure[0])
		snprintf(w->failure, sizeof(w->failure), "%s/%s: %s", w->dir, name,
		         strerror(error));
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* One write(2) as far as the kernel takes it; a short write is a failure (the disk is full). */
static bool writer_write(struct runfolder_writer *w, int *fd, const char *name, const char *data,
                         size_t len)
{
	if (*fd < 0)
		return false;
	while (len > 0) {
		ssize_t n = write(*fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			writer_fail(w, fd, name, n < 0 ? errno : ENOSPC);
			return false;
		}
		data += n;
		len -= (size_t)n;
	}
	return true;
}

static int open_append(const char *dir, const char *name, char *err, size_t err_size)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
	return fd;
}

/* Reads the first line of dir/name into line, and counts its lines; *cut when the last one has no
 * newline. False when there is no such regular file. */
static bool writer_scan(const char *dir, const char *name, char *line, size_t line_size,
                        unsigned long *lines, bool *cut)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "r");
	struct stat st;
	if (f && (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))) {
		fclose(f); /* a device (/dev/null, /dev/full): no lines to keep */
		return false;
	}
	if (!f)
		return false;
	int c, last = '\n';
	size_t len = 0;
	*lines = 0;
	while ((c = getc(f)) != EOF) {
		if (*lines == 0 && c != '\n' && len + 1 < line_size)
			line[len++] = (char)c;
		if (c == '\n')
			(*lines)++;
		last = c;
	}
	line[len] = '\0';
	*cut = last != '\n';
	if (*cut)
		(*lines)++;
	fclose(f);
	return true;
}

/* Appending after a line cut off mid-write would join the next line to it: refuse instead. And
 * rows appended under another header would land in the wrong columns. */
static bool writer_check_existing(const char *dir, const char *name, bool header, char *err,
                                  size_t err_size)
{
	char line[2048];
	unsigned long lines;
	bool cut;
	if (!writer_scan(dir, name, line, sizeof(line), &lines, &cut))
		return true; /* nothing there yet */
	if (cut) {
		snprintf(
		    err, err_size,
		    "%s/%s:%lu: the last line was cut off (a writer stopped mid-line, e.g. on a "
		    "full disk); appending would join a new line to it",
		    dir, name, lines);
		return false;
	}
	line[strcspn(line, "\r")] = '\0';
	if (header && lines > 0 && strcmp(line, runfolder_timeline_header()) != 0) {
		snprintf(err, err_size, "%s/%s:1: the header is not this program's columns (%s...)",
		         dir, name, runfolder_timeline_header());
		return false;
	}
	return true;
}

bool runfolder_writer_open(struct runfolder_writer *w, const char *dir, char *err, size_t err_size)
{
	memset(w, 0, sizeof(*w));
	w->timeline = w->events = -1;
	if (snprintf(w->dir, sizeof(w->dir), "%s", dir) >= (int)sizeof(w->dir)) {
		snprintf(err, err_size, "%s: path too long", dir);
		return false;
	}
	if (!mkdir_p(dir, err, err_size) ||
	    !writer_check_existing(dir, "timeline.csv", true, err, err_size) ||
	    !writer_check_existing(dir, "events.jsonl", false, err, err_size))
		return false;
	w->timeline = open_append(dir, "timeline.csv", err, err_size);
	w->events = w->timeline >= 0 ? open_append(dir, "events.jsonl", err, err_size) : -1;
	if (w->events < 0) {
		if (w->timeline >= 0)
			close(w->timeline);
		w->timeline = -1;
		return false;
	}
	w->open = true;
	struct stat st;
	if (fstat(w->timeline, &st) == 0 && st.st_size == 0) {
		char header[1100];
		int len = snprintf(header, sizeof(header), "%s\n", runfolder_timeline_header());
		if (!writer_write(w, &w->timeline, "timeline.csv", header, (size_t)len)) {
			snprintf(err, err_size, "%s", w->failure);
			runfolder_writer_close(w);
			return false;
		}
	}
	return true;
}

const char *runfolder_writer_failure(const struct runfolder_writer *w)
{
	return w->failure[0] ? w->failure : NULL;
}

bool runfolder_writer_close(struct runfolder_writer *w)
{
	if (!w->open)
		return true;
	runfolder_writer_flush(w);
	int *fds[] = {&w->timeline, &w->events};
	const char *names[] = {"timeline.csv", "events.jsonl"};
	for (int i = 0; i < 2; i++) {
		/* on NFS and the like a failed write may first show here */
		if (*fds[i] >= 0 && close(*fds[i]) != 0 && !w->failure[0])
			snprintf(w->failure, sizeof(w->failure), "%s/%s: %s", w->dir, names[i],
			         strerror(errno));
		*fds[i] = -1;
	}
	free(w->rows);
	w->rows = NULL;
	w->rows_len = w->rows_cap = 0;
	w->open = false;
	return !w->failure[0];
}

void timeline_row_clear(struct timeline_row *row)
{
	for (int i = 0; i < TIMELINE_COLUMN_COUNT; i++)
		row->cells[i] = NAN;
}

/* Appends printf-style text to the row buffer; false when out of memory. */
static bool rows_printf(struct runfolder_writer *w, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		size_t room = w->rows_cap - w->rows_len;
		int n = vsnprintf(w->rows ? w->rows + w->rows_len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return false;
		if ((size_t)n < room) {
			w->rows_len += (size_t)n;
			return true;
		}
		size_t cap = w->rows_cap ? w->rows_cap * 2 : 16384;
		while (cap < w->rows_len + (size_t)n + 1)
			cap *= 2;
		char *more = realloc(w->rows, cap);
		if (!more)
			return false;
		w->rows = more;
		w->rows_cap = cap;
	}
}

/* Names are ours (targets are checked when parsed), but a comma or quote must not shift columns. */
static bool write_text(struct runfolder_writer *w, const char *s)
{
	if (!strpbrk(s, ",\"\n\r"))
		return rows_printf(w, "%s", s);
	bool ok = rows_printf(w, "\"");
	for (; *s && ok; s++) {
		if (*s == '"')
			ok = rows_printf(w, "\"");
		ok = ok && rows_printf(w, "%c", *s == '\n' || *s == '\r' ? ' ' : *s);
	}
	return ok && rows_printf(w, "\"");
}

static bool write_number(struct runfolder_writer *w, enum timeline_column c, double v)
{
	if (isnan(v))
		return true;
	switch (c) {
	case TIMELINE_COL_lat_p50_ms:
	case TIMELINE_COL_lat_p90_ms:
	case TIMELINE_COL_lat_p99_ms:
		return rows_printf(w, "%.3f", v);
	case TIMELINE_COL_cpu_user_s:
	case TIMELINE_COL_cpu_sys_s:
		return rows_printf(w, "%.2f", v);
	default:
		return rows_printf(w, "%.0f", v);
	}
}

bool runfolder_writer_row(struct runfolder_writer *w, const struct timeline_row *row)
{
	if (!w->open)
		return true;
	if (w->timeline < 0)
		return false;
	size_t before = w->rows_len;
	bool ok = rows_printf(w, "%.3f,", row->t_s) && write_text(w, row->variant) &&
	          rows_printf(w, ",") && write_text(w, row->phase) &&
	          rows_printf(w, ",%u", row->spike);
	for (int c = TIMELINE_COL_offered; c < TIMELINE_COLUMN_COUNT && ok; c++)
		ok = rows_printf(w, ",") && write_number(w, (enum timeline_column)c, row->cells[c]);
	if (ok && rows_printf(w, "\n"))
		return true;
	w->rows_len = before; /* never half a row */
	writer_fail(w, &w->timeline, "timeline.csv", ENOMEM);
	return false;
}

bool runfolder_writer_flush(struct runfolder_writer *w)
{
	if (!w->open)
		return true;
	bool ok = writer_write(w, &w->timeline, "timeline.csv", w->rows, w->rows_len);
	w->rows_len = 0;
	return ok;
}

bool runfolder_writer_event(struct runfolder_writer *w, double t_s, const char *variant,
                            const char *event, json_t *extra)
{
	if (!w->open || w->events < 0) {
		json_decref(extra);
		return !w->open;
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
	size_t len = strlen(line);
	char *nl = realloc(line, len + 2);
	bool ok = false;
	if (nl) {
		line = nl;
		line[len] = '\n';
		ok = writer_write(w, &w->events, "events.jsonl", line, len + 1);
	}
	free(line);
	return ok;
}
