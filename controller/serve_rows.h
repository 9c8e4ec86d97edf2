/* controller/serve_rows.h - a served run's rows (docs/controller.md, "A run's rows"): the run's row
 * settings (`rows-setup`), a row started by name with the command row_launch.h makes, as a named
 * process of the run on the `start` path (`row-start`), run.json's `command` recorded; a row waited
 * for until it is ready (`row-ready`, held): its ready file, a daemon's allocator probe recorded as
 * run.json's `version` and judged as `rows-check --row` judges it, the `ready` or `failed` event;
 * and the generator's --target words of ready rows (`row-targets`). */
#ifndef ALLOCSPIKE_CONTROLLER_SERVE_ROWS_H
#define ALLOCSPIKE_CONTROLLER_SERVE_ROWS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "row_launch.h"
#include "run_events.h"
#include "serve_runfolder.h"
#include "supervisor.h"

#define SERVE_ROWS_REQUESTS "rows-check, rows-setup, row-start, row-ready, rows-ready, row-targets"

/* How long rows-ready waits for a daemon row: its launcher has 30 s of its own to answer
 * (DAEMON_READY_TIMEOUT_S), then its allocator probe is judged. */
#define SERVE_ROWS_DAEMON_READY_S 60.0
/* The longest a row-ready waits: a row under callgrind takes minutes to start. */
#define SERVE_ROWS_READY_MAX_S 3600.0

/* A row started by row-start. */
struct served_row {
	char name[65];
	unsigned proc; /* its process in the supervisor */
	bool daemon, wrapped, tls;
	bool ready;
	pid_t
	    sample; /* the PID the generator samples: the resolver, a wrapper's child, the daemon */
	char addr[128], dot[128];
	char control[PATH_MAX], ready_file[PATH_MAX], workdir[PATH_MAX];
};

struct serve_rows {
	bool set;
	char **words; /* rows-setup's words, owned; settings points into them */
	int n_words;
	struct row_settings settings;
	struct served_row rows[SUPERVISOR_MAX_PROCESSES];
	unsigned count;
};

/* What the requests use of the served run: its processes, events, run.json, control folder, and
 * its `start` (answered into reply as the request `start` is). */
struct serve_rows_host {
	struct supervisor *sup;
	struct run_events *events;
	struct serve_runfolder *runfolder;
	const char *ctl_dir;
	void (*start)(void *ctx, char **w, int n, char *reply, size_t size);
	void *ctx;
};

/* A request of the run folder's (runjson-set, runjson-fields) or the events' (event), made for
 * another request; false with its error in reply. */
bool serve_rows_host_ask(const struct serve_rows_host *h, char **w, int n, char *reply,
                         size_t size);

/* runjson-set PATH to value's text (json_dumps with flags), made for another request; false with
 * its error in reply. */
bool serve_rows_host_set(const struct serve_rows_host *h, const char *path, const json_t *value,
                         size_t flags, char *reply, size_t size);

/* One event through the events' own request (its checks), at most SERVE_ROWS_EVENT_FIELDS fields
 * (KEY=TEXT or KEY:=JSON); a refusal said on stderr, the run going on. */
#define SERVE_ROWS_EVENT_FIELDS 5
void serve_rows_host_event(const struct serve_rows_host *h, const char *variant, const char *event,
                           char **fields, int count);

/* Answers w[0..n) into reply when it is one of these; false when it is none of them. row-ready is
 * held: reply left empty, *wait_proc its process and *wait_s its timeout, for serve_rows_answer. */
bool serve_rows_request(struct serve_rows *r, const struct serve_rows_host *h, char **w, int n,
                        char *reply, size_t size, int *wait_proc, double *wait_s);

/* rows-ready TIMEOUT NAME... (w[0..n)): each named row's process into procs and how long it is
 * waited for into wait_s (TIMEOUT, a daemon's SERVE_ROWS_DAEMON_READY_S); false with the error in
 * reply. */
bool serve_rows_group(struct serve_rows *r, char **w, int n, unsigned *procs, double *wait_s,
                      char *reply, size_t size);

/* row-ready's answer once process proc is ready (`ok ADDR PID`, the `ready` event; `failed`, the
 * `failed` event, for a daemon whose allocator probe is refused): true. False when the caller
 * answers as `ready` does: it ended first (a daemon's probe judged all the same) or its time ran
 * out. */
bool serve_rows_answer(struct serve_rows *r, const struct serve_rows_host *h, unsigned proc,
                       enum supervisor_ready state, char *reply, size_t size);

/* The row started as name, or NULL. */
struct served_row *serve_rows_named(struct serve_rows *r, const char *name);

/* Row name's generator --target word into target (row-targets' and the generator's); false with
 * why in err when it is not a ready row. */
bool serve_rows_target(struct serve_rows *r, const char *name, char *target, size_t size, char *err,
                       size_t err_size);

void serve_rows_free(struct serve_rows *r);

#endif
