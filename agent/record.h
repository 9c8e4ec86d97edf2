/* agent/record.h - every read as one JSON line: the agent's record file (kept whatever happens to
 * the controller's connection) and its /samples stream carry the same lines, and GET /record
 * serves the record from a sequence number on (docs/agent.md). */
#ifndef ALLOCSPIKE_AGENT_RECORD_H
#define ALLOCSPIKE_AGENT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sampler.h"

/* The read's line, newline included, into buf: {"seq": N, "t_start_ns": N, "t_end_ns": N,
 * KEY: VALUE...} with the table's keys (metrics.h), a figure the read did not give left out.
 * Returns its length (snprintf's: size or more when cut). */
size_t record_format(char *buf, size_t size, uint64_t seq, const struct agent_sample *a);

#define RECORD_LINE_MAX 1024

/* Opens path for appending (never through a link) and counts its lines into *next_seq: a read's
 * sequence number is its line's index in the record, so an agent restarted on the same record
 * goes on numbering where the last one stopped, and the numbers it skipped name its gap. A last
 * line cut off (a write that stopped midway) is ended first, so the next read starts a line.
 * -1 with errno set on failure. */
int record_open(const char *path, uint64_t *next_seq);

/* The record's lines from index from on, into a malloc'ed *text of *len bytes. False with the
 * reason in err when it cannot be read. */
bool record_read_from(const char *path, uint64_t from, char **text, size_t *len, char *err,
                      size_t err_size);

#endif
