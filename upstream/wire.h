/* upstream/wire.h - an ldns packet to wire format with the name compression ldns_pkt2wire uses,
 * without its allocations (ldns allocates a tree node and a name copy per name suffix). */
#ifndef ALLOCSPIKE_UPSTREAM_WIRE_H
#define ALLOCSPIKE_UPSTREAM_WIRE_H

#include <ldns/ldns.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes p into buf (cap bytes); question_only writes the header, the question and the OPT
 * record with TC set and no other record (the reply that did not fit). False when it does not
 * fit cap. The bytes equal ldns_pkt2wire's for the records the hierarchy sends. */
bool wire_encode(const ldns_pkt *p, bool question_only, uint8_t *buf, size_t cap, size_t *len);

#endif
