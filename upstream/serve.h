/* upstream/serve.h - one received packet to one (possibly delayed) reply: parse, treat, answer. */
#ifndef ALLOCSPIKE_UPSTREAM_SERVE_H
#define ALLOCSPIKE_UPSTREAM_SERVE_H

#include "netem.h"
#include "stats.h"
#include "zones.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct serve {
	struct world world;
	struct netem *netem; /* UDP treatment; TCP is answered at once */
	struct stats stats;
	FILE *applied_log; /* one line per UDP query: what loss/delay was applied */
};

/* Handles a packet from source (host order address, port) to server s. Returns true when
 * *wire (malloc'ed, *wire_len bytes) is to be sent after *delay_ms; false when the packet is
 * dropped (simulated loss, or malformed: counted either way). now_s is monotonic seconds. */
bool serve_packet(struct serve *sv, const struct server *s, uint32_t source, uint16_t port,
                  const uint8_t *pkt, size_t len, bool tcp, double now_s, uint8_t **wire,
                  size_t *wire_len, uint32_t *delay_ms);

/* Parses a query into the fields answer_build needs; false for anything that is not one
 * well-formed standard query with one question. On success *pkt must be freed by the caller
 * and q->qname points into qname_buf. */
bool serve_parse(const uint8_t *pkt, size_t len, ldns_pkt **parsed, struct answer_query *q,
                 char *qname_buf, size_t qname_size);

#endif
