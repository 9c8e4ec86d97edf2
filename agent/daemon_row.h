/* agent/daemon_row.h - the command that starts a preload or external row of variants.tsv (a daemon:
 * kresd, unbound, ...) on the agent's host: its daemon definition's launcher
 * (scenarios/daemons/lib/row.sh, from the definitions folder the agent was started with; nothing
 * else is run), which prepares it, preloads its allocator and the live sampler, waits until it
 * answers, checks the allocator and writes the ready file with the daemon's PID (docs/agent.md,
 * "Starting a row"). */
#ifndef ALLOCSPIKE_AGENT_DAEMON_ROW_H
#define ALLOCSPIKE_AGENT_DAEMON_ROW_H

#include <stdbool.h>
#include <stddef.h>

#include "row_start.h"
#include "variants_table.h"

/* argv (NULL-terminated, each word malloc'ed; free with daemon_row_free) for plan's daemon row,
 * its ready file ready, the agent's bin folder bin_dir (the build's is its parent). A daemon
 * cannot take port 0 nor send upstream to another port than 53: a listen address without a port
 * gets a free one picked here, an upstream port other than 53 is refused (false, the reason in
 * err; *refused set when the plan asked what a daemon cannot do). */
bool daemon_row_command(const struct row_start_plan *plan, const char *ready, const char *bin_dir,
                        char ***argv, bool *refused, char *err, size_t err_size);
void daemon_row_free(char **argv);

#endif
