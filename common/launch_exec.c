/* common/launch_exec.c - a started process made ready and exec'd (launch_exec.h). */
#define _GNU_SOURCE /* cpu_set_t, sched_setaffinity, program_invocation_short_name */
#include "launch_exec.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

void launch_exec(pid_t launcher, const char *name, const cpu_set_t *cpus, const char *cpus_text,
                 char **argv)
{
	const char *program = program_invocation_short_name;
	setsid();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != launcher) {
		dprintf(STDERR_FILENO, "%s: %s: the process that started it (pid %ld) is gone\n",
		        program, name, (long)launcher);
		_exit(125);
	}
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	if (cpus && sched_setaffinity(0, sizeof(*cpus), cpus) != 0) {
		dprintf(STDERR_FILENO, "%s: %s: cannot pin to CPUs %s: %s\n", program, name,
		        cpus_text, strerror(errno));
		_exit(126);
	}
	execvp(argv[0], argv);
	dprintf(STDERR_FILENO, "%s: %s: cannot run %s: %s\n", program, name, argv[0],
	        strerror(errno));
	_exit(127);
}
