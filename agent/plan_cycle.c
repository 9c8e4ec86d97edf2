/* agent/plan_cycle.c - an --await-plan agent's plans one after the other (plan_cycle.h). */
#include "plan_cycle.h"

#include <stdio.h>
#include <string.h>

#include "cli_parse.h"

bool plan_cycle_parse(const char *text, unsigned long long *plans)
{
	if (strcmp(text, "unlimited") == 0) {
		*plans = 0;
		return true;
	}
	char err[256];
	if (cli_parse_count("--plans", text, 1, PLAN_CYCLE_MAX, plans, err, sizeof(err)))
		return true;
	fprintf(stderr, "allocspike-agent: %s, or unlimited\n", err);
	return false;
}

void plan_cycle_begin(struct plan_cycle *c, uint64_t next_seq)
{
	c->first_seq = next_seq;
}

bool plan_cycle_withdrawn(struct plan_cycle *c)
{
	c->over++;
	return c->plans == 0 || c->over < c->plans;
}

uint64_t plan_cycle_record_from(const struct plan_cycle *c, uint64_t from)
{
	return from < c->first_seq ? c->first_seq : from;
}

void plan_cycle_format(const struct plan_cycle *c, char *out, size_t size)
{
	if (c->plans)
		snprintf(out, size, "%llu of %llu", c->over, c->plans);
	else
		snprintf(out, size, "%llu of unlimited", c->over);
}
