/* resolver/msg.h - a parsed DNS message as the iterator sees it, its two parsers and the wire
 * writer. */
#ifndef ALLOCSPIKE_RESOLVER_MSG_H
#define ALLOCSPIKE_RESOLVER_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memory.h"

#define MSG_QR 0x8000
#define MSG_AA 0x0400
#define MSG_TC 0x0200
#define MSG_RD 0x0100
#define MSG_RA 0x0080
#define MSG_AD 0x0020
#define MSG_CD 0x0010
#define MSG_OPCODE(flags) (((flags) >> 11) & 0xF)

enum {
	RCODE_NOERROR = 0,
	RCODE_FORMERR = 1,
	RCODE_SERVFAIL = 2,
	RCODE_NXDOMAIN = 3,
	RCODE_REFUSED = 5,
	RCODE_BADVERS = 16 /* extended (RFC 6891 §9): header rcode 0, the OPT's extended-rcode 1 */
};
enum {
	TYPE_A = 1,
	TYPE_NS = 2,
	TYPE_CNAME = 5,
	TYPE_SOA = 6,
	TYPE_PTR = 12,
	TYPE_HINFO = 13,
	TYPE_MX = 15,
	TYPE_AAAA = 28,
	TYPE_OPT = 41,
	TYPE_DNAME = 39,
	TYPE_ANY = 255
};
#define CLASS_IN 1

/* Sections, in wire order. */
enum msg_section { MSG_ANSWER = 0, MSG_AUTHORITY = 1, MSG_ADDITIONAL = 2 };

/* One record. Names (owner and those inside rdata of NS, CNAME, PTR, DNAME, MX and SOA) are
 * uncompressed wire names in the case the packet had. */
struct msg_rr {
	const uint8_t *owner;
	const uint8_t *rdata;
	uint32_t ttl;
	uint16_t type, rclass, rdlen;
};

struct msg {
	uint16_t id, flags; /* flags: the second header word (QR, opcode, AA, TC, RD, RA, rcode) */
	uint8_t rcode;      /* header rcode */
	const uint8_t *qname;
	uint16_t qtype, qclass;
	/* EDNS (RFC 6891), read by msg_edns_read for both parsers: has_edns when there is exactly
	 * one OPT record, in the additional section and owned by the root; edns_malformed when
	 * there is more than one, or one elsewhere or with another owner (FORMERR to a client). */
	bool has_edns, edns_do, edns_malformed;
	uint8_t edns_version;
	uint16_t edns_udp;
	uint16_t count[3]; /* records per section; OPT is not among them */
	struct msg_rr *rr; /* count[0] + count[1] + count[2] records, answer first */
};

/* Limits that keep a hostile packet's cost bounded. */
#define MSG_MAX_RRS 512

/* The kresd layout's parser: everything is allocated from m; rdata without names points into
 * wire, which must live as long as the message. Returns 0, or -1 for a malformed packet. */
int msg_parse(const uint8_t *wire, size_t len, struct rmem *m, struct msg *out);

/* The heap layout's parser (msg_ldns.c): ldns_wire2pkt() builds ldns structures, which are
 * converted into a msg whose every record is its own allocation from m. *ldns_out receives
 * the ldns_pkt (release with msg_ldns_free) or NULL. Returns 0 or -1. */
int msg_parse_ldns(const uint8_t *wire, size_t len, struct rmem *m, struct msg *out,
                   void **ldns_out);
/* Gives back what a parse allocated (heap layout: every record object and the ldns packet;
 * kresd layout: nothing, the pool keeps it until the request ends). */
void msg_release(struct rmem *m, struct msg *msg, void *ldns_pkt);

/* Reads the OPT records of wire, a packet a parser accepted, into out's EDNS fields: the one
 * EDNS reading both layouts share (ldns hides a second OPT and the OPT's owner). */
void msg_edns_read(const uint8_t *wire, size_t len, struct msg *out);

/* Dispatches on the request's layout. */
int msg_parse_layout(const uint8_t *wire, size_t len, struct rmem *m, struct msg *out,
                     void **ldns_out);

static inline struct msg_rr *msg_section_rr(const struct msg *m, enum msg_section s)
{
	size_t off = 0;
	for (int i = 0; i < (int)s; i++)
		off += m->count[i];
	/* A message with no records has no array: offsetting NULL is undefined even by zero. */
	return m->rr ? m->rr + off : NULL;
}

/* Wire writer: header, question, then records section by section, then OPT. */
struct wire_writer {
	uint8_t *buf;
	size_t cap, len;
	const uint8_t *qname; /* owners equal to it are written as a pointer to offset 12 */
	uint16_t count[4];    /* qd, an, ns, ar */
	bool overflow;
};

void wire_begin(struct wire_writer *w, uint8_t *buf, size_t cap, uint16_t id, uint16_t flags,
                const uint8_t *qname, uint16_t qtype, uint16_t qclass);
void wire_put_rr(struct wire_writer *w, enum msg_section s, const uint8_t *owner, uint16_t type,
                 uint16_t rclass, uint32_t ttl, const uint8_t *rdata, uint16_t rdlen);
/* rcode is the full (extended) rcode: its upper 8 bits go into the OPT, version 0. */
void wire_put_opt(struct wire_writer *w, uint16_t udp_size, int rcode, bool do_bit);
/* Writes the counts into the header; returns the length, or 0 when something did not fit. */
size_t wire_finish(struct wire_writer *w);

/* The name inside rdata of a type whose rdata starts with (or is) a name: NS, CNAME, PTR, DNAME;
 * MX's exchange. NULL for other types or a malformed rdata. */
const uint8_t *msg_rdata_name(uint16_t type, const uint8_t *rdata, uint16_t rdlen);
/* SOA's MINIMUM field (RFC 2308 negative TTL), or 0 when rdata is malformed. */
uint32_t msg_soa_minimum(const uint8_t *rdata, uint16_t rdlen);
/* How long a negative answer carrying this SOA lives: min(its TTL, its MINIMUM) (RFC 2308 §5). */
uint32_t msg_negative_ttl(const struct msg_rr *soa);
/* False for a record whose rdata cannot be of its type: A must be 4 bytes, AAAA 16. */
bool msg_rdata_fits_type(uint16_t type, uint16_t rdlen);

/* RFC 2181 §8: a TTL with the top bit set means 0; then at most max. */
static inline uint32_t msg_ttl_cap(uint32_t ttl, uint32_t max)
{
	if (ttl & 0x80000000u)
		return 0;
	return ttl > max ? max : ttl;
}

#endif
