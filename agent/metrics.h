/* agent/metrics.h - the agent's figures, one table: their Prometheus names, types and help, the
 * short key the record and the stream use, and each one's value in a sample. /metrics, the record
 * file and the OpenMetrics export all read this table, so a figure is defined once. */
#ifndef ALLOCSPIKE_AGENT_METRICS_H
#define ALLOCSPIKE_AGENT_METRICS_H

#include <stddef.h>

#include "sampler.h"

struct agent_metric {
	const char *name;  /* Prometheus name; counters end in _total */
	const char *label; /* one extra label ("mode=\"user\""), or NULL */
	const char *key;   /* its key in a record line (docs/agent.md) */
	const char *type;  /* "counter" or "gauge" */
	const char *help;
	/* the figure of one read, NAN when the read did not give it (down, no control socket,
	 * an allocator without it) */
	double (*value)(const struct agent_sample *a);
};

/* The per-read figures, series of one name next to each other. */
extern const struct agent_metric AGENT_METRICS[];
extern const size_t AGENT_METRICS_COUNT;

#endif
