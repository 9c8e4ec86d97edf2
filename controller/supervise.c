/* controller/supervise.c - allocspike-run supervise, state-dir and clean-stale (supervise.h). */
#include "supervise.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_parse.h"
#include "events_log.h"
#include "monotonic.h"
#include "parent_death.h"
#include "proc_stat.h"
#include "run_registry.h"
#include "serve.h"
#include "supervise_plan.h"
#include "supervisor.h"

void supervise_usage(FILE *out)
{
	fprintf(out,
	        "allocspike-run supervise --plan FILE --out DIR [--start-at T] [--dry-run]\n"
	        "allocspike-run supervise --serve SOCKET --out DIR | --begin\n"
	        "  --plan FILE  the processes to run, in order (JSON: docs/controller.md)\n"
	        "  --serve SOCKET  start, wait for and stop processes as asked over SOCKET\n"
	        "               (allocspike-run ask) until `shutdown`: a scenario's whole run\n"
	        "  --begin      (with --serve) the run folder is made by the request `begin`\n"
	        "  --out DIR    the run folder: events.jsonl, processes.tsv, the logs\n"
	        "  --start-at T t_s 0 of the events: the schedule's start (seconds since the\n"
	        "               epoch; default: when the controller starts)\n"
	        "  --dry-run    print the plan and its expected duration; start nothing\n"
	        "allocspike-run state-dir     print the folder where runs in progress register\n"
	        "allocspike-run register --owner PID DIR   DIR/processes.tsv made, PID's run\n"
	        "                             registered (a scenario script's)\n"
	        "allocspike-run unregister --owner PID     that run ended, nothing left\n"
	        "allocspike-run clean-stale   stop what killed runs left; one JSON line per run\n");
}

struct supervise_options {
	const char *plan, *out, *serve;
	uint64_t start_at_ns; /* 0: none */
	bool dry_run, begin;
};

/* CLI_EXIT_OK to go on, -1 after --help, or the exit status. */
static int supervise_parse(struct supervise_options *o, int argc, char **argv)
{
	enum { OPT_PLAN = 256, OPT_OUT, OPT_DRY_RUN, OPT_HELP, OPT_SERVE, OPT_BEGIN, OPT_START_AT };
	static const struct option opts[] = {
	    {"plan", required_argument, NULL, OPT_PLAN},
	    {"serve", required_argument, NULL, OPT_SERVE},
	    {"out", required_argument, NULL, OPT_OUT},
	    {"begin", no_argument, NULL, OPT_BEGIN},
	    {"dry-run", no_argument, NULL, OPT_DRY_RUN},
	    {"start-at", required_argument, NULL, OPT_START_AT},
	    {"help", no_argument, NULL, OPT_HELP},
	    {NULL, 0, NULL, 0},
	};
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case OPT_START_AT: /* the generator's grammar for the same time */
			if (!cli_option_epoch("--start-at", optarg, &o->start_at_ns))
				return CLI_EXIT_USAGE;
			break;
		case OPT_PLAN:
			o->plan = optarg;
			break;
		case OPT_OUT:
			o->out = optarg;
			break;
		case OPT_SERVE:
			o->serve = optarg;
			break;
		case OPT_DRY_RUN:
			o->dry_run = true;
			break;
		case OPT_BEGIN:
			o->begin = true;
			break;
		case OPT_HELP:
			supervise_usage(stdout);
			return -1;
		default:
			supervise_usage(stderr);
			return CLI_EXIT_USAGE;
		}
	}
	if (optind < argc || !o->plan == !o->serve || !o->out == !(o->serve && o->begin) ||
	    (o->serve && (o->dry_run || o->start_at_ns)) || (o->begin && !o->serve)) {
		fprintf(stderr, "allocspike-run supervise: %s\n",
		        optind < argc
		            ? "unexpected argument"
		            : "--plan and --out are required (or --serve and --out, or --serve "
		              "and --begin)");
		supervise_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

/* The killed runs found before this run's folder exists, for its events. */
static void supervise_keep_stale(void *ctx, const char *run_dir, json_t *stopped)
{
	json_array_append_new((json_t *)ctx,
	                      json_pack("{s:s, s:O}", "run", run_dir, "stopped", stopped));
}

/* Starts the plan's processes in order, each waited for until ready; one that is not is stopped
 * and the run goes on without it. Returns how many became ready. */
static unsigned supervise_start_all(struct supervisor *s, const struct supervise_plan *plan)
{
	unsigned ready = 0;
	for (unsigned i = 0; i < plan->count && !s->signal; i++) {
		const struct plan_process *spec = &plan->processes[i];
		struct supervised *p = supervisor_start(s, spec);
		if (!p) {
			events_log_add(s->events, spec->name, "failed",
			               json_pack("{s:s}", "reason", "could not be started"));
			continue;
		}
		char addr[256], reason[160];
		switch (supervisor_wait_ready(s, p, addr, sizeof(addr))) {
		case READY_YES:
			events_log_add(s->events, spec->name, "ready",
			               addr[0] ? json_pack("{s:s, s:i}", "addr", addr, "pid",
			                                   (int)p->target.pid)
			                       : json_pack("{s:i}", "pid", (int)p->target.pid));
			ready++;
			break;
		case READY_TIMEOUT:
			snprintf(reason, sizeof(reason), "not ready within %g s",
			         spec->ready_timeout_s);
			fprintf(stderr,
			        "allocspike-run: %s (pid %ld) %s; the run goes on without it\n",
			        spec->name, (long)p->target.pid, reason);
			events_log_add(s->events, spec->name, "failed",
			               json_pack("{s:s}", "reason", reason));
			supervisor_stop(s, p, 1);
			break;
		case READY_EXITED:
		case READY_SIGNAL:
		case READY_NOT_YET: /* never: the wait ends otherwise */
			break;      /* the exit is recorded; a signal ends the run */
		}
	}
	return ready;
}

/* Until a signal, the duration, the exit of a process that ends the run, or every exit. */
static void supervise_wait(struct supervisor *s, const struct supervise_plan *plan)
{
	double end = plan->duration_s > 0 ? (double)monotonic_ns() / 1e9 + plan->duration_s : 0;
	for (;;) {
		bool running = false, ender_gone = false;
		for (unsigned i = 0; i < s->count; i++) {
			running = running || !s->procs[i].reaped;
			ender_gone =
			    ender_gone || (s->procs[i].reaped && s->procs[i].spec->ends_run);
		}
		double left = end > 0 ? end - (double)monotonic_ns() / 1e9 : 1;
		if (s->signal || !running || ender_gone || left <= 0)
			return;
		supervisor_poll(s, left < 1 ? left : 1);
	}
}

/* Whether a process whose exit ends the run (the generator) failed on its own: not stopped by
 * the controller, and not exit status 0; why into err. */
static bool supervise_ender_failed(const struct supervisor *s, char *err, size_t err_size)
{
	for (unsigned i = 0; i < s->count; i++) {
		const struct supervised *p = &s->procs[i];
		if (!p->spec->ends_run || !p->reaped || p->asked ||
		    (WIFEXITED(p->status) && WEXITSTATUS(p->status) == 0))
			continue;
		snprintf(err, err_size, "%s %s %d", p->spec->name,
		         WIFSIGNALED(p->status) ? "died of signal" : "exited with status",
		         WIFSIGNALED(p->status) ? WTERMSIG(p->status) : WEXITSTATUS(p->status));
		return true;
	}
	return false;
}

int supervise_main(int argc, char **argv)
{
	struct supervise_options o = {0};
	int rc = supervise_parse(&o, argc, argv);
	if (rc != CLI_EXIT_OK)
		return rc < 0 ? CLI_EXIT_OK : rc;
	if (o.serve)
		return serve_main(o.serve, o.out, NULL);
	static struct supervise_plan plan; /* 32 processes of 4 kB paths: not on the stack */
	char err[4400];
	if (!supervise_plan_load(&plan, o.plan, o.out, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run supervise: %s\n", err);
		return CLI_EXIT_USAGE;
	}
	if (o.dry_run) {
		printf("run folder %s\n", o.out);
		supervise_plan_print(&plan, stdout);
		supervise_plan_free(&plan);
		return CLI_EXIT_OK;
	}
	parent_death_arm("allocspike-run");
	signal(SIGPIPE, SIG_IGN);
	struct events_log events = {0};
	struct supervisor sup;
	/* signals blocked first: a Ctrl-C during the setup waits for the stop path */
	if (!supervisor_init(&sup, &events, -1)) {
		fprintf(stderr, "allocspike-run supervise: cannot take the signals\n");
		supervise_plan_free(&plan);
		return CLI_EXIT_FAILED;
	}
	/* before this run writes anything: a killed run's folder may be this very path */
	char state[4096];
	bool registered = run_registry_dir(state, sizeof(state), err, sizeof(err));
	json_t *stale = json_array();
	if (registered)
		run_registry_clean_stale(state, supervise_keep_stale, stale);
	else
		fprintf(stderr,
		        "allocspike-run supervise: the state folder: %s; a kill of this run "
		        "cannot be cleaned up by the next one\n",
		        err);
	bool ok = runfolder_writer_open(&events.writer, o.out, err, sizeof(err));
	int processes_fd = ok ? processes_file_create(o.out, err, sizeof(err)) : -1;
	if (!ok || processes_fd < 0) {
		fprintf(stderr, "allocspike-run supervise: %s\n", err);
		runfolder_writer_close(&events.writer);
		supervisor_close(&sup);
		json_decref(stale);
		supervise_plan_free(&plan);
		return CLI_EXIT_FAILED;
	}
	/* the schedule's clock when it is known, so these events line up with the generator's */
	events.t0_ns = o.start_at_ns ? o.start_at_ns : realtime_ns();
	sup.processes_fd = processes_fd;
	/* the registry names the folder whatever the next run's working directory */
	char out_abs[PATH_MAX];
	if (!realpath(o.out, out_abs))
		snprintf(out_abs, sizeof(out_abs), "%s", o.out);
	size_t i;
	json_t *run;
	json_array_foreach(stale, i, run)
	    events_log_add(&events, "_controller", "stale_run", json_incref(run));
	json_decref(stale);
	struct proc_stat self;
	processes_file_add(processes_fd, RUN_OWNER_CONTROLLER, getpid(),
	                   proc_stat_read(getpid(), &self) ? self.start_ticks : 0);
	if (registered && !run_registry_add(state, getpid(), out_abs, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run supervise: %s\n", err);
		registered = false;
	}
	unsigned ready = supervise_start_all(&sup, &plan);
	if (ready > 0)
		supervise_wait(&sup, &plan);
	supervisor_stop_all(&sup, plan.grace_s);
	char leftovers[4096];
	bool left = supervisor_leftovers_wait(&sup, leftovers, sizeof(leftovers));
	if (left) {
		for (char *nl = strchr(leftovers, '\n'); nl; nl = strchr(nl, '\n'))
			*nl = nl[1] ? ' ' : '\0';
		fprintf(stderr, "allocspike-run supervise: still running after the stop: %s\n",
		        leftovers);
		events_log_add(&events, "_controller", "leftover",
		               json_pack("{s:s}", "processes", leftovers));
	} else if (registered) {
		run_registry_remove(state, getpid()); /* else the next run finds and stops them */
	}
	if (sup.signal) {
		char name[16];
		snprintf(name, sizeof(name), "SIG%s", sigabbrev_np(sup.signal));
		events_log_add(&events, "_controller", "interrupted",
		               json_pack("{s:s}", "signal", name));
		rc = 130;
	} else if (ready == 0 || left || supervise_ender_failed(&sup, err, sizeof(err))) {
		events_log_add(&events, "_controller", "failed",
		               json_pack("{s:s}", "reason",
		                         left         ? "processes left running"
		                         : ready == 0 ? "no process became ready"
		                                      : err));
		rc = CLI_EXIT_FAILED;
	} else {
		events_log_add(&events, "_controller", "ended", NULL);
		rc = CLI_EXIT_OK;
	}
	supervisor_close(&sup);
	close(processes_fd);
	if (!runfolder_writer_close(&events.writer)) {
		fprintf(stderr, "allocspike-run supervise: %s\n",
		        runfolder_writer_failure(&events.writer));
		rc = rc == CLI_EXIT_OK ? CLI_EXIT_FAILED : rc;
	}
	supervise_plan_free(&plan);
	return rc;
}

/* The registry's folder into state for a subcommand that takes no arguments: CLI_EXIT_OK, or the
 * exit status after saying why on stderr. */
static int registry_dir_for(const char *cmd, int argc, char *state, size_t size)
{
	if (argc != 1) {
		fprintf(stderr, "allocspike-run %s: no arguments are taken\n", cmd);
		return CLI_EXIT_USAGE;
	}
	char err[4400];
	if (!run_registry_dir(state, size, err, sizeof(err))) {
		fprintf(stderr, "allocspike-run %s: %s\n", cmd, err);
		return CLI_EXIT_FAILED;
	}
	return CLI_EXIT_OK;
}

int state_dir_main(int argc, char **argv)
{
	(void)argv;
	char state[4096];
	int rc = registry_dir_for("state-dir", argc, state, sizeof(state));
	if (rc != CLI_EXIT_OK)
		return rc;
	printf("%s\n", state);
	return CLI_EXIT_OK;
}

static void clean_stale_print(void *ctx, const char *run_dir, json_t *stopped)
{
	(void)ctx;
	json_t *line = json_pack("{s:s, s:O}", "run", run_dir, "stopped", stopped);
	char *text = json_dumps(line, JSON_COMPACT);
	if (text)
		printf("%s\n", text);
	free(text);
	json_decref(line);
}

int clean_stale_main(int argc, char **argv)
{
	(void)argv;
	char state[4096];
	int rc = registry_dir_for("clean-stale", argc, state, sizeof(state));
	if (rc != CLI_EXIT_OK)
		return rc;
	run_registry_clean_stale(state, clean_stale_print, NULL);
	fflush(stdout);
	return CLI_EXIT_OK;
}

/* --owner PID as the only option; 0 when malformed (said). */
static pid_t registry_owner(const char *cmd, int argc, char **argv, int want_args)
{
	char *end;
	long pid = argc == 3 + want_args && strcmp(argv[1], "--owner") == 0
	               ? strtol(argv[2], &end, 10)
	               : 0;
	if (pid <= 1 || *end) {
		fprintf(stderr, "allocspike-run %s: --owner PID%s is expected\n", cmd,
		        want_args ? " and the run folder" : "");
		return 0;
	}
	return (pid_t)pid;
}

int register_main(int argc, char **argv)
{
	pid_t owner = registry_owner("register", argc, argv, 1);
	if (!owner)
		return CLI_EXIT_USAGE;
	const char *run = argv[3];
	char err[4400], state[4096], run_abs[PATH_MAX];
	struct proc_stat f;
	if (!proc_stat_read(owner, &f)) {
		fprintf(stderr, "allocspike-run register: no process %ld\n", (long)owner);
		return CLI_EXIT_FAILED;
	}
	int fd = processes_file_create(run, err, sizeof(err));
	if (fd < 0 || !processes_file_add(fd, RUN_OWNER_SCENARIO, owner, f.start_ticks)) {
		fprintf(stderr, "allocspike-run register: %s\n", fd < 0 ? err : "processes.tsv");
		if (fd >= 0)
			close(fd);
		return CLI_EXIT_FAILED;
	}
	close(fd);
	if (!realpath(run, run_abs))
		snprintf(run_abs, sizeof(run_abs), "%s", run);
	if (!run_registry_dir(state, sizeof(state), err, sizeof(err)) ||
	    !run_registry_add(state, owner, run_abs, err, sizeof(err)))
		fprintf(stderr,
		        "allocspike-run register: the state folder: %s; a kill of this run "
		        "cannot be cleaned up by the next one\n",
		        err);
	return CLI_EXIT_OK;
}

int unregister_main(int argc, char **argv)
{
	pid_t owner = registry_owner("unregister", argc, argv, 0);
	if (!owner)
		return CLI_EXIT_USAGE;
	char err[4400], state[4096];
	if (run_registry_dir(state, sizeof(state), err, sizeof(err)))
		run_registry_remove(state, owner);
	return CLI_EXIT_OK;
}
