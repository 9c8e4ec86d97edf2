/* upstream/rr.h - building ldns records from names and values, without parsing zone-file text. */
#ifndef ALLOCSPIKE_UPSTREAM_RR_H
#define ALLOCSPIKE_UPSTREAM_RR_H

#include <ldns/ldns.h>
#include <stddef.h>
#include <stdint.h>

/* A record with no rdata yet; owner in presentation form. NULL if owner is not a valid name. */
ldns_rr *rr_new(const char *owner, ldns_rr_type type, uint32_t ttl);

void rr_add_a(ldns_rr *rr, uint32_t addr_host_order);
void rr_add_aaaa(ldns_rr *rr, const uint8_t addr[16]);
void rr_add_dname(ldns_rr *rr, const char *name);
void rr_add_u16(ldns_rr *rr, uint16_t v);
void rr_add_u32(ldns_rr *rr, ldns_rdf_type type, uint32_t v);
/* One character-string (at most 255 bytes used). */
void rr_add_string(ldns_rr *rr, const char *s, size_t len);

#endif
