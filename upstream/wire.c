/* upstream/wire.c - ldns packets to wire format. Compression follows ldns_pkt2wire: every name
 * suffix written at an offset below 16384 is remembered (the question's included, in the asker's
 * letter case); a later name equal to a remembered suffix, letter case aside, becomes a pointer to
 * it; rdata names are compressed only in the RFC 1035 types, as ldns does. */
#include "wire.h"

#include <ctype.h>
#include <string.h>

#define WIRE_SUFFIXES 512

struct wire_suffix {
	uint32_t hash; /* of the lower-cased wire bytes */
	uint16_t off;
	uint16_t len;
};

struct wire_out {
	uint8_t *buf;
	size_t cap, len;
	bool full;
	int nsuffixes;
	struct wire_suffix suffixes[WIRE_SUFFIXES];
};

static void wire_put(struct wire_out *o, const void *data, size_t n)
{
	if (o->len + n > o->cap) {
		o->full = true;
		return;
	}
	memcpy(o->buf + o->len, data, n);
	o->len += n;
}

static void wire_u16(struct wire_out *o, uint16_t v)
{
	uint8_t b[2] = {(uint8_t)(v >> 8), (uint8_t)v};
	wire_put(o, b, 2);
}

static void wire_u32(struct wire_out *o, uint32_t v)
{
	uint8_t b[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
	wire_put(o, b, 4);
}

static uint32_t wire_hash(const uint8_t *name, size_t len)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)tolower(name[i])) * 16777619u;
	return h;
}

/* True when the name written at off (following pointers) equals name, letter case aside. */
static bool wire_same(const struct wire_out *o, size_t off, const uint8_t *name, size_t len)
{
	size_t i = 0;
	for (int hops = 0; hops < 64;) {
		uint8_t l = o->buf[off];
		if ((l & 0xc0) == 0xc0) {
			off = (size_t)(l & 0x3f) << 8 | o->buf[off + 1];
			hops++;
			continue;
		}
		if (i >= len || name[i] != l)
			return false;
		if (l == 0)
			return i + 1 == len;
		for (size_t k = 1; k <= l; k++)
			if (i + k >= len || tolower(name[i + k]) != tolower(o->buf[off + k]))
				return false;
		i += 1 + l;
		off += 1 + l;
	}
	return false;
}

static void wire_name(struct wire_out *o, const uint8_t *name, size_t len)
{
	for (size_t p = 0; p < len;) {
		if (name[p] == 0) {
			wire_put(o, "", 1);
			return;
		}
		const uint8_t *suffix = name + p;
		size_t slen = len - p;
		uint32_t h = wire_hash(suffix, slen);
		for (int i = 0; i < o->nsuffixes; i++) {
			const struct wire_suffix *s = &o->suffixes[i];
			if (s->hash == h && s->len == slen && wire_same(o, s->off, suffix, slen)) {
				wire_u16(o, (uint16_t)(0xc000 | s->off));
				return;
			}
		}
		if (o->len < 16384 && o->nsuffixes < WIRE_SUFFIXES)
			o->suffixes[o->nsuffixes++] = (struct wire_suffix){
			    .hash = h, .off = (uint16_t)o->len, .len = (uint16_t)slen};
		wire_put(o, suffix, 1 + (size_t)name[p]);
		p += 1 + (size_t)name[p];
	}
}

/* The types whose rdata names ldns compresses (RFC 1035's). */
static bool wire_compresses(ldns_rr_type t)
{
	switch (t) {
	case LDNS_RR_TYPE_NS:
	case LDNS_RR_TYPE_MD:
	case LDNS_RR_TYPE_MF:
	case LDNS_RR_TYPE_CNAME:
	case LDNS_RR_TYPE_SOA:
	case LDNS_RR_TYPE_MB:
	case LDNS_RR_TYPE_MG:
	case LDNS_RR_TYPE_MR:
	case LDNS_RR_TYPE_PTR:
	case LDNS_RR_TYPE_MINFO:
	case LDNS_RR_TYPE_MX:
		return true;
	default:
		return false;
	}
}

static void wire_rr(struct wire_out *o, const ldns_rr *rr, bool question)
{
	const ldns_rdf *owner = ldns_rr_owner(rr);
	wire_name(o, ldns_rdf_data(owner), ldns_rdf_size(owner));
	wire_u16(o, (uint16_t)ldns_rr_get_type(rr));
	wire_u16(o, (uint16_t)ldns_rr_get_class(rr));
	if (question)
		return;
	wire_u32(o, ldns_rr_ttl(rr));
	size_t at = o->len;
	wire_u16(o, 0);
	bool compress = wire_compresses(ldns_rr_get_type(rr));
	for (size_t i = 0; i < ldns_rr_rd_count(rr); i++) {
		const ldns_rdf *d = ldns_rr_rdf(rr, i);
		if (compress && ldns_rdf_get_type(d) == LDNS_RDF_TYPE_DNAME)
			wire_name(o, ldns_rdf_data(d), ldns_rdf_size(d));
		else
			wire_put(o, ldns_rdf_data(d), ldns_rdf_size(d));
	}
	if (!o->full) {
		size_t n = o->len - at - 2;
		o->buf[at] = (uint8_t)(n >> 8);
		o->buf[at + 1] = (uint8_t)n;
	}
}

static void wire_section(struct wire_out *o, const ldns_rr_list *list, bool question)
{
	for (size_t i = 0; i < ldns_rr_list_rr_count(list); i++)
		wire_rr(o, ldns_rr_list_rr(list, i), question);
}

bool wire_encode(const ldns_pkt *p, bool question_only, uint8_t *buf, size_t cap, size_t *len)
{
	static struct wire_out o;
	o.buf = buf;
	o.cap = cap;
	o.len = 0;
	o.full = false;
	o.nsuffixes = 0;
	bool edns = ldns_pkt_edns(p);
	wire_u16(&o, ldns_pkt_id(p));
	uint8_t flags[2] = {(uint8_t)(ldns_pkt_qr(p) << 7 | (ldns_pkt_get_opcode(p) & 15) << 3 |
	                              ldns_pkt_aa(p) << 2 | (ldns_pkt_tc(p) || question_only) << 1 |
	                              ldns_pkt_rd(p)),
	                    (uint8_t)(ldns_pkt_ra(p) << 7 | ldns_pkt_ad(p) << 5 |
	                              ldns_pkt_cd(p) << 4 | (ldns_pkt_get_rcode(p) & 15))};
	if (question_only)
		flags[1] = (uint8_t)(ldns_pkt_cd(p) << 4 | (ldns_pkt_get_rcode(p) & 15));
	wire_put(&o, flags, 2);
	wire_u16(&o, ldns_pkt_qdcount(p));
	wire_u16(&o, question_only ? 0 : ldns_pkt_ancount(p));
	wire_u16(&o, question_only ? 0 : ldns_pkt_nscount(p));
	wire_u16(&o, (uint16_t)((question_only ? 0 : ldns_pkt_arcount(p)) + edns));
	wire_section(&o, ldns_pkt_question(p), true);
	if (!question_only) {
		wire_section(&o, ldns_pkt_answer(p), false);
		wire_section(&o, ldns_pkt_authority(p), false);
		wire_section(&o, ldns_pkt_additional(p), false);
	}
	if (edns) {
		/* OPT: root owner, the buffer size as class, extended rcode, version and flags as
		 * TTL */
		wire_put(&o, "", 1);
		wire_u16(&o, LDNS_RR_TYPE_OPT);
		wire_u16(&o, ldns_pkt_edns_udp_size(p));
		wire_u32(&o, (uint32_t)ldns_pkt_edns_extended_rcode(p) << 24 |
		                 (uint32_t)ldns_pkt_edns_version(p) << 16 | ldns_pkt_edns_z(p));
		wire_u16(&o, 0);
	}
	*len = o.len;
	return !o.full;
}
