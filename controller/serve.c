/* controller/serve.c - the requests of a served run (serve.h): each a line of words
 * (request_words.h) answered by one line; the waits (`ready`, `wait-any`, `origin-from`, the
 * generator's run, a `drive`, a `calibrate`) held while the loop goes on reaping, answering and
 * stopping; the events and their clock (serve_events.h), where the processes' `started` and
 * `exited` go too. */
#include "serve.h"

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_parse.h"
#include "control_server.h"
#include "hosts_file.h"
#include "identifier.h"
#include "monotonic.h"
#include "parent_death.h"
#include "proc_stat.h"
#include "request_words.h"
#include "run_json.h"
#include "run_registry.h"
#include "serve_analysis.h"
#include "serve_calibration.h"
#include "conduct_steps.h"
#include "serve_conduct.h"
#include "serve_drive.h"
#include "serve_events.h"
#include "serve_generate.h"
#include "serve_hierarchy.h"
#include "serve_parameters.h"
#include "serve_queries.h"
#include "serve_rows.h"
#include "serve_runfolder.h"
#include "stop_child.h"
#include "supervisor.h"
#include "variants_plan.h"
#include "variant_command.h"

#define SERVE_MAX_WORDS (PLAN_MAX_ARGS + 8)
#define SERVE_TICK_MS 50 /* how often ready files and deadlines are looked at */
#define SERVE_STOP_ALL_GRACE_S 5.0
/* A row left out of a group (never ready, or its group not waited for): stopped at once */
#define SERVE_ROW_LEFT_OUT_GRACE_S 1.0
#define SERVE_WAITS_FULL "error: too many requests waiting"

struct serve;
struct serve_wait;

/* A request whose answer is its own once a wait ends. A ready wait (the hierarchy's, row-ready):
 * now is READY_YES (addr its address), READY_EXITED, or READY_NOT_YET when the time ran out; true
 * when it answered into reply, false to answer as `ready` does. A wait for procs[0]'s exit
 * (queries): now is READY_EXITED, or READY_NOT_YET when the time ran out; true when it answered,
 * false when it waits again (for the process it started into w). */
typedef bool serve_ready_end(struct serve *s, struct serve_wait *w, enum supervisor_ready now,
                             const char *addr, char *reply, size_t size);

/* A request waiting for its answer. */
struct serve_wait {
	struct control_conn *conn; /* NULL: a free slot */
	bool ready;                /* `ready` of procs[0]; else `wait-any` of all */
	serve_ready_end *on_end;   /* the wait's own answer; NULL: `ready`'s or `wait-any`'s */
	bool origin;               /* `origin-from` procs[0] */
	bool generate;             /* `generate`: procs[0]'s origin, then its exit */
	bool drive;                /* `drive`: its rows' wait (rows), then the generator's */
	bool calibrate;            /* `calibrate`: its passes' drives, each then its step */
	bool origin_known;         /* `generate`'s origin set, at origin_s */
	/* the origin is T0 of the placement procs[0] records (drive's place=: the instant its
	 * generator, or every shard of it, starts); else procs[0]'s own `started` line */
	bool origin_placed;
	double origin_s;
	double deadline_s;
	double wait_s; /* how long it waits, from its request */
	unsigned procs[SUPERVISOR_MAX_PROCESSES];
	unsigned count;
	/* rows-ready: each of procs waited for row_wait_s[i] from since_s; its state */
	bool rows;
	double since_s, row_wait_s[SUPERVISOR_MAX_PROCESSES];
	enum { ROW_STARTING, ROW_READY, ROW_LEFT_OUT } row_state[SUPERVISOR_MAX_PROCESSES];
};

struct serve {
	struct supervisor sup;
	struct plan_process *specs[SUPERVISOR_MAX_PROCESSES]; /* sup.procs[i].spec, owned here */
	struct serve_wait waits[CONTROL_MAX_CONNS];
	struct event_base *base;
	struct run_events events;                  /* the scenario's events.jsonl and its clock */
	off_t events_at[SUPERVISOR_MAX_PROCESSES]; /* its length when each process started */
	struct events_log log;                     /* the supervisor's events, handed to events */
	struct serve_runfolder runfolder;          /* its folder, run.json, beginning and end */
	struct serve_hierarchy hierarchy;          /* the simulated hierarchy being started */
	struct serve_rows rows;                    /* its rows, started by name */
	struct serve_generate generate;            /* the generator being started */
	struct serve_queries queries;              /* its query file being made */
	struct serve_calibration calibration;      /* the calibration's passes so far */
	struct serve_drive drive;                  /* the schedule being driven */
	char ctl_dir[4096];                        /* the control folder: SOCKET's */
	struct serve_conduct *conduct;             /* a conducted run's steps; NULL: served */
};

static void serve_start(struct serve *s, char **w, int n, char *reply, size_t size);

static void serve_start_of(void *ctx, char **w, int n, char *reply, size_t size)
{
	serve_start(ctx, w, n, reply, size);
}

static struct serve_rows_host serve_rows_host(struct serve *s)
{
	return (struct serve_rows_host){.sup = &s->sup,
	                                .events = &s->events,
	                                .runfolder = &s->runfolder,
	                                .ctl_dir = s->ctl_dir,
	                                .start = serve_start_of,
	                                .ctx = s};
}

static double serve_now_s(void)
{
	return (double)monotonic_ns() / 1e9;
}

/* The latest process started under name, or -1. */
static int serve_find(const struct serve *s, const char *name)
{
	for (unsigned i = s->sup.count; i-- > 0;)
		if (strcmp(s->sup.procs[i].spec->name, name) == 0)
			return (int)i;
	return -1;
}

/* Each name's latest process into idx; false (the answer in reply) when one is unknown. */
static bool serve_find_all(const struct serve *s, char **names, size_t count, unsigned *idx,
                           char *reply, size_t size)
{
	if (count > SUPERVISOR_MAX_PROCESSES) {
		snprintf(reply, size, "error: more than %d names", SUPERVISOR_MAX_PROCESSES);
		return false;
	}
	for (size_t i = 0; i < count; i++) {
		char why[160];
		const char *name = names[i];
		if (!identifier_valid(name[0] == '_' ? name + 1 : name, why, sizeof(why))) {
			snprintf(reply, size, "error: NAME: %s", why);
			return false;
		}
		int at = serve_find(s, name);
		if (at < 0) {
			snprintf(reply, size, "error: no process '%.64s' in this run", names[i]);
			return false;
		}
		idx[i] = (unsigned)at;
	}
	return true;
}

/* " NAME PID code=N|signal=N requested=true|false" of a reaped process, appended to reply. */
static void serve_exit_record(const struct supervised *p, char *reply, size_t size)
{
	size_t len = strlen(reply);
	int st = p->status;
	snprintf(reply + len, size - len, " %s %ld %s=%d requested=%s", p->spec->name,
	         (long)p->target.pid, WIFSIGNALED(st) ? "signal" : "code",
	         WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st), p->asked ? "true" : "false");
}

/* "ok" and the exit of each of them that has ended. */
static void serve_exits_reply(const struct serve *s, const unsigned *idx, size_t count, char *reply,
                              size_t size)
{
	snprintf(reply, size, "ok");
	for (size_t i = 0; i < count; i++)
		if (s->sup.procs[idx[i]].reaped)
			serve_exit_record(&s->sup.procs[idx[i]], reply, size);
}

/* The events' origin from the `started` line process proc appended (its start_realtime), or with
 * placed from the `placement` line of place (its t0), set into *unix_s: true once it came
 * (*said), or once proc ended or the deadline passed without it (the schedule then counts from
 * now); false while it may still come. */
static bool serve_origin_from(struct serve *s, unsigned proc, bool placed, double deadline_s,
                              double *unix_s, bool *said)
{
	const struct supervised *p = &s->sup.procs[proc];
	*said = placed ? run_events_find_instant(&s->events, s->events_at[proc], "_controller",
	                                         "placement", "t0", unix_s)
	               : run_events_find_instant(&s->events, s->events_at[proc], p->spec->name,
	                                         "started", "start_realtime", unix_s);
	if (!*said && !p->reaped && serve_now_s() < deadline_s)
		return false;
	*unix_s = run_events_origin(&s->events, *said ? *unix_s : NAN);
	return true;
}

static bool serve_rows_ready_answer(struct serve *s, struct serve_wait *w, char *reply,
                                    size_t size);
static bool serve_drive_answer(struct serve *s, struct serve_wait *w, char *reply, size_t size);
static bool serve_calibrate_answer(struct serve *s, struct serve_wait *w, char *reply, size_t size);
static void serve_calibrate_drop(struct serve *s);

/* The generator procs[0] of a `generate` wait has exited, its origin known: true with the origin
 * and its exit status as the shell's $? (128 + N for a signal N); false while it runs. */
static bool serve_generate_ended(struct serve *s, struct serve_wait *w, double *origin_s,
                                 int *status)
{
	const struct supervised *p = &s->sup.procs[w->procs[0]];
	bool said;
	if (!w->origin_known)
		w->origin_known = serve_origin_from(s, w->procs[0], w->origin_placed, w->deadline_s,
		                                    &w->origin_s, &said);
	if (!w->origin_known || !p->reaped)
		return false;
	*origin_s = w->origin_s;
	*status = WIFSIGNALED(p->status) ? 128 + WTERMSIG(p->status) : WEXITSTATUS(p->status);
	return true;
}

/* The answer to a held wait, or false while it still waits (its on_end may have started the
 * process it waits for next into w). */
static bool serve_wait_answer(struct serve *s, struct serve_wait *w, char *reply, size_t size)
{
	bool said;
	if (w->calibrate)
		return serve_calibrate_answer(s, w, reply, size);
	if (w->drive)
		return serve_drive_answer(s, w, reply, size);
	if (w->rows)
		return serve_rows_ready_answer(s, w, reply, size);
	if (w->origin) {
		double unix_s;
		if (!serve_origin_from(s, w->procs[0], false, w->deadline_s, &unix_s, &said))
			return false;
		snprintf(reply, size, said ? "ok %.6f" : "ok now", unix_s);
		return true;
	}
	if (w->generate) {
		double origin_s;
		int status;
		if (!serve_generate_ended(s, w, &origin_s, &status))
			return false;
		snprintf(reply, size, "ok %.6f %d", origin_s, status);
		return true;
	}
	if (w->ready) {
		struct supervised *p = &s->sup.procs[w->procs[0]];
		char addr[256];
		enum supervisor_ready now = supervisor_ready_now(p, addr, sizeof(addr));
		if (now == READY_NOT_YET && serve_now_s() < w->deadline_s)
			return false;
		if (w->on_end && w->on_end(s, w, now, addr, reply, size))
			return true;
		if (now == READY_YES) {
			snprintf(reply, size, addr[0] ? "ok %s" : "ok", addr);
		} else if (now == READY_EXITED) {
			snprintf(reply, size, "exited");
			serve_exit_record(p, reply, size);
		} else {
			snprintf(reply, size, "timeout");
		}
		return true;
	} else {
		for (unsigned i = 0; i < w->count; i++)
			if (s->sup.procs[w->procs[i]].reaped) {
				if (w->on_end)
					return w->on_end(s, w, READY_EXITED, "", reply, size);
				snprintf(reply, size, "exited");
				serve_exit_record(&s->sup.procs[w->procs[i]], reply, size);
				return true;
			}
	}
	if (serve_now_s() < w->deadline_s)
		return false;
	if (w->on_end)
		return w->on_end(s, w, READY_NOT_YET, "", reply, size);
	snprintf(reply, size, "timeout");
	return true;
}

/* Answers every held wait that can be answered now. */
static void serve_check_waits(struct serve *s)
{
	static char reply[SERVE_LINE_MAX];
	for (unsigned i = 0; i < CONTROL_MAX_CONNS; i++) {
		struct serve_wait *w = &s->waits[i];
		if (!w->conn || !serve_wait_answer(s, w, reply, sizeof(reply)))
			continue;
		struct control_conn *conn = w->conn;
		w->conn = NULL; /* before the reply: a client gone is told to serve_closed */
		control_conn_reply(conn, reply);
	}
}

/* A free slot for a held request, or NULL. */
static struct serve_wait *serve_wait_slot(struct serve *s)
{
	for (unsigned i = 0; i < CONTROL_MAX_CONNS; i++)
		if (!s->waits[i].conn)
			return &s->waits[i];
	return NULL;
}

/* The answer now, or the request held (a free slot taken) until serve_check_waits answers it. */
static void serve_wait_or_answer(struct serve *s, struct control_conn *conn, struct serve_wait *w)
{
	static char reply[SERVE_LINE_MAX];
	if (serve_wait_answer(s, w, reply, sizeof(reply))) {
		control_conn_reply(conn, reply);
		return;
	}
	struct serve_wait *slot = serve_wait_slot(s);
	if (!slot) {
		control_conn_reply(conn, SERVE_WAITS_FULL);
		return;
	}
	*slot = *w;
	slot->conn = conn;
	control_conn_hold(conn);
}

static void serve_closed(void *ctx, struct control_conn *conn)
{
	struct serve *s = ctx;
	for (unsigned i = 0; i < CONTROL_MAX_CONNS; i++)
		if (s->waits[i].conn == conn) {
			s->waits[i].conn = NULL;
			if (s->waits[i].drive) /* what it started is stopped by the run's end */
				serve_drive_end(&s->drive);
			if (s->waits[i].calibrate)
				serve_calibrate_drop(s);
		}
}

static bool serve_duration(const char *what, const char *text, double *out, char *reply,
                           size_t size)
{
	char err[256];
	if (cli_parse_duration(what, text, 1, 0, 24 * 3600, out, err, sizeof(err)))
		return true;
	snprintf(reply, size, "error: %s", err);
	return false;
}

/* start NAME LOG CPUS [READY_FILE TIMEOUT] -- ARGV... */
static void serve_start(struct serve *s, char **w, int n, char *reply, size_t size)
{
	int dashes = 0;
	while (dashes < n && strcmp(w[dashes], "--") != 0)
		dashes++;
	if ((dashes != 4 && dashes != 6) || dashes + 1 >= n || n - dashes - 1 > PLAN_MAX_ARGS) {
		snprintf(
		    reply, size,
		    "error: start NAME LOG CPUS [READY_FILE TIMEOUT] -- COMMAND... is expected");
		return;
	}
	const char *name = w[1];
	char why[160];
	if (!identifier_valid(name[0] == '_' ? name + 1 : name, why, sizeof(why))) {
		snprintf(reply, size, "error: start: NAME: %s", why);
		return;
	}
	int running = serve_find(s, name);
	if (running >= 0 && !s->sup.procs[running].reaped) {
		snprintf(reply, size, "error: start: %s is running (pid %ld)", name,
		         (long)s->sup.procs[running].target.pid);
		return;
	}
	struct plan_process *spec = calloc(1, sizeof(*spec));
	if (!spec) {
		snprintf(reply, size, "error: out of memory");
		return;
	}
	snprintf(spec->name, sizeof(spec->name), "%s", name);
	snprintf(spec->log, sizeof(spec->log), "%s", w[2]);
	snprintf(spec->cpus, sizeof(spec->cpus), "%s", w[3]);
	bool ok = w[2][0] != '\0';
	if (!ok)
		snprintf(reply, size, "error: start: LOG: a file name is expected");
	if (ok && spec->cpus[0] && !supervise_plan_cpus(spec->cpus, &spec->cpu_set)) {
		snprintf(reply, size, "error: start: CPUS: '%.200s' is not a CPU list (e.g. 0-1,3)",
		         w[3]);
		ok = false;
	}
	if (ok && dashes == 6) {
		snprintf(spec->ready_file, sizeof(spec->ready_file), "%s", w[4]);
		ok = serve_duration("TIMEOUT", w[5], &spec->ready_timeout_s, reply, size);
	}
	for (int i = dashes + 1; ok && i < n; i++) {
		spec->argv[spec->argc] = strdup(w[i]);
		ok = spec->argv[spec->argc++] != NULL;
	}
	off_t events_at = run_events_size(&s->events); /* before it can write there */
	struct supervised *p = ok ? supervisor_start(&s->sup, spec) : NULL;
	if (!p) {
		if (ok)
			snprintf(reply, size, "error: start: %s could not be started", name);
		for (unsigned i = 0; i < spec->argc; i++)
			free(spec->argv[i]);
		free(spec);
		return;
	}
	s->specs[s->sup.count - 1] = spec;
	s->events_at[s->sup.count - 1] = events_at;
	snprintf(reply, size, "ok %ld %llu", (long)p->target.pid, p->target.start_ticks);
}

/* The hierarchy's answer once its ready wait ends: its records, or why it did not start. */
static bool serve_hierarchy_end(struct serve *s, struct serve_wait *w, enum supervisor_ready now,
                                const char *addr, char *reply, size_t size)
{
	const struct supervised *p = &s->sup.procs[w->procs[0]];
	if (now == READY_YES) {
		serve_hierarchy_ready(&s->hierarchy, &s->runfolder, &s->sup, &s->events,
		                      p->target.pid, addr, reply, size);
	} else if (now == READY_EXITED) {
		char how[256] = "";
		serve_exit_record(p, how, sizeof(how));
		serve_hierarchy_failed(&s->hierarchy, how + 1, reply, size); /* its leading space */
	} else {
		serve_hierarchy_failed(&s->hierarchy, NULL, reply, size);
	}
	return true;
}

/* The running process of that name, or NULL. */
static const struct supervised *serve_running(const struct serve *s, const char *name)
{
	int at = serve_find(s, name);
	return at >= 0 && !s->sup.procs[at].reaped ? &s->sup.procs[at] : NULL;
}

/* True (the error in reply) when a process of that name runs, which request would start again. */
static bool serve_refused_running(const struct serve *s, const char *request, const char *name,
                                  char *reply, size_t size)
{
	const struct supervised *p = serve_running(s, name);
	if (p)
		snprintf(reply, size, "error: %s: %s is running (pid %ld)", request, name,
		         (long)p->target.pid);
	return p != NULL;
}

/* A request's prepared `start` words started, then the request held as wait for that process: a
 * ready wait until the start's ready timeout, another wait->deadline_s seconds from now; the
 * start's error into reply when it did not start. */
static void serve_start_held(struct serve *s, struct control_conn *conn, char **start, int count,
                             struct serve_wait *wait, char *reply, size_t size)
{
	serve_start(s, start, count, reply, size);
	if (strncmp(reply, "ok", 2) != 0)
		return;
	reply[0] = '\0';
	wait->count = 1;
	wait->procs[0] = s->sup.count - 1;
	const struct plan_process *spec = s->sup.procs[wait->procs[0]].spec;
	wait->deadline_s = serve_now_s() + (wait->ready ? spec->ready_timeout_s : wait->deadline_s);
	serve_wait_or_answer(s, conn, wait);
}

/* hierarchy ...: the simulated hierarchy started as _upstream, its ready line waited for
 * (serve_hierarchy.h). */
static void serve_hierarchy(struct serve *s, struct control_conn *conn, char **w, int n,
                            char *reply, size_t size)
{
	if (serve_refused_running(s, "hierarchy", "_upstream", reply, size))
		return;
	if (!serve_hierarchy_prepare(&s->hierarchy, &s->runfolder, &s->sup, &s->events, s->ctl_dir,
	                             w, n, reply, size))
		return;
	struct serve_wait wait = {.ready = true, .on_end = serve_hierarchy_end};
	serve_start_held(s, conn, s->hierarchy.start, s->hierarchy.start_count, &wait, reply, size);
	serve_hierarchy_started(&s->hierarchy);
}

/* The generator of generate's words w started as _loadgen against the rows named
 * (serve_generate.h) and w waiting for it: true; false with the error in reply. */
static bool serve_generate_launch(struct serve *s, struct serve_wait *wait, char **w, int n,
                                  char *reply, size_t size)
{
	if (serve_refused_running(s, "generate", "_loadgen", reply, size))
		return false;
	const struct supervised *up = serve_running(s, "_upstream"); /* watched on the timeline */
	char up_pid[32];
	snprintf(up_pid, sizeof(up_pid), "%ld", up ? (long)up->target.pid : 0L);
	if (!serve_generate_prepare(&s->generate, &s->runfolder, &s->rows, up ? up_pid : NULL, w, n,
	                            reply, size))
		return false;
	serve_start(s, s->generate.start, s->generate.start_count, reply, size);
	serve_generate_started(&s->generate);
	if (strncmp(reply, "ok", 2) != 0)
		return false;
	reply[0] = '\0';
	wait->generate = true;
	wait->origin_known = false;
	wait->count = 1;
	wait->procs[0] = s->sup.count - 1;
	wait->deadline_s = serve_now_s() + GENERATE_ORIGIN_TIMEOUT_S;
	return true;
}

/* generate ...: held until the generator exits, the events' origin set from its `started` line
 * meanwhile. */
static void serve_generate(struct serve *s, struct control_conn *conn, char **w, int n, char *reply,
                           size_t size)
{
	struct serve_wait wait = {0};
	if (serve_generate_launch(s, &wait, w, n, reply, size))
		serve_wait_or_answer(s, conn, &wait);
}

/* A row's answer once its wait of wait_s ended in now (serve_rows_answer): true with `ok ADDR
 * PID` or `failed` in reply; false to answer as `ready` does. A time run out is said as the
 * scenarios said it. */
static bool serve_row_answer(struct serve *s, unsigned proc, enum supervisor_ready now,
                             double wait_s, char *reply, size_t size)
{
	if (now == READY_NOT_YET) {
		fprintf(stderr, "%s: %s not ready within %.0fs\n", s->runfolder.scenario,
		        s->sup.procs[proc].spec->name, wait_s);
		return false;
	}
	struct serve_rows_host h = serve_rows_host(s);
	return serve_rows_answer(&s->rows, &h, proc, now, reply, size);
}

/* row-ready's answer once its ready wait ends, else `ready`'s. */
static bool serve_row_end(struct serve *s, struct serve_wait *w, enum supervisor_ready now,
                          const char *addr, char *reply, size_t size)
{
	(void)addr;
	return serve_row_answer(s, w->procs[0], now, w->wait_s, reply, size);
}

/* rows-ready's answer once every row is ready or left out: `ok` and the ready rows' names. A row
 * that ended, was refused or did not answer in its time is said, stopped and left out: the run
 * goes on without it. False while one still starts. */
static bool serve_rows_ready_answer(struct serve *s, struct serve_wait *w, char *reply, size_t size)
{
	bool starting = false;
	for (unsigned i = 0; i < w->count; i++) {
		struct supervised *p = &s->sup.procs[w->procs[i]];
		char addr[256], answer[1024];
		if (w->row_state[i] != ROW_STARTING)
			continue;
		enum supervisor_ready now = supervisor_ready_now(p, addr, sizeof(addr));
		if (now == READY_NOT_YET && serve_now_s() < w->since_s + w->row_wait_s[i]) {
			starting = true;
			continue;
		}
		if (serve_row_answer(s, w->procs[i], now, w->row_wait_s[i], answer,
		                     sizeof(answer)) &&
		    strncmp(answer, "ok ", 3) == 0) {
			w->row_state[i] = ROW_READY;
			continue;
		}
		w->row_state[i] = ROW_LEFT_OUT;
		fprintf(
		    stderr,
		    "%s: variant %s did not become ready (see %s); the run goes on without it\n",
		    s->runfolder.scenario, p->spec->name, p->spec->log);
		supervisor_stop_some(&s->sup, &p, 1, SERVE_ROW_LEFT_OUT_GRACE_S);
	}
	if (starting)
		return false;
	snprintf(reply, size, "ok");
	for (unsigned i = 0; i < w->count; i++)
		if (w->row_state[i] == ROW_READY)
			snprintf(reply + strlen(reply), size - strlen(reply), " %s",
			         s->sup.procs[w->procs[i]].spec->name);
	return true;
}

/* drive's processes stopped after its group's generator, on the supervisor's stop path: the during
 * process, then each row of the group through its child where asked (a perf stat wrapper writes its
 * count only when its child exits), then the rows together. */
static void serve_drive_stop(struct serve *s)
{
	struct serve_drive *d = &s->drive;
	struct supervised *ps[SUPERVISOR_MAX_PROCESSES];
	if (d->during_proc >= 0) {
		ps[0] = &s->sup.procs[d->during_proc];
		supervisor_stop_some(&s->sup, ps, 1, DRIVE_DURING_STOP_GRACE_S);
		d->during_proc = -1;
	}
	unsigned n = 0;
	for (unsigned i = d->ready_from; i < d->ready_count; i++) {
		ps[n] = &s->sup.procs[d->ready[i]];
		if (d->stop_child_s >= 0)
			supervisor_stop_child(&s->sup, ps[n], d->stop_child_s);
		n++;
	}
	if (n > 0)
		supervisor_stop_some(&s->sup, ps, n, DRIVE_ROWS_STOP_GRACE_S);
}

/* Once a group's rows are ready: its during process and the generator over them started, w
 * waiting for the generator: true; false with the error in reply. */
static bool serve_drive_launch(struct serve *s, struct serve_wait *w, char *reply, size_t size)
{
	struct serve_drive *d = &s->drive;
	const char *names[SUPERVISOR_MAX_PROCESSES];
	int count, n_names = (int)(d->ready_count - d->ready_from);
	for (int i = 0; i < n_names; i++)
		names[i] = s->sup.procs[d->ready[d->ready_from + i]].spec->name;
	char **words = serve_drive_during_start(d, &s->rows, names, n_names, &count);
	if (d->during_at >= 0) {
		if (words)
			serve_start(s, words, count, reply, size);
		else
			snprintf(reply, size, "error: out of memory");
		variant_words_free(words);
		if (strncmp(reply, "ok", 2) != 0)
			return false;
		d->during_proc = (int)s->sup.count - 1;
	}
	words = serve_drive_generate(d, names, n_names, &count);
	if (!words) {
		snprintf(reply, size, "error: out of memory");
		return false;
	}
	fprintf(stderr, "%s: generator running: %s\n", s->runfolder.scenario, words[3]);
	bool ok = serve_generate_launch(s, w, words, count, reply, size);
	variant_words_free(words);
	return ok;
}

/* The named rows, started but not waited for, stopped. */
static void serve_drive_stop_started(struct serve *s, const char *const *names, int n)
{
	struct supervised *ps[SUPERVISOR_MAX_PROCESSES];
	size_t count = 0;
	for (int i = 0; i < n; i++) {
		int at = serve_find(s, names[i]);
		if (at >= 0)
			ps[count++] = &s->sup.procs[at];
	}
	supervisor_stop_some(&s->sup, ps, count, SERVE_ROW_LEFT_OUT_GRACE_S);
}

/* run.json's rows placed by the hosts file (its options' `hosts`) given their host and agent, as
 * place records them in a run.json of its own: the host this machine's rows-check wrote is not
 * theirs. Said on stderr when it cannot be done; the run goes on. */
static void serve_drive_place_record(struct serve *s)
{
	static char reply[SERVE_LINE_MAX];
	char err[4400] = "";
	const char *why = err;
	const json_t *options = NULL;
	json_t *doc = run_json_options_load(s->runfolder.run_json, &options, err, sizeof(err));
	const char *path = json_string_value(json_object_get(options, "hosts"));
	struct variants_table table;
	struct hosts_file hosts = {0};
	bool ok =
	    path && variants_table_read(&table, variants_plan_default_table(), err, sizeof(err));
	if (ok) {
		ok = hosts_file_read(&hosts, path, &table, HOSTS_FILE_AGENT_PORT, err, sizeof(err));
		variants_table_free(&table);
	}
	for (size_t i = 0; ok && i < hosts.count; i++) {
		const struct hosts_entry *e = &hosts.entries[i];
		char at[IDENTIFIER_MAX_LEN + 32], host[IDENTIFIER_MAX_LEN + 8], agent[128];
		snprintf(at, sizeof(at), ".variants[name=%s]", e->row);
		snprintf(host, sizeof(host), "host=%s", e->host);
		snprintf(agent, sizeof(agent), "agent=%s", e->addr_text);
		char *words[] = {"runjson-fields", at, host, agent};
		serve_runfolder_request(&s->runfolder, &s->sup, &s->events, words, 4, reply,
		                        sizeof(reply));
		ok = strcmp(reply, "ok") == 0;
		why = reply;
	}
	if (!ok)
		fprintf(stderr, "%s: run.json's rows not given their hosts: %s\n",
		        s->runfolder.scenario,
		        doc && !path ? "its options name no hosts file" : why);
	hosts_file_free(&hosts);
	json_decref(doc);
}

/* drive's place=: the rows placed on their agents and the schedule run by `allocspike-run place
 * --schedule --in-run` started as _place (its collector and generator from T0, its agents
 * withdrawn at its end), w waiting for it as for a generator, the origin from its generator's
 * `started` line: true; false with the error in reply. */
static bool serve_drive_place(struct serve *s, struct serve_wait *w, char *reply, size_t size)
{
	struct serve_drive *d = &s->drive;
	char bin_dir[PATH_MAX];
	int count = 0;
	char **words = variant_command_bin_dir(bin_dir, sizeof(bin_dir))
	                   ? serve_drive_place_start(d, bin_dir, &count)
	                   : NULL;
	if (!words) {
		snprintf(reply, size,
		         "error: drive: place: no allocspike-run beside this one, or "
		         "out of memory");
		return false;
	}
	fprintf(stderr, "%s: placing the rows on their hosts, then running: %s\n",
	        s->runfolder.scenario, d->words[2] /* SCHEDULE */);
	serve_start(s, words, count, reply, size);
	variant_words_free(words);
	if (strncmp(reply, "ok", 2) != 0)
		return false;
	reply[0] = '\0';
	*w = (struct serve_wait){.conn = w->conn,
	                         .calibrate = w->calibrate, /* a pass: its step next */
	                         .drive = true,
	                         .generate = true,
	                         .origin_placed = true,
	                         .count = 1,
	                         .deadline_s = serve_now_s() + DRIVE_PLACE_ORIGIN_TIMEOUT_S};
	w->procs[0] = s->sup.count - 1;
	d->placed = true;
	serve_drive_place_record(s);
	return true;
}

/* The rows of drive's next group started (row-start, each row's wrap before it; serial: on a new
 * clock) and w waiting for them as rows-ready waits: true. False once every group ran, the answer
 * in reply: `ok ORIGIN STATUS ROW...` of the rows driven (the last generator's origin and exit),
 * `none` when no row became ready; or the error. */
static bool serve_drive_group(struct serve *s, struct serve_wait *w, char *reply, size_t size)
{
	struct serve_drive *d = &s->drive;
	struct serve_rows_host h = serve_rows_host(s);
	int first, group, count, proc;
	if (d->place_at >= 0 && !d->placed)
		return serve_drive_place(s, w, reply, size);
	if (d->place_at >= 0) { /* the rows are place's: all of them, as it placed them */
		snprintf(reply, size, "ok %.6f %d", d->origin_s, d->status);
		for (int i = 0; i < d->row_count; i++)
			snprintf(reply + strlen(reply), size - strlen(reply), " %s",
			         serve_drive_rows(d)[i]);
		return false;
	}
	while ((group = serve_drive_next_group(d, &first)) > 0) {
		if (d->serial)
			run_events_origin_clear(&s->events);
		const char *started[SUPERVISOR_MAX_PROCESSES];
		int n_started = 0;
		double wait_s;
		for (int i = first; i < first + group; i++) {
			char **words = serve_drive_row_start(d, i, &count);
			if (words)
				serve_rows_request(&s->rows, &h, words, count, reply, size, &proc,
				                   &wait_s);
			else
				snprintf(reply, size, "error: out of memory");
			variant_words_free(words);
			if (strncmp(reply, "ok", 2) == 0)
				started[n_started++] = serve_drive_rows(d)[i];
			else
				fprintf(stderr, "%s: variant %s was not started: %s\n",
				        s->runfolder.scenario, serve_drive_rows(d)[i], reply);
		}
		if (!n_started)
			continue;
		char **words = serve_drive_rows_ready(d, started, n_started, &count);
		*w = (struct serve_wait){
		    .conn = w->conn, .calibrate = w->calibrate, .drive = true, .rows = true};
		w->count = (unsigned)n_started;
		w->since_s = serve_now_s();
		bool waits = words && serve_rows_group(&s->rows, words, count, w->procs,
		                                       w->row_wait_s, reply, size);
		variant_words_free(words);
		if (waits) {
			reply[0] = '\0';
			return true;
		}
		if (!words)
			snprintf(reply, size, "error: out of memory");
		serve_drive_stop_started(s, started, n_started);
		return false;
	}
	if (d->ready_count == 0) {
		snprintf(reply, size, "none");
		return false;
	}
	snprintf(reply, size, "ok %.6f %d", d->origin_s, d->status);
	for (unsigned i = 0; i < d->ready_count; i++)
		snprintf(reply + strlen(reply), size - strlen(reply), " %s",
		         s->sup.procs[d->ready[i]].spec->name);
	return false;
}

/* drive's answer: once a group's rows are ready or left out, the rest of it launched; once its
 * generator exited, what it started stopped; then the next group (serve_drive_group), or the
 * answer once every group ran or a generator failed. False while it goes on. */
static bool serve_drive_answer(struct serve *s, struct serve_wait *w, char *reply, size_t size)
{
	struct serve_drive *d = &s->drive;
	if (w->rows) {
		if (!serve_rows_ready_answer(s, w, reply, size))
			return false;
		w->rows = false;
		d->ready_from = d->ready_count;
		for (unsigned i = 0; i < w->count; i++)
			if (w->row_state[i] == ROW_READY)
				d->ready[d->ready_count++] = w->procs[i];
		if (d->ready_count > d->ready_from) {
			if (serve_drive_launch(s, w, reply, size))
				return false;
			serve_drive_stop(s);
			serve_drive_end(d);
			return true;
		}
	} else if (serve_generate_ended(s, w, &d->origin_s, &d->status)) {
		serve_drive_stop(s);
		if (d->status != 0) /* the rows after it are not driven */
			d->next_row = d->row_count;
	} else {
		return false;
	}
	if (serve_drive_group(s, w, reply, size))
		return false;
	serve_drive_end(d);
	return true;
}

/* drive ...: held while its groups of rows run in turn (serve_drive_group, serve_drive_answer);
 * refused before anything starts when no request can be held. */
static void serve_drive(struct serve *s, struct control_conn *conn, char **w, int n, char *reply,
                        size_t size)
{
	struct serve_drive *d = &s->drive;
	if (d->active) {
		snprintf(reply, size, "error: drive: one is running");
		return;
	}
	if (!serve_wait_slot(s)) {
		snprintf(reply, size, SERVE_WAITS_FULL);
		return;
	}
	if (!serve_drive_parse(d, w, n, reply, size))
		return;
	struct serve_wait wait = {0};
	if (serve_drive_group(s, &wait, reply, size))
		serve_wait_or_answer(s, conn, &wait);
	else
		serve_drive_end(d);
}

/* The calibrate's events file, pushed for its pass, popped. */
static void serve_calibrate_pop(struct serve *s)
{
	char err[RUN_EVENTS_PATH_MAX + 256];
	if (s->calibration.pushed && !run_events_pop(&s->events, err, sizeof(err)))
		fprintf(stderr, "%s: calibrate: %s\n", s->runfolder.scenario, err);
	s->calibration.pushed = false;
}

/* The calibrate dropped (its client gone): what it started is stopped by the run's end. */
static void serve_calibrate_drop(struct serve *s)
{
	serve_drive_end(&s->drive);
	serve_calibrate_pop(s);
	serve_calibrate_end(&s->calibration);
}

/* The calibrate's next pass: its `drive` words read as drive reads them, its folder made, its
 * events file pushed (the pass's own clock) and its first group started, w its wait: true while
 * it is held; false with the drive's answer or the error in reply. */
static bool serve_calibrate_pass(struct serve *s, struct serve_wait *w, char *reply, size_t size)
{
	struct serve_calibration *c = &s->calibration;
	struct serve_rows_host h = serve_rows_host(s);
	char path[sizeof(c->dir) + 16], err[RUN_EVENTS_PATH_MAX + 256];
	int count;
	char **words = serve_calibrate_drive(c, &count, reply, size);
	bool parsed = words && serve_drive_parse(&s->drive, words, count, reply, size);
	variant_words_free(words);
	if (!parsed)
		return false;
	snprintf(path, sizeof(path), "%s/events.jsonl", c->dir);
	if (!serve_calibrate_folder(c, &h, reply, size) ||
	    !(c->pushed = run_events_push(&s->events, path, err, sizeof(err)))) {
		if (strncmp(reply, "error", 5) != 0)
			snprintf(reply, size, "error: calibrate: %s", err);
		serve_drive_end(&s->drive);
		return false;
	}
	w->calibrate = true;
	if (serve_drive_group(s, w, reply, size))
		return true;
	serve_drive_end(&s->drive);
	return false;
}

/* A calibrate's pass ended, its drive's answer in reply: its events file popped, then the
 * calibration's step, the next pass started while it extends. True with the calibrate's answer;
 * false while the next pass is held. */
static bool serve_calibrate_next(struct serve *s, struct serve_wait *w, char *reply, size_t size)
{
	struct serve_calibration *c = &s->calibration;
	struct serve_rows_host h = serve_rows_host(s);
	do
		serve_calibrate_pop(s);
	while (serve_calibrate_passed(c, &h, reply, size) == 0 &&
	       !serve_calibrate_pass(s, w, reply, size));
	if (c->pushed) /* a pass is held */
		return false;
	serve_calibrate_end(c);
	return true;
}

static bool serve_calibrate_answer(struct serve *s, struct serve_wait *w, char *reply, size_t size)
{
	return serve_drive_answer(s, w, reply, size) && serve_calibrate_next(s, w, reply, size);
}

/* calibrate ... (serve_calibration.h): held while its passes run, each a drive into its folder
 * followed by the calibration's step; refused before anything starts when no request can be
 * held. */
static void serve_calibrate(struct serve *s, struct control_conn *conn, char **w, int n,
                            char *reply, size_t size)
{
	struct serve_rows_host h = serve_rows_host(s);
	struct serve_wait wait = {0};
	if (s->drive.active || s->calibration.active)
		snprintf(reply, size, "error: calibrate: a %s is running",
		         s->calibration.active ? "calibration" : "drive");
	else if (!serve_wait_slot(s))
		snprintf(reply, size, SERVE_WAITS_FULL);
	else if (serve_calibrate_parse(&s->calibration, &h, w, n, reply, size) &&
	         (serve_calibrate_pass(s, &wait, reply, size) ||
	          !serve_calibrate_next(s, &wait, reply, size))) {
		reply[0] = '\0';
		serve_wait_or_answer(s, conn, &wait);
	}
}

/* The rows' requests (serve_rows.h), row-ready held as a ready wait; false for none of them. */
static bool serve_rows_dispatch(struct serve *s, struct control_conn *conn, char **w, int n,
                                char *reply, size_t size)
{
	struct serve_rows_host h = serve_rows_host(s);
	struct serve_wait wait = {0};
	int proc;
	if (strcmp(w[0], "rows-ready") == 0) {
		if (serve_rows_group(&s->rows, w, n, wait.procs, wait.row_wait_s, reply, size)) {
			wait.rows = true;
			wait.count = (unsigned)(n - 2);
			wait.since_s = serve_now_s();
			serve_wait_or_answer(s, conn, &wait);
		}
		return true;
	}
	if (!serve_rows_request(&s->rows, &h, w, n, reply, size, &proc, &wait.wait_s))
		return false;
	if (proc >= 0) {
		wait.ready = true;
		wait.on_end = serve_row_end;
		wait.count = 1;
		wait.procs[0] = (unsigned)proc;
		wait.deadline_s = serve_now_s() + wait.wait_s;
		serve_wait_or_answer(s, conn, &wait);
	}
	return true;
}

/* The next _querydata process (q->start) started and waited for in w: true; false with the error
 * in reply. */
static bool serve_queries_launch(struct serve *s, struct serve_wait *w, char *reply, size_t size)
{
	serve_start(s, s->queries.start, s->queries.start_count, reply, size);
	if (strncmp(reply, "ok", 2) != 0)
		return false;
	reply[0] = '\0';
	w->procs[0] = s->sup.count - 1;
	w->count = 1;
	w->wait_s = SERVE_QUERIES_TIMEOUT_S;
	w->deadline_s = serve_now_s() + w->wait_s;
	return true;
}

/* queries' answer once its _querydata process ended, or was stopped when its time ran out (said as
 * the scenarios said it); false while the next one runs. */
static bool serve_queries_end(struct serve *s, struct serve_wait *w, enum supervisor_ready now,
                              const char *addr, char *reply, size_t size)
{
	(void)addr;
	struct supervised *p = &s->sup.procs[w->procs[0]];
	if (now == READY_NOT_YET) {
		fprintf(stderr, "%s: %s did not end within %.0fs; stopping it\n",
		        s->runfolder.scenario, p->spec->name, w->wait_s);
		supervisor_stop_some(&s->sup, &p, 1, SERVE_QUERIES_STOP_GRACE_S);
	}
	bool ok = now == READY_EXITED && WIFEXITED(p->status) && WEXITSTATUS(p->status) == 0;
	struct serve_rows_host h = serve_rows_host(s);
	return serve_queries_ended(&s->queries, &h, ok, reply, size) ||
	       !serve_queries_launch(s, w, reply, size);
}

/* queries COUNT CACHE_DIR QUERYDATA (serve_queries.h): held while allocspike-querydata runs. */
static void serve_queries(struct serve *s, struct control_conn *conn, char **w, int n, char *reply,
                          size_t size)
{
	struct serve_rows_host h = serve_rows_host(s);
	struct serve_wait wait = {.on_end = serve_queries_end};
	if (serve_queries_prepare(&s->queries, &h, w, n, reply, size) &&
	    serve_queries_launch(s, &wait, reply, size))
		serve_wait_or_answer(s, conn, &wait);
}

/* calibration-step (serve_calibration.h); false for another request. */
static bool serve_calibration_dispatch(struct serve *s, char **w, int n, char *reply, size_t size)
{
	struct serve_rows_host h = serve_rows_host(s);
	return serve_calibration_request(&s->calibration, &h, w, n, reply, size);
}

/* warmup-check, capacities (serve_analysis.h); false for another request. */
static bool serve_analysis_dispatch(struct serve *s, char **w, int n, char *reply, size_t size)
{
	struct serve_rows_host h = serve_rows_host(s);
	return serve_analysis_request(&h, w, n, reply, size);
}

/* parameters (serve_parameters.h); false for another request. */
static bool serve_parameters_dispatch(struct serve *s, char **w, int n, char *reply, size_t size)
{
	struct serve_rows_host h = serve_rows_host(s);
	return serve_parameters_request(&h, w, n, reply, size);
}

/* The request in words: answered into reply, or held (reply left empty). */
static void serve_request(struct serve *s, struct control_conn *conn, char **w, int n, char *reply,
                          size_t size)
{
	struct serve_wait wait = {0};
	const char *req = w[0];
	if (strcmp(req, "start") == 0) {
		serve_start(s, w, n, reply, size);
	} else if (strcmp(req, "hierarchy") == 0) {
		serve_hierarchy(s, conn, w, n, reply, size);
	} else if (strcmp(req, "generate") == 0) {
		serve_generate(s, conn, w, n, reply, size);
	} else if (strcmp(req, "drive") == 0) {
		serve_drive(s, conn, w, n, reply, size);
	} else if (strcmp(req, "calibrate") == 0) {
		serve_calibrate(s, conn, w, n, reply, size);
	} else if (strcmp(req, "queries") == 0) {
		serve_queries(s, conn, w, n, reply, size);
	} else if (strcmp(req, "ready") == 0 && (n == 2 || n == 4)) {
		if (!serve_find_all(s, w + 1, 1, wait.procs, reply, size))
			return;
		if (n == 4) { /* READY_FILE TIMEOUT given now rather than at the start */
			struct plan_process *spec = s->specs[wait.procs[0]];
			if (!serve_duration("ready TIMEOUT", w[3], &spec->ready_timeout_s, reply,
			                    size))
				return;
			snprintf(spec->ready_file, sizeof(spec->ready_file), "%s", w[2]);
		}
		wait.ready = true;
		wait.count = 1;
		wait.deadline_s = serve_now_s() + s->sup.procs[wait.procs[0]].spec->ready_timeout_s;
		serve_wait_or_answer(s, conn, &wait);
	} else if (strcmp(req, "origin-from") == 0 && n == 3) {
		double timeout;
		if (!serve_find_all(s, w + 1, 1, wait.procs, reply, size) ||
		    !serve_duration("origin-from TIMEOUT", w[2], &timeout, reply, size))
			return;
		wait.origin = true;
		wait.count = 1;
		wait.deadline_s = serve_now_s() + timeout;
		serve_wait_or_answer(s, conn, &wait);
	} else if (strcmp(req, "wait-any") == 0 && n >= 3) {
		double timeout;
		if (!serve_duration("wait-any TIMEOUT", w[1], &timeout, reply, size) ||
		    !serve_find_all(s, w + 2, (size_t)(n - 2), wait.procs, reply, size))
			return;
		wait.count = (unsigned)(n - 2);
		wait.deadline_s = serve_now_s() + timeout;
		serve_wait_or_answer(s, conn, &wait);
	} else if (strcmp(req, "stop") == 0 && n >= 3) {
		double grace;
		unsigned idx[SERVE_MAX_WORDS];
		if (!serve_duration("stop GRACE", w[1], &grace, reply, size) ||
		    !serve_find_all(s, w + 2, (size_t)(n - 2), idx, reply, size))
			return;
		struct supervised *ps[SERVE_MAX_WORDS];
		for (int i = 0; i < n - 2; i++)
			ps[i] = &s->sup.procs[idx[i]];
		supervisor_stop_some(&s->sup, ps, (size_t)(n - 2), grace);
		serve_exits_reply(s, idx, (size_t)(n - 2), reply, size);
	} else if (strcmp(req, "stop-child") == 0 && n == 3) {
		double grace;
		unsigned idx;
		if (!serve_duration("stop-child GRACE", w[1], &grace, reply, size) ||
		    !serve_find_all(s, w + 2, 1, &idx, reply, size))
			return;
		supervisor_stop_child(&s->sup, &s->sup.procs[idx], grace);
		serve_exits_reply(s, &idx, 1, reply, size);
	} else if (strcmp(req, "stop-all") == 0 && n == 1) {
		supervisor_stop_all(&s->sup, SERVE_STOP_ALL_GRACE_S);
		unsigned idx[SUPERVISOR_MAX_PROCESSES];
		for (unsigned i = 0; i < s->sup.count; i++)
			idx[i] = i;
		serve_exits_reply(s, idx, s->sup.count, reply, size);
	} else if (strcmp(req, "asked") == 0 && n == 2) {
		unsigned idx;
		if (!serve_find_all(s, w + 1, 1, &idx, reply, size))
			return;
		s->sup.procs[idx].asked = true;
		snprintf(reply, size, "ok");
	} else if (strcmp(req, "leftovers") == 0 && n == 1) {
		char text[8192];
		snprintf(reply, size, "ok");
		if (supervisor_leftovers_wait(&s->sup, text, sizeof(text)))
			for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
				snprintf(reply + strlen(reply), size - strlen(reply), " %s", line);
	} else if (serve_rows_dispatch(s, conn, w, n, reply, size)) {
	} else if (serve_calibration_dispatch(s, w, n, reply, size)) {
	} else if (serve_analysis_dispatch(s, w, n, reply, size)) {
	} else if (serve_parameters_dispatch(s, w, n, reply, size)) {
	} else if (serve_conduct_request(s->conduct, w, n, reply, size)) {
	} else if (!serve_events_request(&s->events, w, n, reply, size) &&
	           !serve_runfolder_request(&s->runfolder, &s->sup, &s->events, w, n, reply,
	                                    size)) {
		snprintf(
		    reply, size,
		    "error: unknown request or wrong number of words: '%.64s' (requests: start, "
		    "ready, wait-any, stop, stop-child, stop-all, asked, leftovers, stats, "
		    "shutdown, origin-from, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
		    req, SERVE_EVENTS_REQUESTS, SERVE_RUNFOLDER_REQUESTS, SERVE_HIERARCHY_REQUESTS,
		    SERVE_ROWS_REQUESTS, SERVE_GENERATE_REQUESTS, SERVE_DRIVE_REQUESTS,
		    SERVE_CALIBRATE_REQUESTS, SERVE_QUERIES_REQUESTS, SERVE_CALIBRATION_REQUESTS,
		    SERVE_ANALYSIS_REQUESTS, SERVE_PARAMETERS_REQUESTS, SERVE_CONDUCT_REQUESTS);
	}
	/* what a stop or a start waited through may answer a held wait */
	serve_check_waits(s);
}

static void serve_command(void *ctx, struct control_conn *conn, char *line)
{
	struct serve *s = ctx;
	static char *words[SERVE_MAX_WORDS];
	static char reply[SERVE_LINE_MAX];
	reply[0] = '\0';
	int n = request_words_decode(line, words, SERVE_MAX_WORDS);
	if (n < 0)
		snprintf(reply, sizeof(reply),
		         "error: malformed request (more than %d words, or a %% not followed by "
		         "two hex digits)",
		         SERVE_MAX_WORDS);
	else
		serve_request(s, conn, words, n, reply, sizeof(reply));
	if (reply[0])
		control_conn_reply(conn, reply);
}

static char *serve_stats(void *ctx)
{
	struct serve *s = ctx;
	unsigned running = 0;
	for (unsigned i = 0; i < s->sup.count; i++)
		running += !s->sup.procs[i].reaped;
	json_t *o = json_pack("{s:i, s:i}", "started", (int)s->sup.count, "running", (int)running);
	char *text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return text;
}

/* Exits reaped, signals read (each only hurries a stop), ready files and deadlines looked at. */
static void serve_tick(evutil_socket_t fd, short what, void *arg)
{
	struct serve *s = arg;
	supervisor_poll(&s->sup, 0);
	serve_check_waits(s);
	/* a conducted run ends with its steps (its interruption first, on a signal) */
	if (s->conduct && serve_conduct_poll(s->conduct, s->sup.signal))
		event_base_loopbreak(s->base);
}

/* DIR/processes.tsv, which `register` made, for appending; -1 (said) when it is not there. */
static int serve_processes_file(const char *out_dir)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/processes.tsv", out_dir);
	int fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		fprintf(stderr, "allocspike-run supervise: %s: %s (made by register)\n", path,
		        strerror(errno));
	return fd;
}

/* A conducted run's beginning: its folder begun as the request `begin` does, with this controller
 * as the run's owner, then its steps started. False (said on stderr) when either fails. */
static bool serve_conduct_begin(struct serve *s, const char *socket_path)
{
	struct serve_conduct *c = s->conduct;
	char owner[32], reply[PATH_MAX + 512];
	snprintf(owner, sizeof(owner), "%ld", (long)getpid());
	char *w[] = {"begin", owner, (char *)c->scenario, (char *)c->out};
	serve_runfolder_request(&s->runfolder, &s->sup, &s->events, w, 4, reply, sizeof(reply));
	if (strncmp(reply, "ok ", 3) != 0) {
		fprintf(stderr, "%s: %s\n%s: error: the run could not begin in %s\n", c->scenario,
		        reply, c->scenario, c->out);
		return false;
	}
	snprintf(c->dir, sizeof(c->dir), "%.4000s", reply + 3);
	return serve_conduct_start(c, s->base, socket_path, s->sup.processes_fd);
}

/* A conducted run's end, once its steps ended (or could not start): `finish` with their outcome. */
static void serve_conduct_finish(struct serve *s)
{
	char *w[8], text[1200], reply[256];
	int n = serve_conduct_finish_words(s->conduct, w, text, sizeof(text));
	serve_runfolder_request(&s->runfolder, &s->sup, &s->events, w, n, reply, sizeof(reply));
	snprintf(s->conduct->end, sizeof(s->conduct->end), "%.15s",
	         strncmp(reply, "ok ", 3) == 0 ? reply + 3 : "failed");
}

int serve_main(const char *socket_path, const char *out_dir, struct serve_conduct *conduct)
{
	parent_death_arm("allocspike-run");
	signal(SIGPIPE, SIG_IGN);
	/* Every process of the run is this controller's child and inherits its open-files limit: a
	 * resolver or daemon with tens of thousands of requests in flight needs a socket each. */
	struct rlimit nofile;
	if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
		nofile.rlim_cur = nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
	static struct serve s;
	/* without a folder yet, `begin` makes it and its processes.tsv */
	int processes_fd = out_dir ? serve_processes_file(out_dir) : -1;
	if (out_dir && processes_fd < 0)
		return CLI_EXIT_FAILED;
	run_events_init(&s.events);
	s.conduct = conduct;
	/* the rows' and the hierarchy's sockets and ready files go beside SOCKET (procs_begin's
	 * control folder) */
	const char *slash = strrchr(socket_path, '/');
	snprintf(s.ctl_dir, sizeof(s.ctl_dir), "%.*s", slash ? (int)(slash - socket_path) : 1,
	         slash ? socket_path : ".");
	s.log = (struct events_log){.hand_over = run_events_hand_over, .ctx = &s.events};
	/* served, the scenario does the interrupting: a signal here only drops the grace of stops;
	 * conducted, the first one interrupts the run */
	if (!supervisor_init(&s.sup, &s.log, processes_fd)) {
		fprintf(stderr, "allocspike-run supervise: cannot take the signals\n");
		if (processes_fd >= 0)
			close(processes_fd);
		return CLI_EXIT_FAILED;
	}
	s.sup.stopping = !conduct;
	if (conduct) /* the user ran a scenario: its messages are the scenario's */
		s.sup.who = conduct->scenario;
	struct proc_stat self;
	if (processes_fd >= 0)
		processes_file_add(processes_fd, RUN_OWNER_CONTROLLER, getpid(),
		                   proc_stat_read(getpid(), &self) ? self.start_ticks : 0);
	char err[4400];
	s.base = event_base_new();
	struct control_server *ctl =
	    s.base ? control_server_open(s.base, socket_path, serve_stats, &s, err, sizeof(err))
	           : NULL;
	int rc = CLI_EXIT_OK;
	if (!ctl) {
		fprintf(stderr, "allocspike-run supervise: %s\n", s.base ? err : "libevent");
		rc = CLI_EXIT_FAILED;
	} else if (conduct && !serve_conduct_begin(&s, socket_path)) {
		if (s.runfolder.dir[0]) /* begun, its steps not started: a failed run */
			serve_conduct_finish(&s);
		control_server_close(ctl);
		rc = CLI_EXIT_FAILED;
	} else {
		control_server_set_commands(ctl, SERVE_LINE_MAX, serve_command, serve_closed, &s);
		struct event *tick = event_new(s.base, -1, EV_PERSIST, serve_tick, &s);
		struct event *sig =
		    event_new(s.base, s.sup.signal_fd, EV_READ | EV_PERSIST, serve_tick, &s);
		struct timeval every = {0, SERVE_TICK_MS * 1000};
		event_add(tick, &every);
		event_add(sig, NULL);
		event_base_dispatch(s.base); /* until `shutdown`, or a conducted run's steps end */
		if (conduct)
			serve_conduct_finish(&s);
		event_free(tick);
		event_free(sig);
		control_server_close(ctl);
	}
	supervisor_stop_all(&s.sup, SERVE_STOP_ALL_GRACE_S);
	supervisor_close(&s.sup);
	run_events_free(&s.events); /* what is still pending written */
	serve_rows_free(&s.rows);
	serve_drive_end(&s.drive);
	serve_calibration_free(&s.calibration);
	if (s.sup.processes_fd >= 0) /* the one given, or `begin`'s */
		close(s.sup.processes_fd);
	for (unsigned i = 0; i < s.sup.count; i++) {
		for (unsigned a = 0; a < s.specs[i]->argc; a++)
			free(s.specs[i]->argv[a]);
		free(s.specs[i]);
	}
	if (conduct) { /* the controller's own steps, their client on our loop */
		conduct_steps_free(conduct->steps);
		conduct->steps = NULL;
	}
	if (s.base)
		event_base_free(s.base);
	return rc;
}
