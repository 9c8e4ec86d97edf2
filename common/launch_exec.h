/* common/launch_exec.h - the last steps before a started process becomes its program: its own
 * process group, SIGKILL when its launcher dies, its CPUs, then exec. Shared by allocspike-run (the
 * supervisor's children, `launch`) and allocspike-agent (a row it starts, --start). */
#ifndef ALLOCSPIKE_COMMON_LAUNCH_EXEC_H
#define ALLOCSPIKE_COMMON_LAUNCH_EXEC_H

#include <sched.h> /* cpu_set_t: the includer defines _GNU_SOURCE */
#include <sys/types.h>

/* In the process to become argv (async-signal-safe: also between fork and exec): a new process
 * group (setsid), PR_SET_PDEATHSIG SIGKILL, exit 125 when launcher is no longer its parent (it
 * died before the request took effect: no signal would ever come), signals unblocked, pinned to
 * cpus (NULL: anywhere; exit 126 when refused), then execvp (exit 127 when it fails). name and
 * cpus_text are for the messages on stderr, which start with the program's name. Never returns. */
void launch_exec(pid_t launcher, const char *name, const cpu_set_t *cpus, const char *cpus_text,
                 char **argv) __attribute__((noreturn));

#endif
