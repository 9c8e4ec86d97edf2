/* agent/exposition.h - the agent's figures in Prometheus' formats: the text format (version 0.0.4)
 * of the latest read for /metrics, and OpenMetrics with timestamps for a whole record. */
#ifndef ALLOCSPIKE_AGENT_EXPOSITION_H
#define ALLOCSPIKE_AGENT_EXPOSITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sampler.h"

/* The labels every series carries: which run, host and variant (docs/agent.md). */
struct agent_labels {
	const char *run, *host, *variant;
};

#define EXPOSITION_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

/* Writes every figure of s's latest read to out. A figure the read did not give (NAN) is left
 * out, never written as NaN or 0; before the first read only the agent's own series are written. */
void exposition_write(FILE *out, const struct agent_labels *labels, const struct agent_sampler *s);

/* Converts a record (record.h: one JSON line per read) read from in into OpenMetrics on out, each
 * sample stamped with its read's start, families whole and in the table's order, "# EOF" last:
 * what `promtool tsdb create-blocks-from openmetrics` imports. False with the line number in err
 * on a line that is not a read. */
bool exposition_openmetrics(FILE *in, FILE *out, const struct agent_labels *labels, char *err,
                            size_t err_size);

#endif
