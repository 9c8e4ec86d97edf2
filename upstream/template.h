/* upstream/template.h - prebuilt replies for the questions whose reply depends on a zone, not on
 * the name asked: referrals, NXDOMAIN for an unregistered name, REFUSED. A new question gets the
 * template's wire image with its own ID and question patched in and the compression pointers
 * moved by the difference in name length; the bytes equal what the full build would send. */
#ifndef ALLOCSPIKE_UPSTREAM_TEMPLATE_H
#define ALLOCSPIKE_UPSTREAM_TEMPLATE_H

#include "replycache.h"
#include "zones.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct templates;

/* slots is rounded up to a power of two; 0 disables templates (NULL). */
struct templates *templates_new(size_t slots);

/* The zone name the reply of server s to q (q->chain set) depends on (the child of a referral,
 * the zone of an NXDOMAIN, "." for REFUSED) into anchor (ZONES_NAME_MAX); false for any other
 * reply. */
bool templates_anchor(const struct server *s, const struct answer_query *q, char *anchor);

/* The reply for the query pkt (question name name_len bytes at pkt + 12) from the template of
 * key (key->qname is the anchor) into *out (wire malloc'ed); false when there is none, the
 * reply would not fit key->limit, or the question's own labels would change the compression. */
bool templates_reply(struct templates *t, const struct replycache_key *key, const uint8_t *pkt,
                     size_t name_len, struct replycache_value *out);

/* Keeps the reply v, built for pkt, as the template of key when it can serve other names. */
void templates_learn(struct templates *t, const struct replycache_key *key, const uint8_t *pkt,
                     size_t name_len, const struct replycache_value *v);

void templates_stats(const struct templates *t, uint64_t *hits, uint64_t *misses);

void templates_free(struct templates *t);

#endif
