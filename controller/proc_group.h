/* controller/proc_group.h - the processes of a process group, found by scanning /proc: what is
 * left of a process the run started, whether or not the controller is its parent. */
#ifndef ALLOCSPIKE_CONTROLLER_PROC_GROUP_H
#define ALLOCSPIKE_CONTROLLER_PROC_GROUP_H

#include <stddef.h>
#include <sys/types.h>

/* Up to max living members (no zombies) of process group pgid that started at start_ticks or later
 * (a member older than the group's leader is another group's, from before the number was reused);
 * returns how many were found (possibly more than max). */
size_t proc_group_members(pid_t pgid, unsigned long long start_ticks, pid_t *out, size_t max);

/* The first living member of the group of leader (started at start_ticks) that is leader's child
 * (what a wrapper such as perf stat runs), or 0 when there is none. */
pid_t proc_group_child(pid_t leader, unsigned long long start_ticks);

/* What is left of a process a run recorded (pid, start_ticks) whose launcher is gone: pid itself
 * and its group while pid is still that process; nothing when pid belongs to another process now
 * (reused); when pid is gone, the members of its group, which can only be its own, since the
 * kernel never reuses a PID while a process group of that number has members. */
size_t proc_group_stale(pid_t pid, unsigned long long start_ticks, pid_t *out, size_t max);

#endif
