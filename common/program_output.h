/* common/program_output.h - a program run to its end and its output taken: the one way the
 * controller and the agent ask another program something (a binary's --version --json, the report's
 * harness scan, gzip, systemd's main PID of a unit). */
#ifndef ALLOCSPIKE_PROGRAM_OUTPUT_H
#define ALLOCSPIKE_PROGRAM_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

/* It was killed when its time ran out (program_output's status). */
#define PROGRAM_TIMED_OUT (-2)

struct program_run {
	char **env; /* NAME=value words added to its environment (as env(1) adds them) */
	size_t n_env;
	unsigned timeout_ms; /* killed (SIGKILL) after this long; 0: waited for however long */
	size_t max_out;      /* what is kept of its stdout; the rest is read and dropped */
	bool quiet;          /* its stderr to /dev/null (else the caller's) */
};

/* Runs argv (argv[0] a path, or a name found on PATH) with stdin /dev/null, the default signal
 * mask and SIGPIPE, and waits for it. With out, its stdout (at most how->max_out bytes,
 * NUL-terminated) is *out, malloc'ed, NULL when nothing could be kept; without, its stdout is the
 * caller's. Returns its exit status, 128 + the signal that ended it, PROGRAM_TIMED_OUT, or -1
 * when it could not be started. */
int program_output(char *const argv[], const struct program_run *how, char **out);

#endif
