/* upstream/serve.h - one received packet to one (possibly delayed) reply: parse, treat, answer. */
#ifndef ALLOCSPIKE_UPSTREAM_SERVE_H
#define ALLOCSPIKE_UPSTREAM_SERVE_H

#include "applied.h"
#include "netem.h"
#include "replycache.h"
#include "stats.h"
#include "template.h"
#include "zones.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct serve {
	struct world world;
	struct netem *netem;         /* UDP treatment; TCP is answered at once */
	struct replycache *cache;    /* NULL: build every reply */
	struct templates *templates; /* NULL: no templates */
	struct stats stats;
	struct applied *applied; /* what loss/delay was applied, or NULL */
};

/* Handles a packet from source (host order address, port) to server s. Returns true when
 * *wire (malloc'ed, *wire_len bytes) is to be sent after *delay_ms; false when the packet is
 * dropped (simulated loss, or malformed: counted either way). now_s is monotonic seconds. */
bool serve_packet(struct serve *sv, const struct server *s, uint32_t source, uint16_t port,
                  const uint8_t *pkt, size_t len, bool tcp, double now_s, uint8_t **wire,
                  size_t *wire_len, uint32_t *delay_ms);

/* Parses a standard query with one question, without allocating: fills q (q->question stays
 * NULL) with the name lower-cased in presentation form (as ldns prints it) into qname_buf, and
 * *name_len with the question name's length on the wire. False for anything malformed. */
bool serve_parse(const uint8_t *pkt, size_t len, struct answer_query *q, char *qname_buf,
                 size_t qname_size, size_t *name_len);

#endif
