/* upstream/preset.h - the named worlds (--world lan|internet|hostile|flat): distances, slowness,
 * broken delegations and loss, each number documented with its source in docs/upstream.md. */
#ifndef ALLOCSPIKE_UPSTREAM_PRESET_H
#define ALLOCSPIKE_UPSTREAM_PRESET_H

#include "netem.h"
#include "servers.h"
#include "zones.h"

#include <stdio.h>

struct preset {
	const char *name;
	/* per-server base RTT by tier; NULL (lan): the tier's log-normal of every query instead */
	const struct rtt_table *rtt[TIER_COUNT];
	double slow_share;  /* TLD and SLD servers drawn from the table's slow tail */
	double slow_factor; /* further delay multiplier of slow servers */
	double dead_share;  /* SLD servers that never answer */
	struct delegation_faults faults;
	double loss;       /* share of queries dropped, every tier */
	double jitter_p99; /* per-query delay = base RTT x log-normal(median 1, this p99) */
	double late_share; /* queries delayed a further late_min..late_max ms */
	double late_min_ms, late_max_ms;
	/* the flat world (flat_tlds > 0): one server for the root and, by default, this many TLD
	 * zones answered by wildcard, every query delayed by flat_delay_ms exactly */
	unsigned flat_tlds;
	double flat_delay_ms;
};

/* The preset called name, or NULL. */
const struct preset *preset_find(const char *name);

/* The names, "lan|internet|hostile|flat", for usage and errors. */
const char *preset_names(void);

/* Sets the plan's and the network's defaults, and the loss, from p (other flags change them
 * whatever their order). lan leaves them as they are: today's world. The flat world's delay,
 * flat_delay_ms, is the caller's to apply (it sets --latency-ms's default). */
void preset_apply(const struct preset *p, struct server_plan_config *pcfg,
                  struct netem_config *ncfg, double *loss);

/* Registered domains by the state of their delegation. */
struct delegation_count {
	long total, all_dead, one_dead, all_lame, one_lame;
};

/* Counts the delegations of n registered domains dN.<registry> spread over the registries. */
void preset_count_delegations(const struct world *w, long n, struct delegation_count *c);

/* Prints the world (--print-world): every server's tier, base RTT, slow and dead marks, and the
 * delegation shares of a sample (the flat world: its TLD count); the same seed prints the same
 * lines. */
void preset_print_world(const struct world *w, const char *name, FILE *out);

#endif
