/* common/parent_death.c - a program started by a scenario dies with the script that started it
 * (see parent_death.h and scenarios/README.md, "Processes"). */
#include "parent_death.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>

void parent_death_arm(const char *program)
{
	const char *text = getenv(PARENT_DEATH_ENV);
	if (!text || !*text)
		return;
	char *end;
	errno = 0;
	long launcher = strtol(text, &end, 10);
	if (errno || *end || launcher <= 1) {
		fprintf(stderr, "%s: %s='%s' is not a process ID; ignored\n", program,
		        PARENT_DEATH_ENV, text);
		return;
	}
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) {
		fprintf(
		    stderr,
		    "%s: prctl(PR_SET_PDEATHSIG) failed; this process may outlive its launcher\n",
		    program);
		return;
	}
	/* The launcher may have died between starting us and the prctl: then no signal ever comes.
	 * Our parent is the launcher itself, or a wrapper it started (perf, valgrind) that watches
	 * it the same way; so only a parent that is neither, with the launcher gone, means
	 * orphaned. */
	if (getppid() == (pid_t)launcher)
		return;
	if (kill((pid_t)launcher, 0) != 0 && errno == ESRCH) {
		fprintf(stderr, "%s: the process that started it (pid %ld) is gone; exiting\n",
		        program, launcher);
		_exit(125);
	}
}
