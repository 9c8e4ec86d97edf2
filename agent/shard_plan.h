/* agent/shard_plan.h - a shard plan (POST /plan with "kind": "shard", docs/agent.md "A generator
 * shard"): the agent runs shard I of N of the run's generator, allocspike-loadgen --shard I/N, on
 * the schedule from T0, against the run's rows. Checked here field by field; the agent runs
 * nothing but the generator it was built with (agent/shard_run.h). */
#ifndef ALLOCSPIKE_AGENT_SHARD_PLAN_H
#define ALLOCSPIKE_AGENT_SHARD_PLAN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* allocspike-report merge takes at most this many fragments */
#define SHARD_PLAN_MAX 64

struct shard_plan {
	unsigned index, count; /* shard index of count, from 1 */
	char *schedule;        /* the generator's --schedule */
	char *queries;  /* the query file: "sha256:HEX" sent to the agent (PUT /queries), or its
	                   path on this host (a shared file system) */
	char *start_at; /* T0 on this host's clock, as --start-at takes it */
	char **targets; /* "name=ROW,addr=ADDR:PORT" each, NULL-terminated */
	size_t n_targets;
};

/* The keys a shard plan has, beside "kind", "run", "interval" and "lease" (plan_request.c). */
extern const char *const shard_plan_keys[];

/* The shard's fields of root into s: "shard" "I/N", "schedule", "queries" an upload's
 * "sha256:HEX" or an absolute path,
 * "start_at" seconds since the epoch, "targets" [{"name": ROW, "addr": "ADDR:PORT"}, ...]. False
 * with the reason in err. */
bool shard_plan_fields(json_t *root, struct shard_plan *s, char *err, size_t err_size);

void shard_plan_free(struct shard_plan *s);

#endif
