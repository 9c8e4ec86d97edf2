/* agent/record.h - every read as one JSON line: the agent's record file (kept whatever happens to
 * the controller's connection) and its /samples stream carry the same lines (docs/agent.md). */
#ifndef ALLOCSPIKE_AGENT_RECORD_H
#define ALLOCSPIKE_AGENT_RECORD_H

#include <stddef.h>

#include "sampler.h"

/* The read's line, newline included, into buf: {"t_start_ns": N, "t_end_ns": N, KEY: VALUE...}
 * with the table's keys (metrics.h), a figure the read did not give left out. Returns its length
 * (snprintf's: size or more when cut). */
size_t record_format(char *buf, size_t size, const struct agent_sample *a);

#define RECORD_LINE_MAX 1024

#endif
