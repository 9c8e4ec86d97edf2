/* upstream/content.h - the data at the leaves: what each name of a registered domain holds. */
#ifndef ALLOCSPIKE_UPSTREAM_CONTENT_H
#define ALLOCSPIKE_UPSTREAM_CONTENT_H

#include "zones.h"

#include <ldns/ldns.h>
#include <stdint.h>

enum content_result {
	CONTENT_NXDOMAIN,
	CONTENT_NODATA,
	CONTENT_ANSWER,
	CONTENT_CNAME, /* out holds the CNAME record, target its target */
};

/* The records of (qname, qtype) in the registered domain z (qname at or below z), appended to
 * out; a pure function of (seed, qname, qtype). The mix is documented in upstream/README.md. */
enum content_result content_lookup(const struct world *w, const struct zone *z, const char *qname,
                                   uint16_t qtype, ldns_rr_list *out, char *target);

#define CONTENT_MAX_ADDRESSES 8

/* The records of an address answer (A or AAAA of one owner): what differs between two names. */
struct content_addresses {
	int n; /* 0: the answer is not (only) addresses */
	uint32_t ttl;
	uint16_t rdlen; /* 4 or 16 */
	uint8_t rdata[CONTENT_MAX_ADDRESSES][16];
	uint32_t cname_ttl; /* CONTENT_CNAME: the CNAME record's TTL */
};

/* content_lookup's result without building records: for an address answer its TTL and rdata
 * into a (a->n > 0), for a CNAME its TTL (a->cname_ttl) and target (ZONES_NAME_MAX): the fields
 * a reply template patches (template.c). */
enum content_result content_peek(const struct world *w, const struct zone *z, const char *qname,
                                 uint16_t qtype, struct content_addresses *a, char *target);

/* The SOA record of any zone (root, registry or domain); its minimum is the negative TTL. */
ldns_rr *content_soa(const struct world *w, const struct zone *z);

/* TTL of z's NS set as its parent publishes it (in referrals) and as z itself does. */
uint32_t content_ns_ttl(const struct world *w, const struct zone *z, bool at_parent);

#endif
