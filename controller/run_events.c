/* controller/run_events.c - a served run's events and their clock (run_events.h). */
#include "run_events.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "event_line.h"
#include "monotonic.h"
#include "runfolder_reader.h"

static double run_events_now(void)
{
	return (double)realtime_ns() / 1e9;
}

void run_events_init(struct run_events *ev)
{
	memset(ev, 0, sizeof(*ev));
	for (unsigned i = 0; i <= RUN_EVENTS_PUSH_MAX; i++)
		ev->files[i].fd = -1;
}

static struct run_events_file *run_events_top(struct run_events *ev)
{
	return &ev->files[ev->depth];
}

/* One line in one write(2): the generator appends to the same file (O_APPEND), lines never mix. */
static void run_events_write(struct run_events_file *f, double t_s, const char *variant,
                             const char *event, const json_t *fields, double unix_s)
{
	char *text = event_line_text(t_s, variant, event, fields, unix_s);
	size_t len = text ? strlen(text) : 0;
	char *line = text ? realloc(text, len + 2) : NULL;
	if (!line) {
		free(text);
		fprintf(stderr, "allocspike-run: %s: event %s of %s not recorded (out of memory)\n",
		        f->path, event, variant);
		return;
	}
	line[len] = '\n';
	ssize_t n = write(f->fd, line, len + 1);
	if (n != (ssize_t)(len + 1))
		fprintf(stderr, "allocspike-run: %s: event %s of %s not recorded: %s\n", f->path,
		        event, variant, n < 0 ? strerror(errno) : "short write");
	free(line);
}

/* The pending events written, in their order, against origin. */
static void run_events_flush(struct run_events_file *f, double origin)
{
	for (size_t i = 0; i < f->pending_count; i++) {
		struct run_event *e = &f->pending[i];
		run_events_write(f, e->unix_s - origin, e->variant, e->event, e->fields, e->unix_s);
		free(e->variant);
		free(e->event);
		json_decref(e->fields);
	}
	f->pending_count = 0;
}

/* What is pending written (against now when there is no origin), the file closed. */
static void run_events_file_close(struct run_events_file *f)
{
	if (f->fd >= 0) {
		run_events_flush(f, f->has_origin ? f->origin_unix_s : run_events_now());
		close(f->fd);
	}
	free(f->pending);
	memset(f, 0, sizeof(*f));
	f->fd = -1;
}

static bool run_events_file_open(struct run_events_file *f, const char *path, int flags, char *err,
                                 size_t err_size)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | flags, 0644);
	if (fd < 0) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return false;
	}
	snprintf(f->path, sizeof(f->path), "%s", path);
	f->fd = fd;
	return true;
}

void run_events_free(struct run_events *ev)
{
	run_events_close(ev);
	run_events_file_close(&ev->files[0]);
}

bool run_events_open(struct run_events *ev, const char *path, char *err, size_t err_size)
{
	struct run_events_file next = {.fd = -1};
	if (!run_events_file_open(&next, path, O_EXCL, err, err_size))
		return false; /* the file before stays */
	run_events_close(ev);
	run_events_file_close(&ev->files[0]);
	ev->files[0] = next;
	return true;
}

bool run_events_push(struct run_events *ev, const char *path, char *err, size_t err_size)
{
	if (ev->depth == RUN_EVENTS_PUSH_MAX) {
		snprintf(err, err_size, "%d files are pushed already", RUN_EVENTS_PUSH_MAX);
		return false;
	}
	if (!run_events_file_open(&ev->files[ev->depth + 1], path, 0, err, err_size))
		return false;
	ev->depth++;
	return true;
}

bool run_events_pop(struct run_events *ev, char *err, size_t err_size)
{
	if (ev->depth == 0) {
		snprintf(err, err_size, "no file is pushed");
		return false;
	}
	run_events_file_close(run_events_top(ev));
	ev->depth--;
	return true;
}

bool run_events_ready(const struct run_events *ev)
{
	return ev->files[ev->depth].fd >= 0;
}

void run_events_add(struct run_events *ev, const char *variant, const char *event, json_t *fields)
{
	struct run_events_file *f = run_events_top(ev);
	double now = run_events_now();
	if (f->fd < 0) {
		fprintf(stderr, "allocspike-run: no events file yet: event %s of %s not recorded\n",
		        event, variant);
	} else if (f->has_origin) {
		run_events_write(f, now - f->origin_unix_s, variant, event, fields, now);
	} else {
		if (f->pending_count == f->pending_cap) {
			size_t cap = f->pending_cap ? 2 * f->pending_cap : 32;
			struct run_event *more = realloc(f->pending, cap * sizeof(*more));
			if (!more) {
				fprintf(
				    stderr,
				    "allocspike-run: event %s of %s not recorded (out of memory)\n",
				    event, variant);
				json_decref(fields);
				return;
			}
			f->pending = more;
			f->pending_cap = cap;
		}
		f->pending[f->pending_count++] = (struct run_event){
		    .unix_s = now,
		    .variant = strdup(variant),
		    .event = strdup(event),
		    .fields = fields ? fields : json_object(),
		};
		return; /* fields kept */
	}
	json_decref(fields);
}

double run_events_origin(struct run_events *ev, double unix_s)
{
	struct run_events_file *f = run_events_top(ev);
	if (isnan(unix_s))
		unix_s = run_events_now();
	f->has_origin = true;
	f->origin_unix_s = unix_s;
	run_events_flush(f, unix_s);
	return unix_s;
}

off_t run_events_size(const struct run_events *ev)
{
	struct stat st;
	const struct run_events_file *f = &ev->files[ev->depth];
	return f->fd >= 0 && fstat(f->fd, &st) == 0 ? st.st_size : -1;
}

json_t *run_events_file_find(const char *path, off_t from, const char *variant, const char *event)
{
	int fd = from >= 0 ? open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	json_t *found = NULL;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	bool at = fseeko(f, from, SEEK_SET) == 0;
	/* whole lines only: the last one may still be being written */
	while (at && !found && (n = getline(&line, &cap, f)) > 0 && line[n - 1] == '\n') {
		json_t *o = json_loadb(line, (size_t)n - 1, 0, NULL);
		const char *v = json_string_value(json_object_get(o, "variant"));
		const char *e = json_string_value(json_object_get(o, "event"));
		if (v && e && (!variant || strcmp(v, variant) == 0) && strcmp(e, event) == 0)
			found = o;
		else
			json_decref(o);
	}
	free(line);
	fclose(f);
	return found;
}

bool run_events_find_instant(const struct run_events *ev, off_t from, const char *variant,
                             const char *event, const char *field, double *unix_s)
{
	const struct run_events_file *f = &ev->files[ev->depth];
	json_t *o = f->fd >= 0 ? run_events_file_find(f->path, from, variant, event) : NULL;
	int64_t ns;
	bool found = o && runfolder_realtime_ns(json_string_value(json_object_get(o, field)), &ns);
	if (found)
		*unix_s = (double)ns / 1e9;
	json_decref(o);
	return found;
}

void run_events_origin_clear(struct run_events *ev)
{
	run_events_top(ev)->has_origin = false;
}

void run_events_close(struct run_events *ev)
{
	while (ev->depth > 0) {
		run_events_file_close(run_events_top(ev));
		ev->depth--;
	}
	/* as if the schedule started now: later events count from here too */
	struct run_events_file *f = &ev->files[0];
	if (f->fd >= 0 && f->pending_count > 0)
		run_events_origin(ev, f->has_origin ? f->origin_unix_s : NAN);
}

void run_events_hand_over(void *ctx, const char *variant, const char *event, json_t *extra)
{
	if (run_events_ready(ctx))
		run_events_add(ctx, variant, event, extra);
	else /* a run that keeps no events (the scenario never asked for a file) */
		json_decref(extra);
}
