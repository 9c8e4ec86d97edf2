/* controller/serve_drive.c - a served run's `drive` request's words (serve_drive.h). */
#include "serve_drive.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "identifier.h"
#include "place_command.h"
#include "variant_command.h"

#define DRIVE_WORDS 8 /* drive DIR SCHEDULE LOADGEN QUERIES CPUS ROW_CPUS TIMEOUT */
#define DRIVE_USAGE                                                                                \
	"drive DIR SCHEDULE LOADGEN QUERIES CPUS ROW_CPUS TIMEOUT [wrap=ROW:WORDS] "               \
	"[during=WORDS] [stop-child=GRACE] [serial] [place=WORDS] -- ROW... is expected"
/* The environment word by which a row's wrap tells the live sampler preloaded into it where to
 * listen (docs/daemons.md): the during process polls it there. */
#define DRIVE_SAMPLER_ENV "ALLOCSPIKE_SAMPLER_SOCKET="

enum { W_DIR = 1, W_SCHEDULE, W_LOADGEN, W_QUERIES, W_CPUS, W_ROW_CPUS, W_TIMEOUT };

static int drive_row_index(const struct serve_drive *d, const char *name, size_t len)
{
	for (int i = 0; i < d->row_count; i++) {
		const char *row = d->words[d->rows_at + i];
		if (strlen(row) == len && strncmp(row, name, len) == 0)
			return i;
	}
	return -1;
}

/* One option word; false with the error in reply. */
static bool drive_option(struct serve_drive *d, int at, char *reply, size_t size)
{
	const char *word = d->words[at];
	if (strncmp(word, "wrap=", 5) == 0) {
		const char *colon = strchr(word + 5, ':');
		int row = colon ? drive_row_index(d, word + 5, (size_t)(colon - word - 5)) : -1;
		if (row < 0 || !colon[1]) {
			snprintf(
			    reply, size,
			    "error: drive: wrap=ROW:WORDS of one of the rows given, its words one "
			    "a line, is expected");
			return false;
		}
		d->wrap_of[row] = at;
	} else if (strncmp(word, "during=", 7) == 0) {
		/* NAME, LOG and at least a program, one a line */
		const char *log = strchr(word + 7, '\n');
		const char *program = log ? strchr(log + 1, '\n') : NULL;
		if (!program || !program[1] || log == word + 7 || program == log + 1) {
			snprintf(reply, size,
			         "error: drive: during=NAME, LOG and COMMAND, one word a line, is "
			         "expected");
			return false;
		}
		d->during_at = at;
	} else if (strncmp(word, "stop-child=", 11) == 0) {
		char err[256];
		if (!cli_parse_duration("drive stop-child", word + 11, 1, 0, 3600, &d->stop_child_s,
		                        err, sizeof(err))) {
			snprintf(reply, size, "error: %s", err);
			return false;
		}
	} else if (strcmp(word, "serial") == 0) {
		d->serial = true;
	} else if (strncmp(word, "place=", 6) == 0) {
		if (!word[6] || word[6] == '\n') {
			snprintf(reply, size,
			         "error: drive: place=WORDS, allocspike-run place's options one a "
			         "line, is expected");
			return false;
		}
		d->place_at = at;
	} else { /* the word up to a line break: the answer is one line */
		snprintf(reply, size,
		         "error: drive: '%.*s' is no option (wrap=ROW:WORDS, during=WORDS, "
		         "stop-child=GRACE, serial, place=WORDS)",
		         (int)strcspn(word, "\n\r"), word);
		return false;
	}
	return true;
}

bool serve_drive_parse(struct serve_drive *d, char **w, int n, char *reply, size_t size)
{
	int dashes = DRIVE_WORDS;
	while (dashes < n && strcmp(w[dashes], "--") != 0)
		dashes++;
	if (n <= DRIVE_WORDS || dashes + 1 >= n || n - dashes - 1 > SUPERVISOR_MAX_PROCESSES) {
		snprintf(reply, size, "error: " DRIVE_USAGE);
		return false;
	}
	double timeout;
	char err[256];
	if (!cli_parse_duration("drive TIMEOUT", w[W_TIMEOUT], 1, 0, SERVE_ROWS_READY_MAX_S,
	                        &timeout, err, sizeof(err))) {
		snprintf(reply, size, "error: %s", err);
		return false;
	}
	*d = (struct serve_drive){.rows_at = dashes + 1,
	                          .row_count = n - dashes - 1,
	                          .during_at = -1,
	                          .place_at = -1,
	                          .stop_child_s = -1,
	                          .during_proc = -1};
	for (int i = 0; i < d->row_count; i++) {
		d->wrap_of[i] = -1;
		if (!identifier_valid(w[d->rows_at + i], err, sizeof(err))) {
			snprintf(reply, size, "error: drive: ROW: %s", err);
			return false;
		}
	}
	size_t count = 0;
	for (int i = 0; i < n; i++)
		if (!variant_words_add(&d->words, &count, w[i])) {
			snprintf(reply, size, "error: out of memory");
			serve_drive_end(d);
			return false;
		}
	for (int at = DRIVE_WORDS; at < dashes; at++)
		if (!drive_option(d, at, reply, size)) {
			serve_drive_end(d);
			return false;
		}
	/* the placed rows run on their agents, together: nothing of ours to wrap or run beside */
	if (d->place_at >= 0 && (d->serial || d->during_at >= 0 || d->stop_child_s >= 0)) {
		snprintf(reply, size,
		         "error: drive: place= goes without serial, during= and stop-child=");
		serve_drive_end(d);
		return false;
	}
	for (int i = 0; d->place_at >= 0 && i < d->row_count; i++)
		if (d->wrap_of[i] >= 0) {
			snprintf(reply, size, "error: drive: place= goes without wrap=");
			serve_drive_end(d);
			return false;
		}
	d->active = true;
	return true;
}

char **serve_drive_rows(const struct serve_drive *d)
{
	return d->words + d->rows_at;
}

int serve_drive_next_group(struct serve_drive *d, int *first)
{
	*first = d->next_row;
	int count = d->serial ? 1 : d->row_count - d->next_row;
	if (count > d->row_count - d->next_row)
		count = 0;
	d->next_row += count;
	return count;
}

/* list (NULL when out of memory: freed), its length into *count. */
static char **drive_done(char **list, size_t n, bool ok, int *count)
{
	if (!ok) {
		variant_words_free(list);
		return NULL;
	}
	*count = (int)n;
	return list;
}

char **serve_drive_row_start(const struct serve_drive *d, int i, int *count)
{
	char **list = NULL;
	size_t n = 0;
	char **w = d->words;
	bool ok = variant_words_add_list(&list, &n, "row-start", w[d->rows_at + i], w[W_DIR],
	                                 w[W_ROW_CPUS]);
	if (ok && d->wrap_of[i] >= 0)
		ok = variant_words_add(&list, &n, "--") &&
		     variant_words_add_lines(&list, &n, strchr(w[d->wrap_of[i]], ':') + 1);
	return drive_done(list, n, ok, count);
}

char **serve_drive_rows_ready(const struct serve_drive *d, const char *const *names, int n_names,
                              int *count)
{
	char **list = NULL;
	size_t n = 0;
	bool ok = variant_words_add_list(&list, &n, "rows-ready", d->words[W_TIMEOUT]) &&
	          variant_words_add_n(&list, &n, names, (size_t)n_names);
	return drive_done(list, n, ok, count);
}

/* Where row i's wrap tells its preloaded sampler to listen, or NULL. */
static const char *drive_sampler(const struct serve_drive *d, int i, size_t *len)
{
	if (i < 0 || d->wrap_of[i] < 0)
		return NULL;
	const char *at = strstr(d->words[d->wrap_of[i]], "\n" DRIVE_SAMPLER_ENV);
	if (!at)
		return NULL;
	at += 1 + strlen(DRIVE_SAMPLER_ENV);
	*len = strcspn(at, "\n");
	return at;
}

char **serve_drive_during_start(const struct serve_drive *d, struct serve_rows *rows,
                                const char *const *names, int n_names, int *count)
{
	if (d->during_at < 0)
		return NULL;
	const char *spec = d->words[d->during_at] + 7;
	const char *log = strchr(spec, '\n') + 1;
	const char *command = strchr(log, '\n') + 1;
	char name[80], path[PATH_MAX];
	snprintf(name, sizeof(name), "%.*s", (int)(log - 1 - spec), spec);
	snprintf(path, sizeof(path), "%.*s", (int)(command - 1 - log), log);
	char **list = NULL;
	size_t n = 0;
	bool ok = variant_words_add_list(&list, &n, "start", name, path, "", "--") &&
	          variant_words_add_lines(&list, &n, command);
	for (int i = 0; ok && i < n_names; i++) {
		const struct served_row *row = serve_rows_named(rows, names[i]);
		size_t len = 0;
		const char *sampler =
		    drive_sampler(d, drive_row_index(d, names[i], strlen(names[i])), &len);
		char word[3 * PATH_MAX];
		if (sampler)
			snprintf(word, sizeof(word), "%s=%.*s,%s", names[i], (int)len, sampler,
			         row ? row->control : "");
		else
			snprintf(word, sizeof(word), "%s=%s", names[i], row ? row->control : "");
		ok = variant_words_add(&list, &n, word);
	}
	return drive_done(list, n, ok, count);
}

char **serve_drive_place_start(const struct serve_drive *d, const char *bin_dir, int *count)
{
	char **list = NULL, **w = d->words;
	size_t n = 0;
	char log[PATH_MAX + 32], rows[SUPERVISOR_MAX_PROCESSES * (IDENTIFIER_MAX_LEN + 1) + 1] = "";
	snprintf(log, sizeof(log), "%s/logs/place.log", w[W_DIR]);
	for (int i = 0; i < d->row_count; i++) /* place places the drive's rows, no other */
		snprintf(rows + strlen(rows), sizeof(rows) - strlen(rows), "%s%s", i ? "," : "",
		         serve_drive_rows(d)[i]);
	bool ok = variant_words_add_list(&list, &n, "start", "_place", log, w[W_CPUS], "--") &&
	          place_command_add(&list, &n, bin_dir, w[W_DIR], w[W_SCHEDULE], w[W_QUERIES], rows,
	                            w[d->place_at] + 6);
	return drive_done(list, n, ok, count);
}

char **serve_drive_generate(const struct serve_drive *d, const char *const *names, int n_names,
                            int *count)
{
	char **list = NULL;
	size_t n = 0;
	char **w = d->words;
	bool ok = variant_words_add_list(&list, &n, "generate", w[W_LOADGEN], w[W_DIR],
	                                 w[W_SCHEDULE], w[W_QUERIES], w[W_CPUS]) &&
	          variant_words_add_n(&list, &n, names, (size_t)n_names);
	return drive_done(list, n, ok, count);
}

void serve_drive_end(struct serve_drive *d)
{
	variant_words_free(d->words);
	d->words = NULL;
	d->active = false;
}
