/* common/parent_death.h - a program started by a scenario dies with the script that started it. */
#ifndef ALLOCSPIKE_PARENT_DEATH_H
#define ALLOCSPIKE_PARENT_DEATH_H

/* The environment variable a launcher (scenarios/lib/procs.sh) sets to its own PID. */
#define PARENT_DEATH_ENV "ALLOCSPIKE_PARENT_PID"

/* When $ALLOCSPIKE_PARENT_PID is set: asks the kernel for SIGKILL when the parent exits
 * (PR_SET_PDEATHSIG), then exits at once (status 125, a line on stderr) if the launcher is
 * already gone, since the kernel would never send that signal then. Without the variable it does
 * nothing, so a program run by hand outlives its shell as before. Call it first in main(). */
void parent_death_arm(const char *program);

#endif
