/* agent/shard_run.c - a shard's generator run by the agent (shard_run.h). */
#include "shard_run.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launch_exec.h"
#include "runfolder_reader.h"
#include "variant_command.h"

bool shard_run_fragment_file(const char *name)
{
	for (const char *const *f = runfolder_fragment_files; *f; f++)
		if (strcmp(name, *f) == 0)
			return true;
	return false;
}

/* The host can run it: the query file is here (the plan carries its path only), out is new. */
static bool shard_run_possible(const struct shard_plan *s, const char *out, char *err,
                               size_t err_size)
{
	struct stat st;
	if (stat(s->queries, &st) != 0 || !S_ISREG(st.st_mode) || access(s->queries, R_OK) != 0) {
		snprintf(
		    err, err_size,
		    "the query file %s is not a readable file on this host (the plan carries its "
		    "path: put it on a file system both hosts share, or copy it there first)",
		    s->queries);
		return false;
	}
	if (lstat(out, &st) == 0 || errno != ENOENT) {
		snprintf(err, err_size, "the shard's folder %s exists already", out);
		return false;
	}
	return true;
}

bool shard_run_spawn(const struct shard_plan *s, double interval_s, const char *out, pid_t *pid,
                     bool *refused, char *err, size_t err_size)
{
	*refused = true;
	char bin_dir[4096], loadgen[4200], shard[32], interval_ms[32];
	if (!shard_run_possible(s, out, err, err_size))
		return false;
	*refused = false;
	if (!variant_command_bin_dir(bin_dir, sizeof(bin_dir))) {
		snprintf(err, err_size, "cannot find the agent's own folder (/proc/self/exe)");
		return false;
	}
	snprintf(loadgen, sizeof(loadgen), "%s/allocspike-loadgen", bin_dir);
	snprintf(shard, sizeof(shard), "%u/%u", s->index, s->count);
	snprintf(interval_ms, sizeof(interval_ms), "%.0f", interval_s * 1000);
	const char *fixed[] = {loadgen,     "--queries",      s->queries,     "--schedule",
	                       s->schedule, "--shard",        shard,          "--start-at",
	                       s->start_at, "--interval-ms",  interval_ms,    "--out",
	                       out,         "--allow-remote", "--no-progress"};
	size_t n_fixed = sizeof(fixed) / sizeof(*fixed);
	char *argv[sizeof(fixed) / sizeof(*fixed) + 2 * SHARD_PLAN_MAX + 1];
	size_t n = 0;
	for (size_t i = 0; i < n_fixed; i++)
		argv[n++] = (char *)fixed[i];
	for (size_t i = 0; i < s->n_targets; i++) {
		argv[n++] = "--target";
		argv[n++] = s->targets[i];
	}
	argv[n] = NULL;
	pid_t agent = getpid();
	*pid = fork();
	if (*pid == 0)
		launch_exec(agent, "allocspike-loadgen", NULL, NULL, argv);
	if (*pid < 0) {
		snprintf(err, err_size, "fork: %s", strerror(errno));
		return false;
	}
	return true;
}

bool shard_run_ended(pid_t pid, int *status)
{
	return waitpid(pid, status, WNOHANG) == pid;
}
