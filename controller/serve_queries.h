/* controller/serve_queries.h - a served run's `queries` request (docs/controller.md, "The query
 * file"): the run's query file chosen from run.json's options (query_file.h); the default generated
 * when the cache does not have it, then its statistics taken, each by allocspike-querydata started
 * as _querydata, a process of the run (serve.c holds the request until each exits, at most
 * SERVE_QUERIES_TIMEOUT_S); run.json's queryfile recorded (path, generated, stats) and the scenario
 * answered `ok PATH`, or `failed REASON` when the file cannot be had. */
#ifndef ALLOCSPIKE_CONTROLLER_SERVE_QUERIES_H
#define ALLOCSPIKE_CONTROLLER_SERVE_QUERIES_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "query_file.h"
#include "serve_rows.h"

#define SERVE_QUERIES_REQUESTS "queries"
/* 2 million queries, the most a schedule asks for, take about a second to generate; a user's file
 * may be far longer, and compressed, for its statistics */
#define SERVE_QUERIES_TIMEOUT_S 600.0
#define SERVE_QUERIES_STOP_GRACE_S 5.0

struct serve_queries {
	struct query_file file;
	char querydata[PATH_MAX];
	char log[PATH_MAX + 32], stats[PATH_MAX + 32];
	bool generating; /* the process under way generates (else it takes the statistics) */
	char *command[QUERY_FILE_MAX_ARGS + 1]; /* allocspike-querydata's words, q's own */
	/* `start _querydata LOG CPUS -- COMMAND...`, for serve.c's start */
	char *start[QUERY_FILE_MAX_ARGS + 8];
	int start_count;
};

/* queries COUNT CACHE_DIR QUERYDATA: the file chosen (COUNT queries for the default, kept in
 * CACHE_DIR; QUERYDATA where allocspike-querydata is). True when a process is to be started
 * (q->start); false when the request is answered in reply. The host (serve_rows.h) is the served
 * run's processes, events and run folder. */
bool serve_queries_prepare(struct serve_queries *q, const struct serve_rows_host *h, char **w,
                           int n, char *reply, size_t size);

/* The process started last ended, ok when with status 0 in time: true with the answer in reply
 * (the records made), false with the next process in q->start. */
bool serve_queries_ended(struct serve_queries *q, const struct serve_rows_host *h, bool ok,
                         char *reply, size_t size);

#endif
