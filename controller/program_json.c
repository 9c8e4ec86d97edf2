/* controller/program_json.c - a program's JSON report (program_json.h). */
#include "program_json.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "monotonic.h"

/* A report is a few hundred bytes; more is not one. */
#define PROGRAM_JSON_MAX 65536

json_t *program_json(char **env, size_t n_env, char **argv, unsigned timeout_ms)
{
	int pipefd[2];
	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return NULL;
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null < 0 || dup2(null, 0) < 0 || dup2(null, 2) < 0 || dup2(pipefd[1], 1) < 0)
			_exit(127);
		for (size_t i = 0; i < n_env; i++)
			if (putenv(env[i]) != 0)
				_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pipefd[1]);
	if (pid < 0) {
		close(pipefd[0]);
		return NULL;
	}
	char *buf = malloc(PROGRAM_JSON_MAX + 1);
	size_t used = 0;
	uint64_t deadline = monotonic_ns() + timeout_ms * 1000000ull;
	bool in_time = buf != NULL;
	while (in_time) {
		uint64_t now = monotonic_ns();
		struct pollfd p = {pipefd[0], POLLIN, 0};
		int r = now < deadline ? poll(&p, 1, (int)((deadline - now) / 1000000) + 1) : 0;
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			in_time = false;
			break;
		}
		ssize_t n = read(pipefd[0], buf + used, PROGRAM_JSON_MAX - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || (used += (size_t)n) == PROGRAM_JSON_MAX)
			break;
	}
	close(pipefd[0]);
	if (!in_time)
		kill(pid, SIGKILL);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	json_t *json = NULL;
	if (in_time && buf && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		buf[used] = '\0';
		json = json_loads(buf, JSON_DECODE_ANY, NULL);
	}
	free(buf);
	return json;
}
