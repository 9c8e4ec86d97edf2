/* controller/child_run.c - a program run as a child that dies with us (child_run.h). */
#include "child_run.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "launch_exec.h"
#include "parent_death.h"

int child_run(char **argv, const char *name, int *signalled)
{
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);
	pid_t me = getpid(), pid = fork();
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		/* our programs under a wrapper arm the same signal themselves (parent_death.h) */
		char text[32];
		snprintf(text, sizeof(text), "%ld", (long)me);
		setenv(PARENT_DEATH_ENV, text, 1);
		launch_exec(me, name, NULL, NULL, argv);
	}
	int status = -1;
	while (pid > 0) {
		struct timespec second = {1, 0};
		siginfo_t info;
		int sig = sigtimedwait(&set, &info, &second);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			if (!*signalled)
				*signalled = sig;
			kill(pid, sig); /* its own stop path, bounded; we wait for it */
		}
		pid_t got = waitpid(pid, &status, WNOHANG);
		if (got == pid)
			break;
		if (got < 0 && errno != EINTR) {
			status = -1;
			break;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0 || status < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
