/* upstream/rr.c - record construction helpers over ldns. */
#include "rr.h"

#include <arpa/inet.h>
#include <string.h>

ldns_rr *rr_new(const char *owner, ldns_rr_type type, uint32_t ttl)
{
	ldns_rdf *name = ldns_dname_new_frm_str(owner);
	if (!name)
		return NULL;
	ldns_rr *rr = ldns_rr_new();
	if (!rr) {
		ldns_rdf_deep_free(name);
		return NULL;
	}
	ldns_rr_set_owner(rr, name);
	ldns_rr_set_type(rr, type);
	ldns_rr_set_class(rr, LDNS_RR_CLASS_IN);
	ldns_rr_set_ttl(rr, ttl);
	return rr;
}

void rr_add_a(ldns_rr *rr, uint32_t addr_host_order)
{
	uint32_t be = htonl(addr_host_order);
	ldns_rr_push_rdf(rr, ldns_rdf_new_frm_data(LDNS_RDF_TYPE_A, 4, &be));
}

void rr_add_aaaa(ldns_rr *rr, const uint8_t addr[16])
{
	ldns_rr_push_rdf(rr, ldns_rdf_new_frm_data(LDNS_RDF_TYPE_AAAA, 16, addr));
}

void rr_add_dname(ldns_rr *rr, const char *name)
{
	ldns_rdf *d = ldns_dname_new_frm_str(name);
	if (!d)
		d = ldns_dname_new_frm_str("invalid.");
	ldns_rr_push_rdf(rr, d);
}

void rr_add_u16(ldns_rr *rr, uint16_t v)
{
	ldns_rr_push_rdf(rr, ldns_native2rdf_int16(LDNS_RDF_TYPE_INT16, v));
}

void rr_add_u32(ldns_rr *rr, ldns_rdf_type type, uint32_t v)
{
	ldns_rr_push_rdf(rr, ldns_native2rdf_int32(type, v));
}

void rr_add_string(ldns_rr *rr, const char *s, size_t len)
{
	uint8_t buf[256];
	if (len > 255)
		len = 255;
	buf[0] = (uint8_t)len;
	memcpy(buf + 1, s, len);
	ldns_rr_push_rdf(rr, ldns_rdf_new_frm_data(LDNS_RDF_TYPE_STR, len + 1, buf));
}
