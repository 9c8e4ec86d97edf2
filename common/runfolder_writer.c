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

#include "atomic_write_file.h"

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
	/* never through a link planted in the run folder */
	int fd = file_open_for_writing(path, O_APPEND | O_CREAT);
	if (fd < 0)
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
	return fd;
}

/* Creates dir/name holding its header line, unless something is there already: the header goes to
 * a temporary file that is then linked into place, which fails when another writer got there
 * first. Two programs that open one run folder at once (the generator and the controller's
 * collector) then never both see an empty timeline and both write its header. */
static bool create_with_header(const char *dir, const char *name, const char *header, char *err,
                               size_t err_size)
{
	char path[4200], tmp[4300];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = atomic_file_create_temp(path, tmp, sizeof(tmp));
	if (fd < 0) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return false;
	}
	size_t len = strlen(header);
	bool ok = write(fd, header, len) == (ssize_t)len && write(fd, "\n", 1) == 1;
	ok = close(fd) == 0 && ok;
	if (ok && link(tmp, path) != 0 && errno != EEXIST)
		ok = false;
	int e = errno;
	unlink(tmp);
	if (!ok)
		snprintf(err, err_size, "%s: %s", path, strerror(e));
	return ok;
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
static bool writer_check_existing(const char *dir, const char *name, const char *header, char *err,
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
	if (header && lines > 0 && strcmp(line, header) != 0) {
		snprintf(err, err_size, "%s/%s:1: the header is not this program's columns (%s...)",
		         dir, name, header);
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
	    !writer_check_existing(dir, "timeline.csv", runfolder_timeline_header(), err,
	                           err_size) ||
	    !writer_check_existing(dir, "events.jsonl", NULL, err, err_size) ||
	    !writer_check_existing(dir, "phases.csv", runfolder_phases_header, err, err_size) ||
	    !writer_check_existing(dir, "latency_hist.csv", runfolder_latency_hist_header, err,
	                           err_size))
		return false;
	char timeline[4200];
	struct stat st;
	snprintf(timeline, sizeof(timeline), "%s/timeline.csv", dir);
	if (lstat(timeline, &st) != 0 && errno == ENOENT &&
	    !create_with_header(dir, "timeline.csv", runfolder_timeline_header(), err, err_size))
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
	/* an empty file found there (it has no header yet), or a character device or FIFO */
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
	free(w->rows.data);
	w->rows = (struct text_buffer){0};
	w->open = false;
	return !w->failure[0];
}

void timeline_row_clear(struct timeline_row *row)
{
	for (int i = 0; i < TIMELINE_COLUMN_COUNT; i++)
		row->cells[i] = NAN;
}

/* Appends printf-style text to b; false when out of memory. */
static bool text_printf(struct text_buffer *b, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		size_t room = b->cap - b->len;
		int n = vsnprintf(b->data ? b->data + b->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return false;
		if ((size_t)n < room) {
			b->len += (size_t)n;
			return true;
		}
		size_t cap = b->cap ? b->cap * 2 : 16384;
		while (cap < b->len + (size_t)n + 1)
			cap *= 2;
		char *more = realloc(b->data, cap);
		if (!more)
			return false;
		b->data = more;
		b->cap = cap;
	}
}

/* Names are ours (targets are checked when parsed), but a comma or quote must not shift columns. */
static bool write_text(struct text_buffer *b, const char *s)
{
	if (!strpbrk(s, ",\"\n\r"))
		return text_printf(b, "%s", s);
	bool ok = text_printf(b, "\"");
	for (; *s && ok; s++) {
		if (*s == '"')
			ok = text_printf(b, "\"");
		ok = ok && text_printf(b, "%c", *s == '\n' || *s == '\r' ? ' ' : *s);
	}
	return ok && text_printf(b, "\"");
}

static bool write_number(struct text_buffer *b, enum timeline_column c, double v)
{
	if (isnan(v))
		return true;
	switch (c) {
	case TIMELINE_COL_lat_p50_ms:
	case TIMELINE_COL_lat_p90_ms:
	case TIMELINE_COL_lat_p99_ms:
		return text_printf(b, "%.3f", v);
	case TIMELINE_COL_cpu_user_s:
	case TIMELINE_COL_cpu_sys_s:
		return text_printf(b, "%.2f", v);
	default:
		return text_printf(b, "%.0f", v);
	}
}

bool runfolder_writer_row(struct runfolder_writer *w, const struct timeline_row *row)
{
	if (!w->open)
		return true;
	if (w->timeline < 0)
		return false;
	struct text_buffer *b = &w->rows;
	size_t before = b->len;
	bool ok = text_printf(b, "%.3f,", row->t_s) && write_text(b, row->variant) &&
	          text_printf(b, ",") && write_text(b, row->phase) &&
	          text_printf(b, ",%u", row->spike);
	for (int c = TIMELINE_COL_offered; c < TIMELINE_COLUMN_COUNT && ok; c++)
		ok = text_printf(b, ",") && write_number(b, (enum timeline_column)c, row->cells[c]);
	if (ok && text_printf(b, "\n"))
		return true;
	b->len = before; /* never half a row */
	writer_fail(w, &w->timeline, "timeline.csv", ENOMEM);
	return false;
}

bool runfolder_writer_flush(struct runfolder_writer *w)
{
	if (!w->open)
		return true;
	bool ok = writer_write(w, &w->timeline, "timeline.csv", w->rows.data, w->rows.len);
	w->rows.len = 0;
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

const char runfolder_phases_header[] = PHASES_HEADER;
const char runfolder_latency_hist_header[] = "variant,phase,spike,upper_us,count";

enum { PHASES_CSV, LATENCY_HIST_CSV };
static const char *const phases_files[2] = {"phases.csv", "latency_hist.csv"};
/* Text is written out in pieces of about this size, so a long schedule needs no large buffer. */
#define PHASES_WRITE_BYTES 65536

static void phases_path(const struct runfolder_writer *w, int file, char *path, size_t size)
{
	snprintf(path, size, "%s/%s", w->dir, phases_files[file]);
}

static bool phases_failed(const struct runfolder_phases *f)
{
	return f->fds[PHASES_CSV] < 0 || f->fds[LATENCY_HIST_CSV] < 0;
}

/* Writes what is buffered for file (all of it, or only once there is a piece's worth). */
static void phases_write(struct runfolder_phases *f, int file, bool all)
{
	struct text_buffer *b = &f->text[file];
	if (f->fds[file] >= 0 && (all || b->len >= PHASES_WRITE_BYTES))
		writer_write(f->w, &f->fds[file], phases_files[file], b->data, b->len);
	if (all || b->len >= PHASES_WRITE_BYTES)
		b->len = 0;
}

static void phases_printf_failed(struct runfolder_phases *f, int file)
{
	writer_fail(f->w, &f->fds[file], phases_files[file], ENOMEM);
}

/* Copies the rows of other variants from the file in place (serial runs: one generator per
 * variant writes into the same folder, each its own rows). */
static void phases_keep_others(struct runfolder_phases *f, int file, const char *const *variants,
                               unsigned count)
{
	char path[4200];
	phases_path(f->w, file, path, sizeof(path));
	FILE *in = fopen(path, "r");
	if (!in)
		return;
	struct text_buffer ours = {0}; /* "NAME," as the rows start, quoted as they are */
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	for (bool header = true; (n = getline(&line, &cap, in)) > 0; header = false) {
		bool keep = !header && line[n - 1] == '\n';
		for (unsigned i = 0; i < count && keep; i++) {
			ours.len = 0;
			if (write_text(&ours, variants[i]) && text_printf(&ours, ",") &&
			    strncmp(line, ours.data, ours.len) == 0)
				keep = false;
		}
		if (keep && !text_printf(&f->text[file], "%s", line))
			phases_printf_failed(f, file);
		phases_write(f, file, false);
	}
	free(line);
	free(ours.data);
	fclose(in);
}

bool runfolder_phases_begin(struct runfolder_writer *w, struct runfolder_phases *f,
                            const char *const *variants, unsigned count)
{
	*f = (struct runfolder_phases){.w = w, .fds = {-1, -1}};
	if (!w->open)
		return true;
	const char *headers[2] = {runfolder_phases_header, runfolder_latency_hist_header};
	for (int file = 0; file < 2; file++) {
		char path[4200];
		phases_path(w, file, path, sizeof(path));
		f->fds[file] = atomic_file_create_temp(path, f->tmp[file], sizeof(f->tmp[file]));
		if (f->fds[file] < 0) {
			writer_fail(w, &f->fds[file], phases_files[file], errno);
			break;
		}
		if (!text_printf(&f->text[file], "%s\n", headers[file]))
			phases_printf_failed(f, file);
		phases_keep_others(f, file, variants, count);
	}
	return !phases_failed(f);
}

/* A quantile cell in milliseconds, empty without answers; the middle of its bucket, but never
 * above the slowest answer (the top bucket's middle may be). */
static bool phases_quantile(struct text_buffer *b, const struct phase_row *row, double q)
{
	if (row->latency->count == 0)
		return true;
	double ns = latency_hist_quantile(row->latency, q);
	return text_printf(b, "%.3f", (ns < (double)row->max_ns ? ns : (double)row->max_ns) / 1e6);
}

void runfolder_phases_row(struct runfolder_phases *f, const struct phase_row *row)
{
	if (!f->w->open || phases_failed(f))
		return;
	struct text_buffer *b = &f->text[PHASES_CSV];
	const struct latency_hist *h = row->latency;
	bool ok =
	    write_text(b, row->variant) && text_printf(b, ",%s,%u", row->phase, row->spike) &&
	    text_printf(b, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu",
	                (unsigned long long)row->sent, (unsigned long long)row->answered,
	                (unsigned long long)row->timeouts, (unsigned long long)row->pending,
	                (unsigned long long)row->late_or_foreign, (unsigned long long)row->noerror,
	                (unsigned long long)row->nxdomain, (unsigned long long)row->servfail,
	                (unsigned long long)row->rcode_other);
	const double quantiles[] = {0.5, 0.9, 0.99, 0.999};
	for (size_t i = 0; i < sizeof(quantiles) / sizeof(quantiles[0]) && ok; i++)
		ok = text_printf(b, ",") && phases_quantile(b, row, quantiles[i]);
	ok = ok && text_printf(b, ",") &&
	     (h->count == 0 || text_printf(b, "%.3f", (double)row->max_ns / 1e6)) &&
	     text_printf(b, "\n");
	if (!ok) {
		phases_printf_failed(f, PHASES_CSV);
		return;
	}
	phases_write(f, PHASES_CSV, false);
	b = &f->text[LATENCY_HIST_CSV];
	for (unsigned i = 0; i < LATENCY_HIST_BUCKETS && ok; i++) {
		if (!h->buckets[i])
			continue;
		uint64_t low, high;
		latency_hist_bucket_range(i, &low, &high);
		ok = write_text(b, row->variant) &&
		     text_printf(b, ",%s,%u,%.3f,%llu\n", row->phase, row->spike,
		                 (double)high / 1e3, (unsigned long long)h->buckets[i]);
		phases_write(f, LATENCY_HIST_CSV, false);
	}
	if (!ok)
		phases_printf_failed(f, LATENCY_HIST_CSV);
}

bool runfolder_phases_commit(struct runfolder_phases *f)
{
	struct runfolder_writer *w = f->w;
	if (!w->open)
		return true;
	for (int file = 0; file < 2; file++) {
		phases_write(f, file, true);
		free(f->text[file].data);
		f->text[file] = (struct text_buffer){0};
	}
	bool ok = !phases_failed(f);
	for (int file = 0; file < 2; file++) {
		int fd = f->fds[file];
		f->fds[file] = -1;
		if (fd >= 0 && close(fd) != 0 && ok) {
			writer_fail(w, &f->fds[file], phases_files[file], errno);
			ok = false;
		}
	}
	/* latency_hist.csv first: phases.csv in place says its histograms are too */
	for (int file = LATENCY_HIST_CSV; file >= 0; file--) {
		char path[4200];
		phases_path(w, file, path, sizeof(path));
		if (!f->tmp[file][0])
			continue; /* never created */
		if (ok && rename(f->tmp[file], path) != 0) {
			writer_fail(w, &f->fds[file], phases_files[file], errno);
			ok = false;
		}
		if (!ok)
			unlink(f->tmp[file]);
	}
	return ok;
}
