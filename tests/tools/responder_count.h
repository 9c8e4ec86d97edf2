/* tests/tools/responder_count.h - queries received per whole second since the first one. */
#ifndef ALLOCSPIKE_RESPONDER_COUNT_H
#define ALLOCSPIKE_RESPONDER_COUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct responder_count {
	bool started;
	double first_s;       /* monotonic time of the first query */
	uint64_t *per_second; /* index: whole seconds since first_s */
	size_t seconds;
	bool dirty;
};

/* Counts one query received at monotonic time now_s. */
void responder_count_note(struct responder_count *c, double now_s);

/* Rewrites path (through a temporary file and rename) as lines "SECOND COUNT", one per second
 * from 0 to the last second that saw a query; seconds without queries appear with 0. */
bool responder_count_write(struct responder_count *c, const char *path);

void responder_count_free(struct responder_count *c);

#endif
