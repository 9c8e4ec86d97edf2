/* common/program_output.h - a program run to its end and its output taken: the one way the
 * controller and the agent ask another program something (a binary's --version --json, the report's
 * harness scan, gzip, systemd's main PID of a unit). */
#ifndef ALLOCSPIKE_PROGRAM_OUTPUT_H
#define ALLOCSPIKE_PROGRAM_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* It was killed when its time ran out (program_output's status). */
#define PROGRAM_TIMED_OUT (-2)

struct program_run {
	char **env; /* NAME=value words added to its environment (as env(1) adds them) */
	size_t n_env;
	unsigned timeout_ms; /* killed (SIGKILL) after this long; 0: waited for however long */
	size_t max_out;      /* what is kept of its stdout; the rest is read and dropped */
	bool quiet;          /* its stderr to /dev/null (else the caller's) */
	const char *err_log; /* else its stderr appended to this file, when set */
};

/* Runs argv (argv[0] a path, or a name found on PATH) with stdin /dev/null, the default signal
 * mask and SIGPIPE, and waits for it. With out, its stdout (at most how->max_out bytes,
 * NUL-terminated) is *out, malloc'ed, NULL when nothing could be kept; without, its stdout is the
 * caller's. Returns its exit status, 128 + the signal that ended it, PROGRAM_TIMED_OUT, or -1
 * when it could not be started. */
int program_output(char *const argv[], const struct program_run *how, char **out);

/* A program started and its output read by the caller's own event loop (the agent's question to
 * systemd while it goes on reading): program_output in two halves. */
struct program_child {
	pid_t pid;
	int out_fd; /* the read end of its stdout (close-on-exec), -1 when not taken or closed */
};

/* Starts argv as program_output does, its stdout a pipe (c->out_fd) when take_out; how->timeout_ms
 * and max_out are the caller's to keep. 0, or -1 when it could not be started. */
int program_start(char *const argv[], const struct program_run *how, bool take_out,
                  struct program_child *c);

/* Its end: out_fd closed, then the child waited for; killed first when !in_time or once the
 * monotonic deadline (ns, 0: none) passes. Its status as program_output's. */
int program_end(struct program_child *c, uint64_t deadline, bool in_time);

#endif
