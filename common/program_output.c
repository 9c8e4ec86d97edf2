/* common/program_output.c - a program run and its output taken (program_output.h). */
#define _GNU_SOURCE /* pipe2 */
#include "program_output.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "monotonic.h"

/* The child's side: stdin (and stderr when quiet) /dev/null, or stderr appended to its log, stdout
 * the pipe, then exec. */
static void program_exec(char *const argv[], const struct program_run *how, int out_fd)
{
	/* a caller's signalfd mask and ignored SIGPIPE are not the program's */
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	int null = open("/dev/null", O_RDWR);
	int err = how->err_log && !how->quiet
	              ? open(how->err_log, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, 0666)
	              : null;
	if (null < 0 || err < 0 || dup2(null, STDIN_FILENO) < 0 ||
	    ((how->quiet || how->err_log) && dup2(err, STDERR_FILENO) < 0) ||
	    (out_fd >= 0 && dup2(out_fd, STDOUT_FILENO) < 0))
		_exit(127);
	for (size_t i = 0; i < how->n_env; i++)
		if (putenv(how->env[i]) != 0)
			_exit(127);
	execvp(argv[0], argv);
	_exit(127);
}

/* Reads fd to its end, or until the deadline (0: none) passes; false when it passed. */
static bool program_read(int fd, uint64_t deadline, char *buf, size_t max, size_t *used)
{
	char drop[4096];
	for (;;) {
		if (deadline) {
			uint64_t now = monotonic_ns();
			struct pollfd p = {fd, POLLIN, 0};
			int r =
			    now < deadline ? poll(&p, 1, (int)((deadline - now) / 1000000) + 1) : 0;
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				return false;
		}
		bool keep = buf && *used < max;
		ssize_t n =
		    keep ? read(fd, buf + *used, max - *used) : read(fd, drop, sizeof(drop));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return true;
		if (keep)
			*used += (size_t)n;
	}
}

/* Waits for pid; once the deadline (0: none) has passed, or *in_time is already false, it is
 * killed first and *in_time made false. Its wait status, or -1 when waitpid failed. */
static int program_reap(pid_t pid, uint64_t deadline, bool *in_time)
{
	int status = 0;
	for (;;) {
		bool late = !*in_time || (deadline && monotonic_ns() >= deadline);
		if (late) {
			*in_time = false;
			kill(pid, SIGKILL);
		}
		pid_t r = waitpid(pid, &status, late || !deadline ? 0 : WNOHANG);
		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -1;
		if (r == 0)
			usleep(2000); /* its stdout closed before it exited: a moment more */
	}
}

int program_start(char *const argv[], const struct program_run *how, bool take_out,
                  struct program_child *c)
{
	int pipefd[2] = {-1, -1};
	c->pid = -1;
	c->out_fd = -1;
	if (take_out && pipe2(pipefd, O_CLOEXEC) != 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0)
		program_exec(argv, how, pipefd[1]);
	if (take_out)
		close(pipefd[1]);
	if (pid < 0) {
		if (take_out)
			close(pipefd[0]);
		return -1;
	}
	c->pid = pid;
	c->out_fd = pipefd[0];
	return 0;
}

int program_end(struct program_child *c, uint64_t deadline, bool in_time)
{
	if (c->out_fd >= 0)
		close(c->out_fd);
	c->out_fd = -1;
	int status = program_reap(c->pid, deadline, &in_time);
	c->pid = -1;
	if (status < 0)
		return -1;
	if (!in_time)
		return PROGRAM_TIMED_OUT;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int program_output(char *const argv[], const struct program_run *how, char **out)
{
	struct program_child c;
	if (out)
		*out = NULL;
	if (program_start(argv, how, out != NULL, &c) != 0)
		return -1;
	uint64_t deadline = how->timeout_ms ? monotonic_ns() + how->timeout_ms * 1000000ull : 0;
	bool in_time = true;
	if (out) {
		char *buf = malloc(how->max_out + 1);
		size_t used = 0;
		in_time = program_read(c.out_fd, deadline, buf, buf ? how->max_out : 0, &used);
		if (buf)
			buf[used] = '\0';
		*out = buf;
	}
	int st = program_end(&c, deadline, in_time);
	if (st == PROGRAM_TIMED_OUT || st < 0) {
		free(out ? *out : NULL);
		if (out)
			*out = NULL;
	}
	return st;
}
