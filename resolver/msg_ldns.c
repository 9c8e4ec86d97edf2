/* resolver/msg_ldns.c - the heap layout's parser: ldns_wire2pkt, then one allocation per record. */
#include "msg.h"

#include <ldns/ldns.h>
#include <string.h>

static int msg_ldns_copy_rr(const ldns_rr *lrr, struct rmem *m, ldns_buffer *buf, struct msg_rr *rr)
{
	const ldns_rdf *owner = ldns_rr_owner(lrr);
	ldns_buffer_clear(buf);
	if (ldns_rr_rdata2buffer_wire(buf, lrr) != LDNS_STATUS_OK)
		return -1;
	size_t rdlen = ldns_buffer_position(buf);
	size_t olen = ldns_rdf_size(owner);
	if (rdlen > 65535 || olen == 0)
		return -1;
	/* Owner and rdata in one object: what a heap resolver keeps per parsed record. */
	uint8_t *obj = rmem_alloc_loose(m, olen + rdlen + 1);
	if (!obj)
		return -1;
	memcpy(obj, ldns_rdf_data(owner), olen);
	memcpy(obj + olen, ldns_buffer_begin(buf), rdlen);
	rr->owner = obj;
	rr->rdata = obj + olen;
	rr->rdlen = (uint16_t)rdlen;
	rr->type = (uint16_t)ldns_rr_get_type(lrr);
	rr->rclass = (uint16_t)ldns_rr_get_class(lrr);
	rr->ttl = ldns_rr_ttl(lrr);
	return 0;
}

int msg_parse_ldns(const uint8_t *wire, size_t len, struct rmem *m, struct msg *out,
                   void **ldns_out)
{
	ldns_pkt *pkt = NULL;
	memset(out, 0, sizeof(*out));
	*ldns_out = NULL;
	if (len < 12 || ldns_wire2pkt(&pkt, wire, len) != LDNS_STATUS_OK)
		return -1;
	*ldns_out = pkt;
	ldns_rr_list *q = ldns_pkt_question(pkt);
	if (ldns_rr_list_rr_count(q) != 1)
		return -1;
	const ldns_rr *qrr = ldns_rr_list_rr(q, 0);
	const ldns_rdf *qn = ldns_rr_owner(qrr);
	if (!qn || ldns_rdf_size(qn) == 0)
		return -1;
	/* Parsed replies are loose mallocs, as unbound's parse lives outside the query's region. */
	uint8_t *qname = rmem_alloc_loose(m, ldns_rdf_size(qn));
	if (!qname)
		return -1;
	memcpy(qname, ldns_rdf_data(qn), ldns_rdf_size(qn));
	out->qname = qname;
	out->qtype = (uint16_t)ldns_rr_get_type(qrr);
	out->qclass = (uint16_t)ldns_rr_get_class(qrr);
	out->id = ldns_pkt_id(pkt);
	/* The header word as it was on the wire (ldns keeps the bits separately). */
	out->flags = (uint16_t)((wire[2] << 8) | wire[3]);
	out->rcode = out->flags & 0xF;
	msg_edns_read(wire, len, out);
	ldns_rr_list *lists[3] = {ldns_pkt_answer(pkt), ldns_pkt_authority(pkt),
	                          ldns_pkt_additional(pkt)};
	size_t total = 0;
	for (int s = 0; s < 3; s++)
		total += ldns_rr_list_rr_count(lists[s]);
	if (total > MSG_MAX_RRS)
		return -1;
	if (total == 0)
		return 0;
	out->rr = rmem_alloc_loose(m, total * sizeof(struct msg_rr));
	ldns_buffer *buf = ldns_buffer_new(512);
	if (!out->rr || !buf) {
		ldns_buffer_free(buf);
		return -1;
	}
	size_t kept = 0;
	for (int s = 0; s < 3; s++) {
		for (size_t i = 0; i < ldns_rr_list_rr_count(lists[s]); i++) {
			if (msg_ldns_copy_rr(ldns_rr_list_rr(lists[s], i), m, buf, &out->rr[kept]) <
			    0) {
				ldns_buffer_free(buf);
				return -1;
			}
			kept++;
			out->count[s]++;
		}
	}
	ldns_buffer_free(buf);
	return 0;
}

void msg_release(struct rmem *m, struct msg *msg, void *ldns_pkt)
{
	if (ldns_pkt)
		ldns_pkt_free(ldns_pkt);
	if (m->layout != LAYOUT_HEAP)
		return;
	size_t total = (size_t)msg->count[0] + msg->count[1] + msg->count[2];
	for (size_t i = 0; i < total; i++)
		rmem_free(m, (void *)msg->rr[i].owner);
	rmem_free(m, msg->rr);
	rmem_free(m, (void *)msg->qname);
	memset(msg, 0, sizeof(*msg));
}
