/* agent/row_start.h - a row of variants.tsv started by the agent on its own host (--start, a plan;
 * docs/agent.md "Starting a row"): a build or env row's command from the table the agent was
 * started with (common/variant_command.h), its binary from the agent's own bin folder; a daemon row
 * through its definition's launcher (common/daemon_row.h, whose struct row_plan is the plan);
 * nothing else is ever run. In a process group of its own that is killed when the agent dies; its
 * ready file waited for, and the row stopped when the agent ends. */
#ifndef ALLOCSPIKE_AGENT_ROW_START_H
#define ALLOCSPIKE_AGENT_ROW_START_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "daemon_row.h"

/* Starts the row and waits up to timeout_s for its ready file; its PID into *pid, the PID to sample
 * into *sample (the same, or the daemon a launcher started: its ready file's "pid N"), the address
 * it serves DNS on (its ready line's ADDR:PORT) into addr. False with the
 * reason in err: *refused set when the table refuses the row (unknown, a daemon row, a table that
 * does not read: a usage error), clear when it could not be started or was not ready in time (it
 * is stopped then). */
bool row_start(const struct row_plan *plan, double timeout_s, pid_t *pid, pid_t *sample, char *addr,
               size_t addr_size, bool *refused, char *err, size_t err_size);

/* The two halves of row_start, for a caller with an event loop (--await-plan): row_spawn builds the
 * command and forks the row (false as row_start, *refused alike), then row_poll, every
 * ROW_POLL_MS, says whether it is ready (its address into addr, the PID to sample into *sample),
 * still starting, or failed (ended, or not ready by deadline_ns on the monotonic clock: then
 * stopped; the reason in err). */
#define ROW_POLL_MS 20
enum row_state { ROW_STARTING, ROW_READY, ROW_FAILED };
bool row_spawn(const struct row_plan *plan, pid_t *pid, bool *refused, char *err, size_t err_size);
enum row_state row_poll(const struct row_plan *plan, pid_t pid, uint64_t deadline_ns, char *addr,
                        size_t addr_size, pid_t *sample, char *err, size_t err_size);

/* SIGTERM to the row's process group, up to grace_s for it to end, then SIGKILL; reaped. */
void row_stop(pid_t pid, double grace_s);

#endif
