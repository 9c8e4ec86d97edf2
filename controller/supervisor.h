/* controller/supervisor.h - the processes of a run as a table: each started in its own process
 * group, tied to the controller's life, recorded with its start time before any signal, its exit
 * recorded as an event; one stop path for all (docs/controller.md, "Supervision"). */
#ifndef ALLOCSPIKE_CONTROLLER_SUPERVISOR_H
#define ALLOCSPIKE_CONTROLLER_SUPERVISOR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "events_log.h"
#include "proc_target.h"
#include "supervise_plan.h"

struct supervised {
	const struct plan_process *spec;
	struct proc_target target; /* its name, PID (and group), start time, pidfd */
	bool reaped;               /* its exit recorded */
	bool asked;                /* the controller stopped it: its exit is no crash */
	int status;                /* waitpid's, once reaped */
};

/* A plan has at most PLAN_MAX_PROCESSES; a served run (supervise --serve) starts its processes
 * as the scenario asks, several times over with calibration passes and serial groups. */
#define SUPERVISOR_MAX_PROCESSES 256

struct supervisor {
	struct supervised procs[SUPERVISOR_MAX_PROCESSES];
	unsigned count;
	/* the run's events (a served run's hand them over to the scenario's file and clock); NULL:
	 * no `started` or `exited` event and no word on stderr */
	struct events_log *events;
	int processes_fd; /* RUN/processes.tsv */
	const char *who; /* what its messages start with: allocspike-run, or a conducted scenario */
	int signal_fd;   /* INT, TERM, HUP and CHLD, blocked and read here */
	int signal;      /* the first INT, TERM or HUP; 0 while none came */
	bool stopping;   /* in supervisor_stop_all: a signal now only drops the grace periods */
	bool hurry;
};

/* Blocks INT, TERM, HUP and CHLD (read through a signalfd from now on, so no signal is lost and
 * none cuts a stop short). */
bool supervisor_init(struct supervisor *s, struct events_log *events, int processes_fd);
void supervisor_close(struct supervisor *s);

/* Starts spec's command: a new process group, SIGKILL when the controller dies
 * (PR_SET_PDEATHSIG), pinned to its CPUs, stdout and stderr appended to its log; its row in
 * processes.tsv and its `started` event. Returns it, or NULL (said on stderr). */
struct supervised *supervisor_start(struct supervisor *s, const struct plan_process *spec);

enum supervisor_ready { READY_YES, READY_EXITED, READY_TIMEOUT, READY_SIGNAL, READY_NOT_YET };
/* Whether it is ready now (ADDR:PORT into addr), has exited, or READY_NOT_YET; waits for nothing.
 */
enum supervisor_ready supervisor_ready_now(struct supervised *p, char *addr, size_t addr_size);
/* Waits for "ready ADDR:PORT" in its ready file (ADDR:PORT into addr), at most its timeout, while
 * it runs and no signal comes. */
enum supervisor_ready supervisor_wait_ready(struct supervisor *s, struct supervised *p, char *addr,
                                            size_t addr_size);

/* Waits at most timeout_s for a signal or an exit; records every exit (the others go on). */
void supervisor_poll(struct supervisor *s, double timeout_s);

/* p stopped on the one stop path (controller/proc_stop.h), its exit recorded. */
void supervisor_stop(struct supervisor *s, struct supervised *p, double grace_s);
/* The same for several at once: SIGTERM to each, one grace period for all. */
void supervisor_stop_some(struct supervisor *s, struct supervised **ps, size_t count,
                          double grace_s);
/* Every process, one after the other in reverse start order, as above; a further signal only
 * drops the grace periods. At most count x (grace_s + 5 s). */
void supervisor_stop_all(struct supervisor *s, double grace_s);

/* "NAME:PID" lines of every process still there, or whose group still has a member, after at
 * most 5 s; false when none is. */
bool supervisor_leftovers_wait(struct supervisor *s, char *text, size_t size);

#endif
