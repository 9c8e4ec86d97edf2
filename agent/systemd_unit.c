/* agent/systemd_unit.c - a unit's main process (systemd_unit.h). */
#include "systemd_unit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "monotonic.h"
#include "program_output.h"

bool systemd_unit_name_valid(const char *unit)
{
	size_t len = strlen(unit);
	const char *dot = strrchr(unit, '.');
	if (len == 0 || len > 255 || unit[0] == '-' || !dot || dot == unit || !dot[1])
		return false;
	return strspn(unit,
	              "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:-_.@\\") ==
	       len;
}

/* What systemd is asked: the unit's main PID, as a bare number. */
#define SYSTEMD_UNIT_ARGV(unit)                                                                    \
	{                                                                                          \
		"systemctl", "show", "--property=MainPID", "--value", "--", (char *)(unit), NULL   \
	}

/* systemctl's answer (its status st, its stdout out) as the main PID; 0 with the reason in err. */
static pid_t main_pid_of(const char *unit, int st, const char *out, char *err, size_t err_size)
{
	char *end = NULL;
	long pid = st == 0 && out ? strtol(out, &end, 10) : 0;
	bool number = end && end != out && (*end == '\n' || *end == '\0');
	if (st != 0)
		snprintf(err, err_size,
		         st == PROGRAM_TIMED_OUT ? "systemctl did not answer within %d ms"
		         : st == 127 || st < 0   ? "systemctl could not be run (exit %d)"
		                                 : "systemctl show failed (exit %d)",
		         st == PROGRAM_TIMED_OUT ? SYSTEMD_UNIT_ASK_MS : st);
	else if (!number || pid < 0 || pid > 4194304)
		snprintf(err, err_size, "systemctl gave no main PID for %s", unit);
	else if (pid == 0)
		snprintf(err, err_size, "unit %s has no main process (is it running?)", unit);
	return st == 0 && number && pid > 0 && pid <= 4194304 ? (pid_t)pid : 0;
}

pid_t systemd_unit_main_pid(const char *unit, char *err, size_t err_size)
{
	char *argv[] = SYSTEMD_UNIT_ARGV(unit);
	struct program_run how = {
	    .timeout_ms = SYSTEMD_UNIT_ASK_MS, .max_out = SYSTEMD_UNIT_OUT_MAX, .quiet = true};
	char *out = NULL;
	int st = program_output(argv, &how, &out);
	pid_t pid = main_pid_of(unit, st, out, err, err_size);
	free(out);
	return pid;
}

struct systemd_unit_ask {
	const char *unit;
	struct program_child child;
	struct event *ev; /* its stdout readable, or its time up */
	uint64_t deadline_ns;
	char out[SYSTEMD_UNIT_OUT_MAX + 1];
	size_t used;
	systemd_unit_answered done;
	void *arg;
};

/* The child ended (its stdout closed) or its time ran out: reaped, answered, freed. */
static void ask_end(struct systemd_unit_ask *ask, bool in_time)
{
	int st = program_end(&ask->child, ask->deadline_ns, in_time);
	ask->out[ask->used] = '\0';
	char err[256] = "";
	pid_t pid = main_pid_of(ask->unit, st, ask->out, err, sizeof(err));
	ask->done(pid, err, ask->arg);
	event_free(ask->ev);
	free(ask);
}

static void ask_readable(evutil_socket_t fd, short what, void *arg)
{
	struct systemd_unit_ask *ask = arg;
	if (what & EV_TIMEOUT) {
		ask_end(ask, false);
		return;
	}
	char drop[256];
	bool keep = ask->used < SYSTEMD_UNIT_OUT_MAX;
	ssize_t n = keep ? read(fd, ask->out + ask->used, SYSTEMD_UNIT_OUT_MAX - ask->used)
	                 : read(fd, drop, sizeof(drop));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0)
		ask_end(ask, true);
	else if (keep)
		ask->used += (size_t)n;
}

struct systemd_unit_ask *systemd_unit_ask(struct event_base *base, const char *unit,
                                          systemd_unit_answered done, void *arg)
{
	char *argv[] = SYSTEMD_UNIT_ARGV(unit);
	struct program_run how = {.quiet = true};
	struct systemd_unit_ask *ask = calloc(1, sizeof(*ask));
	if (!ask || program_start(argv, &how, true, &ask->child) != 0) {
		free(ask);
		return NULL;
	}
	ask->unit = unit;
	ask->done = done;
	ask->arg = arg;
	ask->deadline_ns = monotonic_ns() + SYSTEMD_UNIT_ASK_MS * 1000000ull;
	struct timeval limit = {SYSTEMD_UNIT_ASK_MS / 1000, (SYSTEMD_UNIT_ASK_MS % 1000) * 1000};
	evutil_make_socket_nonblocking(ask->child.out_fd);
	ask->ev = event_new(base, ask->child.out_fd, EV_READ | EV_PERSIST, ask_readable, ask);
	if (!ask->ev || event_add(ask->ev, &limit) != 0) {
		systemd_unit_ask_cancel(ask);
		return NULL;
	}
	return ask;
}

void systemd_unit_ask_cancel(struct systemd_unit_ask *ask)
{
	if (!ask)
		return;
	program_end(&ask->child, 0, false);
	if (ask->ev)
		event_free(ask->ev);
	free(ask);
}
