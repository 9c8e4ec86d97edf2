/* controller/serve_queries.c - a served run's `queries` request (serve_queries.h). */
#include "serve_queries.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_file.h"
#include "run_json.h"

/* q->start made of q->command's argc words. */
static void sq_start_words(struct serve_queries *q, int argc)
{
	char *head[] = {"start", "_querydata", q->log, "", "--"};
	q->start_count = 0;
	for (size_t i = 0; i < sizeof(head) / sizeof(*head); i++)
		q->start[q->start_count++] = head[i];
	for (int i = 0; i < argc; i++)
		q->start[q->start_count++] = q->command[i];
	q->start[q->start_count] = NULL;
}

/* run.json's queryfile (path, generated, stats: the statistics' file as written, null when there is
 * none) and the answer `ok PATH`. */
static void sq_record(struct serve_queries *q, const struct serve_rows_host *h, char *reply,
                      size_t size)
{
	char err[256];
	json_t *stats =
	    access(q->stats, F_OK) == 0 ? json_file_load(q->stats, err, sizeof(err)) : NULL;
	json_t *generated = query_file_generated(&q->file);
	char *stats_text = json_dumps(stats ? stats : json_null(), JSON_COMPACT | JSON_ENCODE_ANY);
	char *generated_text = json_dumps(generated, JSON_COMPACT | JSON_ENCODE_ANY);
	char *words[5] = {"runjson-fields", ".queryfile"};
	if (stats_text && generated_text && asprintf(&words[2], "path=%s", q->file.path) >= 0 &&
	    asprintf(&words[3], "generated:=%s", generated_text) >= 0 &&
	    asprintf(&words[4], "stats:=%s", stats_text) >= 0) {
		serve_runfolder_request(h->runfolder, h->sup, h->events, words, 5, reply, size);
		if (strcmp(reply, "ok") == 0)
			snprintf(reply, size, "ok %s", q->file.path);
	} else {
		snprintf(reply, size, "error: queries: out of memory");
	}
	for (int i = 2; i < 5; i++)
		free(words[i]);
	free(stats_text);
	free(generated_text);
	json_decref(generated);
	json_decref(stats);
}

/* The statistics' process into q->start (true), or, without allocspike-querydata, the records
 * made and the answer in reply (false). */
static bool sq_stats(struct serve_queries *q, const struct serve_rows_host *h, char *reply,
                     size_t size)
{
	q->generating = false;
	remove(q->stats); /* an earlier request's is not this file's */
	if (access(q->querydata, X_OK) != 0) {
		sq_record(q, h, reply, size);
		return false;
	}
	char *command[] = {q->querydata, "stats", "--json", "--out", q->stats, q->file.path};
	for (int i = 0; i < 6; i++)
		q->command[i] = command[i];
	q->command[6] = NULL;
	sq_start_words(q, 6);
	return true;
}

bool serve_queries_prepare(struct serve_queries *q, const struct serve_rows_host *h, char **w,
                           int n, char *reply, size_t size)
{
	const struct serve_runfolder *rf = h->runfolder;
	if (n != 4) {
		snprintf(reply, size, "error: queries COUNT CACHE_DIR QUERYDATA is expected");
		return false;
	}
	if (!rf->dir[0]) {
		snprintf(reply, size, "error: queries: no run folder (ask `begin` first)");
		return false;
	}
	char err[PATH_MAX + 512];
	const json_t *options;
	json_t *doc = run_json_options_load(rf->run_json, &options, err, sizeof(err));
	if (!doc) {
		snprintf(reply, size, "error: queries: %s", err);
		return false;
	}
	snprintf(q->querydata, sizeof(q->querydata), "%s", w[3]);
	bool ok = query_file_choose(&q->file, options, w[1], w[2], rf->dir, q->querydata, err,
	                            sizeof(err));
	json_decref(doc);
	if (!ok) {
		snprintf(reply, size, "failed %s", err);
		return false;
	}
	snprintf(q->log, sizeof(q->log), "%s/logs/querydata.log", rf->dir);
	snprintf(q->stats, sizeof(q->stats), "%s/queryfile-stats.json", rf->dir);
	struct stat st;
	if (!q->file.generated || (stat(q->file.path, &st) == 0 && st.st_size > 0))
		return sq_stats(q, h, reply, size);
	fprintf(stderr, "%s: generating %s queries (seed %s%s) into %s\n", rf->scenario,
	        q->file.count_text, q->file.seed_text, q->file.flat ? ", the flat world mix" : "",
	        q->file.path);
	sq_start_words(q, query_file_generate_argv(&q->file, q->querydata, q->command));
	q->generating = true;
	return true;
}

bool serve_queries_ended(struct serve_queries *q, const struct serve_rows_host *h, bool ok,
                         char *reply, size_t size)
{
	if (!q->generating) { /* the statistics are there or not: recorded as they are */
		sq_record(q, h, reply, size);
		return true;
	}
	if (!ok) {
		snprintf(reply, size, "failed allocspike-querydata generate failed (see %s)",
		         q->log);
		return true;
	}
	return !sq_stats(q, h, reply, size);
}
