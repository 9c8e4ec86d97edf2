/* agent/plan_request.h - the plan a controller sends an agent started with --await-plan (POST
 * /plan, docs/agent.md "Taking the row from a controller"): which row of the agent's table to
 * start, the run's labels, the interval, and the run's resolver options, each checked against an
 * allow-list of tuning options (nothing that names a file, a program or where the resolver listens
 * or asks: those are the agent's own command line). */
#ifndef ALLOCSPIKE_AGENT_PLAN_REQUEST_H
#define ALLOCSPIKE_AGENT_PLAN_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

#include "identifier.h"
#include "shard_plan.h"

/* A plan's lease: from a second (shorter is no lease on any network) to 30 days, --duration's
 * longest. */
#define PLAN_LEASE_MIN_S 1.0
#define PLAN_LEASE_MAX_S (86400.0 * 30)

struct plan_request {
	bool is_shard;           /* "kind": "shard": a generator shard, not a row */
	struct shard_plan shard; /* with is_shard */
	char row[IDENTIFIER_MAX_LEN + 1];
	char run[IDENTIFIER_MAX_LEN + 1];
	char variant[IDENTIFIER_MAX_LEN + 1];
	double interval_s;
	double lease_s; /* the lease the controller asks for; 0: not given (the agent's --lease) */
	char **options; /* the resolver options, NULL-terminated */
	char *root_hints; /* the run's root.hints as text (agent/root_hints.h); NULL: the agent's
	                     --root-hints */
	size_t n_options;
	char *canonical; /* the plan as compact JSON with sorted keys: two plans are the same plan
	                    when these are equal */
};

/* Parses and checks a plan's body (a JSON object: "row", "run", "variant", "interval" a duration
 * such as "100ms", "lease" a duration from 1s, "resolver_options" an array of words, "root_hints"
 * the run's root.hints as text; or, with "kind": "shard", "run", "interval" (the timeline's),
 * "lease" and shard_plan.h's keys). False with the reason in err for anything else, an unknown key,
 * or a resolver option not in the allow-list. The row is checked against the table when it is
 * started (agent/row_start.c). */
bool plan_request_parse(const char *body, size_t len, struct plan_request *plan, char *err,
                        size_t err_size);

void plan_request_free(struct plan_request *plan);

/* Visible ASCII only, at least one character: a plan's word reaches a child's argv (the
 * resolver's, the generator's) and the agent's stderr. */
bool plan_word_printable(const char *word);

/* The resolver options a plan may carry, for the usage text and the docs. */
extern const char *const plan_request_allowed_options;

#endif
