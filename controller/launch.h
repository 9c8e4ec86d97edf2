/* controller/launch.h - the last steps before a run's process becomes its program: its own
 * process group, SIGKILL when its launcher dies, its CPUs, then exec; shared by the supervisor's
 * children and allocspike-run launch (for the processes a scenario starts). */
#ifndef ALLOCSPIKE_CONTROLLER_LAUNCH_H
#define ALLOCSPIKE_CONTROLLER_LAUNCH_H

#include <sched.h>
#include <stdio.h>
#include <sys/types.h>

/* In the process to become argv (async-signal-safe: also between fork and exec): a new process
 * group (setsid), PR_SET_PDEATHSIG SIGKILL, exit 125 when launcher is no longer its parent (it
 * died before the request took effect: no signal would ever come), signals unblocked, pinned to
 * cpus (NULL: anywhere; exit 126 when refused), then execvp (exit 127 when it fails). name and
 * cpus_text are for the messages on stderr. Never returns. */
void launch_exec(pid_t launcher, const char *name, const cpu_set_t *cpus, const char *cpus_text,
                 char **argv) __attribute__((noreturn));

/* argv[0] is "launch": allocspike-run launch --parent PID [--cpus LIST] -- COMMAND...; the exit
 * status when it cannot exec. */
int launch_main(int argc, char **argv);

void launch_usage(FILE *out);

#endif
