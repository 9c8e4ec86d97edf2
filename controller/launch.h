/* controller/launch.h - allocspike-run launch: a process a scenario starts made the controller's
 * way (its own process group, SIGKILL when its launcher dies, its CPUs: launch_exec), then exec'd.
 */
#ifndef ALLOCSPIKE_CONTROLLER_LAUNCH_H
#define ALLOCSPIKE_CONTROLLER_LAUNCH_H

#include <sched.h>
#include <stdio.h>
#include <sys/types.h>

#include "launch_exec.h"

/* launch_exec: common/launch_exec.h (also allocspike-agent's, for a row it starts) */

/* argv[0] is "launch": allocspike-run launch --parent PID [--cpus LIST] -- COMMAND...; the exit
 * status when it cannot exec. */
int launch_main(int argc, char **argv);

void launch_usage(FILE *out);

#endif
