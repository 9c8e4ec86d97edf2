/* controller/proc_target.h - a process the controller may signal, its own child or one a scenario
 * started: known by PID and start time, pinned by a pidfd where the kernel has pidfd_open, so that
 * a PID given to another process is never signalled. */
#ifndef ALLOCSPIKE_CONTROLLER_PROC_TARGET_H
#define ALLOCSPIKE_CONTROLLER_PROC_TARGET_H

#include <stdbool.h>
#include <sys/types.h>

struct proc_target {
	char name[65];
	pid_t pid; /* also its process group */
	unsigned long long start_ticks;
	int pidfd; /* -1 where the kernel has none (the start time is checked before each signal) */
};

/* Opens its pidfd and checks, after that, that pid is still the process that started at
 * start_ticks: from then on the pidfd names that process and no later one. False (said on stderr,
 * nothing to close) when pid is another process's or gone. */
bool proc_target_open(struct proc_target *t);
void proc_target_close(struct proc_target *t);

/* It has ended: gone, a zombie, or its PID another process's. */
bool proc_target_ended(const struct proc_target *t);

/* sig to its process group and to it, only while it is the process recorded (said on stderr when
 * not); false when nothing was signalled. The group is safe to signal while the process, or its
 * zombie, holds the PID: the kernel never reuses a PID while a group of that number has members. */
bool proc_target_signal(const struct proc_target *t, int sig);

/* sig to it alone (not its group), only while it is the process recorded (said on stderr when
 * not); false when nothing was signalled. */
bool proc_target_signal_alone(const struct proc_target *t, int sig);

/* It has not ended, or a member of its group (started after it) lives on. */
bool proc_target_left(const struct proc_target *t);

/* "NAME:PID:START_TICKS" (a row of processes.tsv, as a scenario passes it); false when malformed.
 */
bool proc_target_parse(const char *text, struct proc_target *t);

#endif
