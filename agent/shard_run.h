/* agent/shard_run.h - a shard plan's generator run by the agent (docs/agent.md, "A generator
 * shard"): allocspike-loadgen from the agent's own bin folder and nothing else, --shard I/N from
 * T0 with the plan's schedule, query file and targets, its fragment (a run folder) into a folder
 * of the agent's host; in a process group of its own that dies with the agent (launch_exec), as a
 * row does. */
#ifndef ALLOCSPIKE_AGENT_SHARD_RUN_H
#define ALLOCSPIKE_AGENT_SHARD_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "shard_plan.h"

/* Forks the generator for s, its run folder out (which must not exist yet), its timeline at
 * interval_s; its PID into *pid. False with the reason in err: *refused set when this host cannot
 * run it (the query file is not here, out exists), clear when the fork failed. */
bool shard_run_spawn(const struct shard_plan *s, double interval_s, const char *out, pid_t *pid,
                     bool *refused, char *err, size_t err_size);

/* Whether the generator pid ended (reaped; its wait status into *status); false while it runs. */
bool shard_run_ended(pid_t pid, int *status);

/* Whether name is one of the files of a fragment (docs/run-folder.md, "Fragments and merge") that
 * GET /fragment serves; nothing else of the folder, nor any path, is served. */
bool shard_run_fragment_file(const char *name);

#endif
