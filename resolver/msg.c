/* resolver/msg.c - the kresd layout's wire parser (pool-allocated) and the wire writer both layouts
 * use. */
#include "msg.h"

#include <string.h>

#include "dname.h"

static inline uint16_t msg_get16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static inline uint32_t msg_get32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* Length of an uncompressed name at the start of buf (at most len bytes), or -1. */
static int msg_name_len_in(const uint8_t *buf, size_t len)
{
	size_t p = 0;
	while (p < len) {
		uint8_t c = buf[p];
		if (c & 0xC0)
			return -1;
		p += (size_t)c + 1;
		if (p > DNAME_MAXLEN)
			return -1;
		if (c == 0)
			return (int)p;
	}
	return -1;
}

const uint8_t *msg_rdata_name(uint16_t type, const uint8_t *rdata, uint16_t rdlen)
{
	size_t skip = 0;
	switch (type) {
	case TYPE_NS:
	case TYPE_CNAME:
	case TYPE_PTR:
	case TYPE_DNAME:
		break;
	case TYPE_MX:
		skip = 2;
		break;
	default:
		return NULL;
	}
	if (rdlen < skip + 1)
		return NULL;
	int n = msg_name_len_in(rdata + skip, rdlen - skip);
	if (n < 0 || (size_t)n + skip != rdlen)
		return NULL;
	return rdata + skip;
}

uint32_t msg_soa_minimum(const uint8_t *rdata, uint16_t rdlen)
{
	int a = msg_name_len_in(rdata, rdlen);
	if (a < 0)
		return 0;
	int b = msg_name_len_in(rdata + a, rdlen - (size_t)a);
	if (b < 0 || (size_t)a + (size_t)b + 20 != rdlen)
		return 0;
	return msg_get32(rdata + a + b + 16);
}

uint32_t msg_negative_ttl(const struct msg_rr *soa)
{
	uint32_t minimum = msg_soa_minimum(soa->rdata, soa->rdlen);
	return minimum < soa->ttl ? minimum : soa->ttl;
}

bool msg_rdata_fits_type(uint16_t type, uint16_t rdlen)
{
	if (type == TYPE_A)
		return rdlen == 4;
	if (type == TYPE_AAAA)
		return rdlen == 16;
	return true;
}

/* Copies rdata, expanding compressed names of the types that may carry them (RFC 3597 §4). */
static int msg_parse_rdata(const uint8_t *wire, size_t len, size_t pos, struct msg_rr *rr,
                           struct rmem *m)
{
	uint8_t tmp[2 * (DNAME_MAXLEN + 1) + 20];
	size_t end = pos + rr->rdlen, o = 0, p = pos;
	int names = 0, fixed_head = 0, fixed_tail = 0;
	switch (rr->type) {
	case TYPE_NS:
	case TYPE_CNAME:
	case TYPE_PTR:
	case TYPE_DNAME:
		names = 1;
		break;
	case TYPE_MX:
		names = 1;
		fixed_head = 2;
		break;
	case TYPE_SOA:
		names = 2;
		fixed_tail = 20;
		break;
	default:
		rr->rdata = wire + pos;
		return 0;
	}
	if (p + (size_t)fixed_head > end)
		return -1;
	memcpy(tmp, wire + p, (size_t)fixed_head);
	o = (size_t)fixed_head;
	p += (size_t)fixed_head;
	for (int i = 0; i < names; i++) {
		/* A name may not run past its rdata, so unpack within the rdata's end. */
		int n = dname_unpack(wire, end, &p, tmp + o);
		if (n < 0)
			return -1;
		o += (size_t)n;
	}
	if (p + (size_t)fixed_tail != end)
		return -1;
	memcpy(tmp + o, wire + p, (size_t)fixed_tail);
	o += (size_t)fixed_tail;
	uint8_t *copy = rmem_memdup(m, tmp, o);
	if (!copy)
		return -1;
	rr->rdata = copy;
	rr->rdlen = (uint16_t)o;
	(void)len;
	return 0;
}

int msg_parse(const uint8_t *wire, size_t len, struct rmem *m, struct msg *out)
{
	uint8_t name[DNAME_MAXLEN + 1];
	memset(out, 0, sizeof(*out));
	if (len < 12)
		return -1;
	out->id = msg_get16(wire);
	out->flags = msg_get16(wire + 2);
	out->rcode = out->flags & 0xF;
	if (msg_get16(wire + 4) != 1)
		return -1;
	size_t total = (size_t)msg_get16(wire + 6) + msg_get16(wire + 8) + msg_get16(wire + 10);
	if (total > MSG_MAX_RRS + 1)
		return -1;
	size_t pos = 12;
	int n = dname_unpack(wire, len, &pos, name);
	if (n < 0 || pos + 4 > len)
		return -1;
	uint8_t *qname = rmem_memdup(m, name, (size_t)n);
	if (!qname)
		return -1;
	out->qname = qname;
	out->qtype = msg_get16(wire + pos);
	out->qclass = msg_get16(wire + pos + 2);
	pos += 4;
	if (total == 0)
		return 0;
	out->rr = rmem_alloc(m, total * sizeof(struct msg_rr));
	if (!out->rr)
		return -1;
	const uint8_t *prev_owner = qname;
	size_t kept = 0;
	for (int s = 0; s < 3; s++) {
		uint16_t cnt = msg_get16(wire + 6 + 2 * s);
		for (uint16_t i = 0; i < cnt; i++) {
			n = dname_unpack(wire, len, &pos, name);
			if (n < 0 || pos + 10 > len)
				return -1;
			struct msg_rr *rr = &out->rr[kept];
			rr->type = msg_get16(wire + pos);
			rr->rclass = msg_get16(wire + pos + 2);
			rr->ttl = msg_get32(wire + pos + 4);
			rr->rdlen = msg_get16(wire + pos + 8);
			pos += 10;
			if (pos + rr->rdlen > len)
				return -1;
			if (rr->type == TYPE_OPT) { /* msg_edns_read judges it */
				pos += rr->rdlen;
				continue;
			}
			/* Consecutive records mostly share an owner: reuse it instead of copying.
			 */
			if (prev_owner && dname_len(prev_owner) == (size_t)n &&
			    memcmp(prev_owner, name, (size_t)n) == 0) {
				rr->owner = prev_owner;
			} else {
				uint8_t *owner = rmem_memdup(m, name, (size_t)n);
				if (!owner)
					return -1;
				rr->owner = owner;
				prev_owner = owner;
			}
			if (msg_parse_rdata(wire, len, pos, rr, m) < 0)
				return -1;
			pos += msg_get16(wire + pos - 2);
			out->count[s]++;
			kept++;
		}
	}
	msg_edns_read(wire, len, out);
	return 0;
}

/* The position after a possibly compressed name at pos, or 0 when it is not one within len. */
static size_t msg_name_skip(const uint8_t *wire, size_t len, size_t pos)
{
	while (pos < len) {
		uint8_t c = wire[pos];
		if ((c & 0xC0) == 0xC0)
			return pos + 2 <= len ? pos + 2 : 0;
		if (c & 0xC0)
			return 0;
		pos += (size_t)c + 1;
		if (c == 0)
			return pos;
	}
	return 0;
}

/* RFC 6891 §6.1.1: at most one OPT, in the additional section, owned by the root. */
void msg_edns_read(const uint8_t *wire, size_t len, struct msg *out)
{
	uint8_t owner[DNAME_MAXLEN + 1];
	out->has_edns = out->edns_do = out->edns_malformed = false;
	out->edns_version = 0;
	out->edns_udp = 0;
	if (len < 12)
		return;
	size_t pos = 12;
	for (uint16_t i = msg_get16(wire + 4); i > 0; i--) {
		pos = msg_name_skip(wire, len, pos);
		if (!pos || pos + 4 > len)
			return;
		pos += 4;
	}
	for (int s = 0; s < 3; s++) {
		for (uint16_t i = msg_get16(wire + 6 + 2 * s); i > 0; i--) {
			size_t at = pos;
			pos = msg_name_skip(wire, len, pos);
			if (!pos || pos + 10 > len)
				return;
			if (msg_get16(wire + pos) == TYPE_OPT) {
				/* a pointer to a root label is the root too */
				if (s != MSG_ADDITIONAL || out->has_edns ||
				    dname_unpack(wire, len, &at, owner) != 1) {
					out->has_edns = out->edns_do = false;
					out->edns_malformed = true;
					return;
				}
				uint32_t ttl = msg_get32(wire + pos + 4);
				out->has_edns = true;
				out->edns_udp = msg_get16(wire + pos + 2);
				out->edns_version = (uint8_t)(ttl >> 16);
				out->edns_do = (ttl & 0x8000) != 0;
			}
			pos += 10 + (size_t)msg_get16(wire + pos + 8);
		}
	}
}

int msg_parse_layout(const uint8_t *wire, size_t len, struct rmem *m, struct msg *out,
                     void **ldns_out)
{
	if (ldns_out)
		*ldns_out = NULL;
	if (m->layout == LAYOUT_KRESD)
		return msg_parse(wire, len, m, out);
	return msg_parse_ldns(wire, len, m, out, ldns_out);
}

static void wire_put16(struct wire_writer *w, uint16_t v)
{
	if (w->len + 2 > w->cap) {
		w->overflow = true;
		return;
	}
	w->buf[w->len++] = (uint8_t)(v >> 8);
	w->buf[w->len++] = (uint8_t)v;
}

static void wire_put32(struct wire_writer *w, uint32_t v)
{
	wire_put16(w, (uint16_t)(v >> 16));
	wire_put16(w, (uint16_t)v);
}

static void wire_put_bytes(struct wire_writer *w, const void *p, size_t n)
{
	if (w->len + n > w->cap) {
		w->overflow = true;
		return;
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

void wire_begin(struct wire_writer *w, uint8_t *buf, size_t cap, uint16_t id, uint16_t flags,
                const uint8_t *qname, uint16_t qtype, uint16_t qclass)
{
	memset(w, 0, sizeof(*w));
	w->buf = buf;
	w->cap = cap;
	w->qname = qname;
	wire_put16(w, id);
	wire_put16(w, flags);
	for (int i = 0; i < 4; i++)
		wire_put16(w, 0);
	wire_put_bytes(w, qname, dname_len(qname));
	wire_put16(w, qtype);
	wire_put16(w, qclass);
	w->count[0] = 1;
}

void wire_put_rr(struct wire_writer *w, enum msg_section s, const uint8_t *owner, uint16_t type,
                 uint16_t rclass, uint32_t ttl, const uint8_t *rdata, uint16_t rdlen)
{
	if (w->overflow)
		return;
	if (owner == w->qname || dname_equal(owner, w->qname))
		wire_put16(w, 0xC00C);
	else
		wire_put_bytes(w, owner, dname_len(owner));
	wire_put16(w, type);
	wire_put16(w, rclass);
	wire_put32(w, ttl);
	wire_put16(w, rdlen);
	wire_put_bytes(w, rdata, rdlen);
	if (!w->overflow)
		w->count[1 + s]++;
}

void wire_put_opt(struct wire_writer *w, uint16_t udp_size, int rcode, bool do_bit)
{
	static const uint8_t root = 0;
	if (w->overflow)
		return;
	wire_put_bytes(w, &root, 1);
	wire_put16(w, TYPE_OPT);
	wire_put16(w, udp_size);
	/* extended rcode (8 bits), version 0 (8 bits), DO and zero flags (16 bits) */
	wire_put32(w, ((uint32_t)(rcode >> 4) & 0xFF) << 24 | (do_bit ? 0x8000u : 0));
	wire_put16(w, 0);
	if (!w->overflow)
		w->count[3]++;
}

size_t wire_finish(struct wire_writer *w)
{
	if (w->overflow || w->cap < 12)
		return 0;
	for (int i = 0; i < 4; i++) {
		w->buf[4 + 2 * i] = (uint8_t)(w->count[i] >> 8);
		w->buf[5 + 2 * i] = (uint8_t)w->count[i];
	}
	return w->len;
}
