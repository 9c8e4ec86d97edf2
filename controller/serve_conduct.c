/* controller/serve_conduct.c - the steps of a conducted run (serve_conduct.h). */
#include "serve_conduct.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "conduct_steps.h"
#include "launch_exec.h"
#include "monotonic.h"
#include "parent_death.h"
#include "proc_stat.h"
#include "run_registry.h"

#define CONDUCT_STEPS_NAME "_steps"

bool serve_conduct_start(struct serve_conduct *c, struct event_base *base, const char *socket_path,
                         int processes_fd)
{
	if (!c->argv)
		return (c->steps = conduct_steps_start(c, base, socket_path)) != NULL;
	pid_t me = getpid(), pid = fork();
	if (pid == 0) {
		setenv(CONDUCT_CONTROL_ENV, socket_path, 1);
		setenv(CONDUCT_RUN_ENV, c->dir, 1);
		/* the steps' own children are not ours: they must not take us for their parent */
		unsetenv(PARENT_DEATH_ENV);
		launch_exec(me, CONDUCT_STEPS_NAME, NULL, NULL, c->argv);
	}
	if (pid < 0) {
		fprintf(stderr, "%s: cannot start the run's steps: %s\n", c->scenario,
		        strerror(errno));
		return false;
	}
	c->pid = pid;
	/* our child until reaped: its PID is its own while its start time is read */
	struct proc_stat st;
	if (!processes_file_add(processes_fd, CONDUCT_STEPS_NAME, pid,
	                        proc_stat_read(pid, &st) ? st.start_ticks : 0))
		fprintf(stderr, "%s: processes.tsv: %s: %s\n", c->scenario, CONDUCT_STEPS_NAME,
		        strerror(errno));
	return true;
}

bool serve_conduct_poll(struct serve_conduct *c, int signal)
{
	if (c->steps && signal && !c->interrupted) {
		c->interrupted = signal;
		conduct_steps_interrupt(c->steps);
	}
	if (c->ended || c->pid <= 0)
		return c->ended || !c->steps;
	double now = (double)monotonic_ns() / 1e9;
	if (signal && !c->interrupted) {
		c->interrupted = signal;
		c->kill_at_s = now + CONDUCT_STEPS_GRACE_S;
		kill(-c->pid, SIGTERM);
	} else if (c->interrupted && now >= c->kill_at_s) {
		kill(-c->pid, SIGKILL);
	}
	if (waitpid(c->pid, &c->status, WNOHANG) != c->pid)
		return false;
	/* what the steps left of their own (a request's client) goes with them */
	kill(-c->pid, SIGKILL);
	c->ended = true;
	return true;
}

int serve_conduct_finish_words(struct serve_conduct *c, char **w, char *buf, size_t size)
{
	int n = 0;
	w[n++] = "finish";
	const char *sig = c->interrupted ? sigabbrev_np(c->interrupted) : NULL;
	if (sig) {
		w[n++] = "interrupted";
		snprintf(buf, size, "signal=SIG%s", sig);
	} else if (c->ended && WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0) {
		w[n++] = "completed";
		buf[0] = '\0';
	} else {
		w[n++] = "failed";
		if (c->failure[0])
			snprintf(buf, size, "reason=%s", c->failure);
		else if (c->ended && WIFSIGNALED(c->status))
			snprintf(buf, size, "reason=the run's steps were killed by SIG%s",
			         sigabbrev_np(WTERMSIG(c->status)) ?: "?");
		else if (c->ended)
			snprintf(buf, size, "reason=exit status %d", WEXITSTATUS(c->status));
		else
			snprintf(buf, size, "reason=the run's steps could not be started");
	}
	if (buf[0])
		w[n++] = buf;
	if (!c->timeline)
		w[n++] = "timeline=no";
	if (c->report) {
		static char report[PATH_MAX + 16];
		snprintf(report, sizeof(report), "report=%s", c->report);
		w[n++] = report;
	}
	return n;
}

bool serve_conduct_request(struct serve_conduct *c, char **w, int n, char *reply, size_t size)
{
	if (strcmp(w[0], "failure") != 0 || n != 2)
		return false;
	if (!c) {
		snprintf(reply, size, "error: failure: this run is not conducted");
		return true;
	}
	if (!c->failure[0]) /* the first reason is the run's */
		snprintf(c->failure, sizeof(c->failure), "%s", w[1]);
	snprintf(reply, size, "ok");
	return true;
}
