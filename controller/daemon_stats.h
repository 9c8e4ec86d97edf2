/* controller/daemon_stats.h - allocspike-run daemon-stats: a daemon definition's `stats` line
 * (docs/daemons.md) computed from the daemon's own counters, which the definition names as data
 * (FIGURE=COUNTER+COUNTER...): the one place a definition's figures are selected and summed. */
#ifndef ALLOCSPIKE_CONTROLLER_DAEMON_STATS_H
#define ALLOCSPIKE_CONTROLLER_DAEMON_STATS_H

#include <stdio.h>

#include <jansson.h>

#include "daemon_counters.h"

/* The figure one FIGURE=EXPR word gives from c, set into line under FIGURE: the sum of EXPR's
 * '+'-separated counters (COUNTER: required; COUNTER//0: 0 when absent; COUNTER//null: the
 * figure null when absent), or null for EXPR "null". The exit status: CLI_EXIT_FAILED (with a
 * reason) when a required counter is absent or one is no whole number, CLI_EXIT_USAGE when the
 * word is no such word. */
int daemon_stats_figure(const struct daemon_counters *c, const char *word, json_t *line, char *err,
                        size_t err_size);

/* argv[0] is "daemon-stats"; the line on stdout; the exit status. */
int daemon_stats_main(int argc, char **argv);
void daemon_stats_usage(FILE *out);

#endif
