/* agent/plan_cycle.h - an --await-plan agent's plans one after the other (docs/agent.md, "One
 * plan after another"): how many it takes (--plans N, or unlimited), whether it awaits another
 * once one is withdrawn, and which reads of its record belong to the plan under way, so that GET
 * /record never hands a controller the reads of an earlier plan. */
#ifndef ALLOCSPIKE_AGENT_PLAN_CYCLE_H
#define ALLOCSPIKE_AGENT_PLAN_CYCLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* --plans' largest count: far beyond any run's passes; "unlimited" is the service's word. */
#define PLAN_CYCLE_MAX 1000000

struct plan_cycle {
	unsigned long long plans; /* --plans; 0: unlimited */
	unsigned long long over;  /* plans taken and withdrawn so far */
	uint64_t first_seq;       /* the record's sequence number of the plan's first read */
};

/* --plans TEXT: a count from 1 to PLAN_CYCLE_MAX or "unlimited" (0) into *plans; false with the
 * reason said on stderr. */
bool plan_cycle_parse(const char *text, unsigned long long *plans);

/* A plan's reads begin: the next read's sequence number is its first. */
void plan_cycle_begin(struct plan_cycle *c, uint64_t next_seq);

/* A taken plan withdrawn (DELETE /plan): true when the agent awaits another, false when that was
 * its last. */
bool plan_cycle_withdrawn(struct plan_cycle *c);

/* GET /record?from=SEQ: where the answer starts, never before the plan's first read. */
uint64_t plan_cycle_record_from(const struct plan_cycle *c, uint64_t from);

/* "2 of 3", "2 of unlimited": the plans over so far, for the agent's stderr. */
void plan_cycle_format(const struct plan_cycle *c, char *out, size_t size);

#endif
