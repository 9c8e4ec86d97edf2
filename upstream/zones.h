/* upstream/zones.h - the shape of the simulated namespace: zones, delegations, name servers. */
#ifndef ALLOCSPIKE_UPSTREAM_ZONES_H
#define ALLOCSPIKE_UPSTREAM_ZONES_H

#include "servers.h"

#include <stdbool.h>
#include <stdint.h>

#define ZONES_MAX_NS 4
#define ZONES_MAX_DEPTH 8
#define ZONES_NAME_MAX 1040 /* presentation (escapes included), lower case, trailing dot */

enum zone_kind {
	ZONE_ROOT,     /* "." */
	ZONE_REGISTRY, /* a TLD or a public suffix under one (co.uk., in-addr.arpa.): TLD tier */
	ZONE_DOMAIN,   /* a registered domain: second-level tier, authoritative for all below */
	ZONE_WILDCARD, /* a TLD of the flat world: every name below answered by its wildcard */
};

/* How a zone's name server host names are spelled, which decides glue. */
enum ns_style {
	NS_ROOT,     /* a.root-servers.net. ...: the root's own */
	NS_NIC,      /* ns1.nic.<zone>: in the zone, glue in the parent */
	NS_SELF,     /* ns1.<zone>: in the zone, glue in the parent */
	NS_PROVIDER, /* ns1.simdns-<P>.net.: out of bailiwick, no glue (glueless) */
};

struct zone {
	char name[ZONES_NAME_MAX];
	enum zone_kind kind;
	enum ns_style ns_style;
	int provider; /* for NS_PROVIDER */
	int nns;
	const struct server *ns[ZONES_MAX_NS];
	unsigned lame; /* bit k: ns[k] is lame for this zone (answers REFUSED) */
};

struct world {
	uint64_t seed;
	const struct server_plan *plan;
	unsigned flat_tlds; /* the flat world: one server for root and tld1..tldN; 0: not */
};

/* The zones from the root down to the zone holding qname (lower case, trailing dot).
 * exists is false when qname's closest zone says the next name does not exist (unknown TLD,
 * unregistered domain): then the last zone answers NXDOMAIN for it. */
struct zone_chain {
	int depth; /* zones in chain, >= 1 (the root) */
	struct zone zones[ZONES_MAX_DEPTH];
	bool exists;
};

/* In the flat world the chain is the root and, for a name under tld<k>, that TLD, both served by
 * the plan's one server; a name under no TLD does not exist, except the root's name server host. */
void zones_chain(const struct world *w, const char *qname, struct zone_chain *chain);

/* The deepest zone of chain that server serves, or -1 (the server is lame for qname: not
 * listed, or listed but lame). */
int zones_served_by(const struct zone_chain *chain, const struct server *s);

/* The k-th name server host name of z (k < z->nns) into buf (ZONES_NAME_MAX). */
void zones_ns_name(const struct zone *z, int k, char *buf);

/* True when the parent must give glue for z's name servers (they are inside z). */
bool zones_ns_in_bailiwick(const struct zone *z);

/* If name is the host name of a name server in zone z (ns1.<z>, ns1.nic.<z>, a.root-servers.net.),
 * the server's address. */
bool zones_ns_address(const struct zone *z, const char *name, uint32_t *addr);

/* True when name (lower case, trailing dot) is a TLD or public suffix this world delegates. */
bool zones_is_registry(const char *name);

/* The provider and CDN domains (simdns-N.net., simcdn-N.net.): counts, for the docs and tests. */
#define ZONES_PROVIDERS 16
#define ZONES_CDNS 6

#endif
