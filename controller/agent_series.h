/* controller/agent_series.h - the reads collected from one agent, from its stream and from its
 * record, and their placement on the controller's clock in DIR/agents/NAME.jsonl
 * (docs/controller.md). */
#ifndef ALLOCSPIKE_CONTROLLER_AGENT_SERIES_H
#define ALLOCSPIKE_CONTROLLER_AGENT_SERIES_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock_history.h"

enum series_source { SERIES_FROM_STREAM, SERIES_FROM_RECORD };

struct series_read {
	uint64_t seq, agent_start_ns; /* the read's identity: its number and the agent's stamp */
	enum series_source source;
	json_t *line; /* the agent's line as it came */
};

struct agent_series {
	struct series_read *reads;
	size_t n, cap;
	bool sorted; /* reads in the agent's order (start time, then number) */
};

enum series_add_result { SERIES_ADDED, SERIES_ALREADY_THERE, SERIES_NOT_A_READ };

/* Adds one line of the agent's (docs/agent.md, "Every read"); a read already collected is kept
 * once, a line that is not a read is refused (out of memory too). */
enum series_add_result agent_series_add(struct agent_series *s, const char *line, size_t len,
                                        enum series_source source);

/* The read r placed with measurement p, as one line with its newline (malloc'ed): seq, t_start_ns
 * and t_end_ns on our clock, agent_t_start_ns and agent_t_end_ns as the agent stamped them,
 * offset_ms, source, then the agent's figures. NULL when out of memory. */
char *agent_series_place(const struct series_read *r, const struct clock_point *p);

/* Every read in the agent's order, each placed by the measurement nearest in time, written to
 * path whole (a temporary file renamed over it). False with the reason in err. */
bool agent_series_write(struct agent_series *s, const struct clock_history *h, const char *path,
                        char *err, size_t err_size);

/* Reads per source. */
size_t agent_series_count(const struct agent_series *s, enum series_source source);

void agent_series_free(struct agent_series *s);

#endif
