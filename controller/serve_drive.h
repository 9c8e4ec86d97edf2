/* controller/serve_drive.h - a served run's `drive` request (docs/controller.md, "One schedule over
 * rows: drive"): one schedule over a group of rows as one held request. This file reads its words
 * and makes the words of the requests it is made of (row-start, rows-ready, the process run
 * during the schedule, generate); serve.c runs them in turn on their own paths and stops what it
 * started. */
#ifndef ALLOCSPIKE_CONTROLLER_SERVE_DRIVE_H
#define ALLOCSPIKE_CONTROLLER_SERVE_DRIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "serve_rows.h"
#include "supervisor.h"

#define SERVE_DRIVE_REQUESTS "drive"
/* The rows' stop after the generator (SIGTERM, then SIGKILL), and the process run during it. */
#define DRIVE_ROWS_STOP_GRACE_S 15.0
#define DRIVE_DURING_STOP_GRACE_S 5.0
/* place=: its T0 is recorded once every row is placed (place's ready timeout, 40 s, and its clocks
 * before it); by then the origin is its `placement` line's t0, else the schedule's start is taken
 * as now. */
#define DRIVE_PLACE_ORIGIN_TIMEOUT_S 120.0

struct serve_drive {
	bool active;                           /* a drive is held */
	char **words;                          /* the request's words, owned (NULL-terminated) */
	int rows_at;                           /* the first ROW word */
	int row_count;                         /* ROWs */
	int wrap_of[SUPERVISOR_MAX_PROCESSES]; /* each ROW's wrap= word, or -1 */
	int during_at;                         /* the during= word, or -1 */
	int place_at;                          /* the place= word, or -1 */
	double stop_child_s;                   /* stop-child=GRACE, or -1 */
	/* `serial`: a group per row, each on a new clock; else one group of them all */
	bool serial;
	/* filled while it runs: the next row to start, the rows ready so far (their processes;
	 * this group's from ready_from), the during process (-1), the last generator's origin and
	 * exit */
	int next_row;
	unsigned ready[SUPERVISOR_MAX_PROCESSES];
	unsigned ready_count, ready_from;
	int during_proc;
	bool placed; /* place=: allocspike-run place started (the rows are its) */
	double origin_s;
	int status;
};

/* drive DIR SCHEDULE LOADGEN QUERIES CPUS ROW_CPUS TIMEOUT [OPTION...] -- ROW... read into d
 * (active); false with the error in reply. */
bool serve_drive_parse(struct serve_drive *d, char **w, int n, char *reply, size_t size);

/* The ROW words. */
char **serve_drive_rows(const struct serve_drive *d);

/* The next group's rows (next_row on past them): their count, 0 when every group ran. */
int serve_drive_next_group(struct serve_drive *d, int *first);

/* `row-start ROW DIR ROW_CPUS [-- WRAP...]` of row i (allocated, NULL-terminated; NULL when out
 * of memory), its length into *count. */
char **serve_drive_row_start(const struct serve_drive *d, int i, int *count);

/* `rows-ready TIMEOUT NAME...` of the names given (allocated); its length into *count. */
char **serve_drive_rows_ready(const struct serve_drive *d, const char *const *names, int n,
                              int *count);

/* `start NAME LOG "" -- COMMAND... ROW=SAMPLER[,CONTROL]...` of the during= process, a word per
 * ready row (names): NULL without one (or out of memory); its length into *count. */
char **serve_drive_during_start(const struct serve_drive *d, struct serve_rows *rows,
                                const char *const *names, int n, int *count);

/* place=: `start _place DIR/logs/place.log CPUS -- BIN_DIR/allocspike-run place --out DIR
 * --schedule SCHEDULE --queries QUERIES --in-run WORDS...` (allocated; NULL when out of memory),
 * its length into *count. */
char **serve_drive_place_start(const struct serve_drive *d, const char *bin_dir, int *count);

/* `generate LOADGEN DIR SCHEDULE QUERIES CPUS NAME...` (allocated); its length into *count. */
char **serve_drive_generate(const struct serve_drive *d, const char *const *names, int n,
                            int *count);

/* The drive ended: its words given back, d inactive. */
void serve_drive_end(struct serve_drive *d);

#endif
