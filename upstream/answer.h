/* upstream/answer.h - what one server of the hierarchy replies to one question. */
#ifndef ALLOCSPIKE_UPSTREAM_ANSWER_H
#define ALLOCSPIKE_UPSTREAM_ANSWER_H

#include "zones.h"

#include <ldns/ldns.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum answer_kind {
	ANSWER_DATA,     /* authoritative answer with the records asked for */
	ANSWER_CNAME,    /* authoritative answer ending in a CNAME to another zone */
	ANSWER_NODATA,   /* authoritative NOERROR, no records, SOA */
	ANSWER_NXDOMAIN, /* authoritative NXDOMAIN, SOA */
	ANSWER_REFERRAL, /* NS of a child zone, glue when in bailiwick */
	ANSWER_REFUSED,  /* the server is not authoritative for any zone on the way to qname */
	ANSWER_KIND_COUNT,
};

extern const char *const answer_kind_names[ANSWER_KIND_COUNT];

struct answer_query {
	const ldns_rr *question; /* copied into the reply as the client wrote it */
	const char *qname;       /* lower case, trailing dot */
	uint16_t qtype;
	uint16_t qclass;
	uint16_t id;
	bool rd, cd;
	bool edns;
	uint16_t udp_size;              /* requester's buffer when edns */
	const struct zone_chain *chain; /* qname's zones when the caller has them, else NULL */
};

/* The reply of server s to q; a pure function of (seed, server, question). */
ldns_pkt *answer_build(const struct world *w, const struct server *s, const struct answer_query *q,
                       enum answer_kind *kind);

/* True when zone z (the zone of q's name, which exists) answers q from its leaf content
 * (content_lookup), not from its NS set, a name server's address or a registry's apex. */
bool answer_from_content(const struct zone *z, const struct answer_query *q);

/* True when zone z, answering q from its content, follows the CNAME name -> target (in the zone,
 * not to itself, q not for the CNAME itself). */
bool answer_follows_cname(const struct zone *z, const struct answer_query *q, const char *name,
                          const char *target);

/* Serializes p within limit bytes; a reply over limit becomes header + question with TC set.
 * Returns false only when ldns cannot serialize. */
bool answer_wire(const ldns_pkt *p, size_t limit, uint8_t **wire, size_t *len, bool *truncated);

/* The requester's limit: 512 without EDNS, its advertised size (at least 512) with it. */
size_t answer_udp_limit(const struct answer_query *q);

#endif
