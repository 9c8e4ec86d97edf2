/* agent/exposition.h - the Prometheus text exposition format (version 0.0.4) of the agent's latest
 * sample: what /metrics serves. */
#ifndef ALLOCSPIKE_AGENT_EXPOSITION_H
#define ALLOCSPIKE_AGENT_EXPOSITION_H

#include <stdio.h>

#include "sampler.h"

/* The labels every series carries: which run, host and variant (docs/agent.md). */
struct agent_labels {
	const char *run, *host, *variant;
};

#define EXPOSITION_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

/* Writes every metric of s's latest sample to out. A figure the target did not give (NAN: no
 * control socket, or an allocator without that statistic) is left out, never written as NaN or
 * 0; before the first read only the agent's own series are written. */
void exposition_write(FILE *out, const struct agent_labels *labels, const struct agent_sampler *s);

#endif
