/* controller/proc_stop.h - the one stop path: SIGTERM to each process group, a bounded grace, then
 * SIGKILL, and the processes waited for (bounded) until they are gone. */
#ifndef ALLOCSPIKE_CONTROLLER_PROC_STOP_H
#define ALLOCSPIKE_CONTROLLER_PROC_STOP_H

#include <stdbool.h>
#include <stddef.h>

#include "proc_target.h"

/* How long SIGKILLed processes are waited for before they are reported left over. */
#define PROC_STOP_KILL_WAIT_S 5.0

/* How the caller waits: wait() returns after at most timeout_s, or sooner on an exit or a signal;
 * it sets *hurry when a signal came (the stop then goes on without grace). The supervisor reaps
 * and records its children's exits there. */
struct proc_stop_waiter {
	void (*wait)(void *ctx, double timeout_s);
	void *ctx;
	const bool *hurry;
};

/* SIGTERM to every target's group (in the order given), up to grace_s for all of them to end
 * (none once *hurry), then SIGKILL to each still there (said on stderr unless hurried) and up to
 * PROC_STOP_KILL_WAIT_S for them to end. Bounded: grace_s + PROC_STOP_KILL_WAIT_S. */
void proc_stop_targets(struct proc_target *const *targets, size_t count, double grace_s,
                       const struct proc_stop_waiter *w);

/* Waits (at most PROC_STOP_KILL_WAIT_S: a SIGKILLed process takes a moment to go) until no
 * target is left (proc_target_left); then writes "NAME:PID" of each one still left, one a line,
 * into text. False when none is. */
bool proc_stop_leftovers(struct proc_target *const *targets, size_t count,
                         const struct proc_stop_waiter *w, char *text, size_t size);

#endif
