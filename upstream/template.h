/* upstream/template.h - prebuilt replies for the questions whose reply has a shape shared by many
 * names: referrals, NXDOMAIN for an unregistered name and REFUSED depend on a zone only; a leaf
 * name's NODATA or NXDOMAIN on its zone only; a leaf name's address answer (directly or through
 * a CNAME within its zone) on its zone and the number of addresses. A new question gets the
 * template's wire image with its own ID and question patched in, the compression pointers moved
 * by the difference in name length and, for address answers, its own TTLs, CNAME target labels
 * and addresses written over the template's; the bytes equal what the full build would send. */
#ifndef ALLOCSPIKE_UPSTREAM_TEMPLATE_H
#define ALLOCSPIKE_UPSTREAM_TEMPLATE_H

#include "content.h"
#include "replycache.h"
#include "zones.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct templates;

/* slots is rounded up to a power of two; 0 disables templates (NULL). */
struct templates *templates_new(size_t slots);

enum template_shape {
	TEMPLATE_ZONE,           /* referral, NXDOMAIN of an unregistered name, REFUSED */
	TEMPLATE_LEAF_NODATA,    /* a leaf name's NODATA: the zone's SOA */
	TEMPLATE_LEAF_NXDOMAIN,  /* a leaf name's NXDOMAIN: the zone's SOA */
	TEMPLATE_LEAF_ADDRESSES, /* a leaf name's A or AAAA records (how many: addresses.n) */
	/* a leaf name's CNAME to a name of its zone and that name's A or AAAA records (how many:
	 * addresses.n; the target's labels above the zone: prefix, their lengths part of the key)
	 */
	TEMPLATE_LEAF_CNAME_ADDRESSES,
};

/* What a reply's template is keyed on and what an instance of it patches in. */
struct template_query {
	/* the question's, with qname the anchor: the zone the reply depends on ("." for REFUSED,
	 * else a name in q->chain, valid as long as the chain) */
	struct replycache_key key;
	enum template_shape shape;
	struct content_addresses addresses; /* TEMPLATE_LEAF_*ADDRESSES: TTLs and rdata */
	uint8_t prefix[256];                /* TEMPLATE_LEAF_CNAME_ADDRESSES: wire, lower case */
	size_t prefix_len;
};

/* The template query of server s's reply to q (q->chain set, key its reply-cache key) into tq;
 * false for a reply no template serves (CNAMEs, MX, TXT..., a name server's own records). */
bool templates_anchor(const struct world *w, const struct server *s, const struct answer_query *q,
                      const struct replycache_key *key, struct template_query *tq);

/* The reply for the query pkt (question name name_len bytes at pkt + 12) from the template of
 * tq into *out (wire malloc'ed); false (a miss) when there is none, the reply would not fit
 * key.limit, or the question's own labels would change the compression. */
bool templates_reply(struct templates *t, const struct template_query *tq, const uint8_t *pkt,
                     size_t name_len, struct replycache_value *out);

/* Keeps the reply v, built for pkt, as the template of tq when it can serve other names. */
void templates_learn(struct templates *t, const struct template_query *tq, const uint8_t *pkt,
                     size_t name_len, const struct replycache_value *v);

void templates_stats(const struct templates *t, uint64_t *hits, uint64_t *misses);

void templates_free(struct templates *t);

#endif
