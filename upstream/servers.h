/* upstream/servers.h - the address plan: which loopback address is which server of which tier. */
#ifndef ALLOCSPIKE_UPSTREAM_SERVERS_H
#define ALLOCSPIKE_UPSTREAM_SERVERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tier { TIER_ROOT, TIER_TLD, TIER_SLD, TIER_COUNT };

extern const char *const tier_names[TIER_COUNT];

struct server {
	int index; /* position in the plan; the server's identity in every hash */
	enum tier tier;
	uint32_t addr; /* IPv4, host byte order */
	bool slow;     /* latency multiplied by the plan's slow factor */
	bool dead;     /* never answers: resolvers must retry elsewhere */
	double rtt_ms; /* fixed base RTT (worlds with a distance per server), else 0 */
};

/* A distribution by its quantiles: ms at cumulative share p, log-linear in between. Servers
 * beyond slow_p are the slow ones (slow_p 1: the tier has none). */
#define RTT_TABLE_POINTS 12
struct rtt_table {
	int n;
	struct {
		double p, ms;
	} pt[RTT_TABLE_POINTS];
	double slow_p;
};

/* Shares of registered domains whose delegation is broken: every name server dead (never
 * answers) or lame (answers REFUSED for the domain), or one of them so. */
struct delegation_faults {
	double all_dead, all_lame, one_dead, one_lame;
};

struct server_plan {
	uint32_t base; /* first address of the block, host order */
	int prefix;
	struct server *servers;
	int count;
	int first[TIER_COUNT]; /* index of the first server of each tier */
	int n[TIER_COUNT];
	/* worlds with broken delegations (faults_on): healthy zones use live servers only, dead
	 * servers serve the dead delegations */
	bool faults_on;
	struct delegation_faults faults;
	int *live[TIER_COUNT]; /* server indexes */
	int nlive[TIER_COUNT];
	int *dead; /* dead SLD server indexes */
	int ndead;
};

struct server_plan_config {
	const char *block; /* CIDR, e.g. 127.53.0.0/16 */
	uint64_t seed;
	int n[TIER_COUNT]; /* servers per tier, at least 2 each; {1, 0, 0}: the flat world */
	double slow_share; /* share of TLD and SLD servers that are slow */
	double dead_share; /* share of SLD servers that never answer */
	const struct rtt_table *rtt[TIER_COUNT]; /* per-server base RTT, or NULL */
	struct delegation_faults faults;
};

/* The ms at cumulative share u in [0, 1] of t. */
double rtt_table_quantile(const struct rtt_table *t, double u);

/* The k-th live server of a tier, and the k-th dead SLD server (k modulo their counts); only
 * in plans with faults_on. */
const struct server *servers_live(const struct server_plan *plan, enum tier tier, uint64_t k);
const struct server *servers_dead(const struct server_plan *plan, uint64_t k);

/* Lays the servers out: root first, then TLD, then SLD, at block base + 1, + 2, ...
 * Returns false with the reason in err (bad CIDR, block too small). */
bool servers_plan_init(struct server_plan *plan, const struct server_plan_config *cfg, char *err,
                       size_t err_size);

/* Whether the block lies inside 127.0.0.0/8. One outside it is a run across hosts' (its rows reach
 * this host's own addresses by a plain route: docs/upstream.md, "Addresses"). */
bool servers_plan_loopback(const struct server_plan *plan);

/* The server at addr (host order), or NULL. */
const struct server *servers_find(const struct server_plan *plan, uint32_t addr);

/* The k-th server of a tier (k taken modulo the tier's size). */
const struct server *servers_tier_server(const struct server_plan *plan, enum tier tier,
                                         uint64_t k);

/* Dotted-quad text of addr into buf (at least 16 bytes). */
char *servers_addr_text(uint32_t addr, char *buf);

void servers_plan_free(struct server_plan *plan);

#endif
