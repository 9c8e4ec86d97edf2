/* agent/row_start.c - a row started by the agent (row_start.h). */
#include "row_start.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon_row.h"
#include "launch_exec.h"
#include "monotonic.h"
#include "parent_death.h"
#include "ready_file.h"
#include "variant_command.h"

static void row_sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

bool row_spawn(const struct row_plan *plan, pid_t *pid, bool *refused, char *err, size_t err_size)
{
	*refused = true;
	struct variants_table table;
	if (!variants_table_read(&table, plan->table, err, err_size))
		return false;
	char bin_dir[4096], ready[4200];
	snprintf(ready, sizeof(ready), "%s.ready", plan->control);
	struct variant_launch launch = {.bin_dir = bin_dir,
	                                .listen = plan->listen ? plan->listen : "127.0.0.1:0",
	                                .root_hints = plan->root_hints,
	                                .upstream_port = plan->upstream_port,
	                                .upstream_source = plan->upstream_source,
	                                .control = plan->control,
	                                .ready_file = ready,
	                                .options = plan->options,
	                                .n_options = plan->n_options};
	struct variant_command cmd = {0};
	char **daemon_argv = NULL;
	bool found = variant_command_bin_dir(bin_dir, sizeof(bin_dir));
	if (!found)
		snprintf(err, err_size, "cannot find the agent's own folder (/proc/self/exe)");
	bool daemon = found && plan->daemons_dir && daemon_row_is_daemon(&table, plan->row);
	bool built =
	    found &&
	    (daemon ? daemon_row_command(plan, ready, bin_dir, &daemon_argv, refused, err, err_size)
	            : variant_command_build(&table, plan->row, &launch, &cmd, err, err_size));
	variants_table_free(&table);
	if (!built)
		return false;
	*refused = false;
	/* a ready file left by an earlier start is not this one's */
	if (unlink(ready) != 0 && errno != ENOENT) {
		snprintf(err, err_size, "%s: %s", ready, strerror(errno));
		variant_command_free(&cmd);
		daemon_row_free(daemon_argv);
		return false;
	}
	pid_t agent = getpid();
	*pid = fork();
	if (*pid == 0) {
		for (size_t i = 0; i < cmd.n_env; i++)
			putenv(cmd.env[i]);
		/* our resolver arms the same death signal itself, against the agent */
		char text[32];
		snprintf(text, sizeof(text), "%ld", (long)agent);
		setenv(PARENT_DEATH_ENV, text, 1);
		launch_exec(agent, plan->row, NULL, NULL, daemon ? daemon_argv : cmd.argv);
	}
	int fork_errno = errno;
	variant_command_free(&cmd);
	daemon_row_free(daemon_argv);
	if (*pid < 0) {
		snprintf(err, err_size, "fork: %s", strerror(fork_errno));
		return false;
	}
	return true;
}

enum row_state row_poll(const struct row_plan *plan, pid_t pid, uint64_t deadline_ns, char *addr,
                        size_t addr_size, pid_t *sample, char *err, size_t err_size)
{
	char ready[4200];
	snprintf(ready, sizeof(ready), "%s.ready", plan->control);
	int status;
	if (waitpid(pid, &status, WNOHANG) == pid) {
		snprintf(err, err_size, "row %s ended before it was ready (%s %d)", plan->row,
		         WIFSIGNALED(status) ? "signal" : "exit status",
		         WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		return ROW_FAILED;
	}
	struct ready_file got;
	if (ready_file_read(ready, &got)) {
		snprintf(addr, addr_size, "%s", got.addr);
		*sample = got.pid ? got.pid : pid; /* a daemon's launcher names the daemon */
		return ROW_READY;
	}
	if (monotonic_ns() > deadline_ns) {
		snprintf(err, err_size, "row %s was not ready in time (no 'ready' in %s)",
		         plan->row, ready);
		row_stop(pid, 1);
		return ROW_FAILED;
	}
	return ROW_STARTING;
}

bool row_start(const struct row_plan *plan, double timeout_s, pid_t *pid, pid_t *sample, char *addr,
               size_t addr_size, bool *refused, char *err, size_t err_size)
{
	if (!row_spawn(plan, pid, refused, err, err_size))
		return false;
	uint64_t deadline = monotonic_ns() + (uint64_t)(timeout_s * 1e9);
	enum row_state state;
	while ((state = row_poll(plan, *pid, deadline, addr, addr_size, sample, err, err_size)) ==
	       ROW_STARTING)
		row_sleep_ms(ROW_POLL_MS);
	return state == ROW_READY;
}

void row_stop(pid_t pid, double grace_s)
{
	kill(-pid, SIGTERM);
	double until = ((double)monotonic_ns() / 1e9) + grace_s;
	while (((double)monotonic_ns() / 1e9) < until) {
		if (waitpid(pid, NULL, WNOHANG) == pid) {
			kill(-pid, SIGKILL); /* what it forked */
			return;
		}
		row_sleep_ms(20);
	}
	kill(-pid, SIGKILL);
	waitpid(pid, NULL, 0);
}
