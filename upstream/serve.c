/* upstream/serve.c - the per-query pipeline shared by UDP and TCP. */
#include "serve.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static uint16_t serve_u16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* Skips a possibly compressed name; false when it runs past the end. */
static bool serve_skip_name(const uint8_t *pkt, size_t len, size_t *pos)
{
	while (*pos < len) {
		uint8_t l = pkt[*pos];
		if (l == 0) {
			(*pos)++;
			return true;
		}
		if ((l & 0xc0) == 0xc0) {
			*pos += 2;
			return *pos <= len;
		}
		if (l & 0xc0)
			return false;
		*pos += 1 + (size_t)l;
	}
	return false;
}

bool serve_parse(const uint8_t *pkt, size_t len, struct answer_query *q, char *qname_buf,
                 size_t qname_size, size_t *name_len)
{
	if (len < 12 || (pkt[2] & 0x80) || ((pkt[2] >> 3) & 15) != 0 || serve_u16(pkt + 4) != 1)
		return false;
	memset(q, 0, sizeof(*q));
	q->id = serve_u16(pkt);
	q->rd = pkt[2] & 1;
	q->cd = (pkt[3] & 0x10) != 0;
	size_t pos = 12, out = 0;
	for (;;) {
		if (pos >= len)
			return false;
		uint8_t l = pkt[pos];
		if (l == 0) {
			pos++;
			break;
		}
		if ((l & 0xc0) || pos + 1 + l > len || pos + 1 + l - 12 > 254)
			return false;
		for (size_t i = pos + 1; i <= pos + l; i++) {
			unsigned char c = (unsigned char)tolower(pkt[i]);
			if (out + 6 >= qname_size)
				return false;
			/* the escapes ldns_rdf2str writes, so names compare the same either way */
			if (c == '.' || c == ';' || c == '(' || c == ')' || c == '\\') {
				qname_buf[out++] = '\\';
				qname_buf[out++] = (char)c;
			} else if (!(isascii(c) && isgraph(c))) {
				out += (size_t)snprintf(qname_buf + out, qname_size - out, "\\%03u",
				                        c);
			} else {
				qname_buf[out++] = (char)c;
			}
		}
		qname_buf[out++] = '.';
		pos += 1 + l;
	}
	if (out == 0)
		qname_buf[out++] = '.';
	qname_buf[out] = '\0';
	*name_len = pos - 12;
	if (pos + 4 > len)
		return false;
	q->qname = qname_buf;
	q->qtype = serve_u16(pkt + pos);
	q->qclass = serve_u16(pkt + pos + 2);
	pos += 4;
	/* the OPT record may follow any answer or authority records a client put in */
	unsigned records = (unsigned)serve_u16(pkt + 6) + serve_u16(pkt + 8) + serve_u16(pkt + 10);
	unsigned additional_from = records - serve_u16(pkt + 10);
	for (unsigned i = 0; i < records; i++) {
		if (!serve_skip_name(pkt, len, &pos) || pos + 10 > len)
			return false;
		uint16_t type = serve_u16(pkt + pos);
		uint16_t rdlen = serve_u16(pkt + pos + 8);
		if (i >= additional_from && type == LDNS_RR_TYPE_OPT) {
			q->edns = true;
			q->udp_size = serve_u16(pkt + pos + 2);
		}
		pos += 10 + (size_t)rdlen;
		if (pos > len)
			return false;
	}
	return true;
}

/* Builds the reply with ldns, the slow path a cache miss takes. */
static bool serve_build(struct serve *sv, const struct server *s, struct answer_query *q,
                        const uint8_t *pkt, size_t name_len, size_t limit,
                        struct replycache_value *v)
{
	ldns_rdf *owner = ldns_dname_new_frm_data((uint16_t)name_len, pkt + 12);
	ldns_rr *question = owner ? ldns_rr_new() : NULL;
	if (!question) {
		ldns_rdf_deep_free(owner);
		return false;
	}
	ldns_rr_set_owner(question, owner);
	ldns_rr_set_type(question, q->qtype);
	ldns_rr_set_class(question, q->qclass);
	ldns_rr_set_question(question, true);
	q->question = question;
	ldns_pkt *reply = answer_build(&sv->world, s, q, &v->kind);
	bool ok = reply && answer_wire(reply, limit, &v->wire, &v->len, &v->truncated);
	if (ok)
		v->rcode = ldns_pkt_get_rcode(reply);
	ldns_pkt_free(reply);
	ldns_rr_free(question);
	q->question = NULL;
	return ok;
}

bool serve_packet(struct serve *sv, const struct server *s, uint32_t source, uint16_t port,
                  const uint8_t *pkt, size_t len, bool tcp, double now_s, uint8_t **wire,
                  size_t *wire_len, uint32_t *delay_ms)
{
	struct answer_query q;
	char qname[LDNS_MAX_DOMAINLEN * 4 + 8];
	size_t name_len;
	stats_note_query(&sv->stats, source, s->tier, tcp);
	if (!serve_parse(pkt, len, &q, qname, sizeof(qname), &name_len)) {
		sv->stats.malformed++;
		stats_source(&sv->stats, source)->dropped++;
		return false;
	}
	struct netem_verdict v = {0};
	if (!tcp) {
		netem_decide(sv->netem, source, s, q.qname, q.qtype, now_s, &v);
		if (sv->applied)
			applied_note(sv->applied, now_s, source, port, s, q.qname, q.qtype, &v);
		if (v.drop) {
			stats_note_dropped(&sv->stats, source, s->tier);
			return false;
		}
	}
	size_t limit = tcp ? 65535 : answer_udp_limit(&q);
	struct replycache_key key = {.qname = q.qname,
	                             .server = s->index,
	                             .qtype = q.qtype,
	                             .qclass = q.qclass,
	                             .limit = (uint16_t)limit,
	                             .flags = (uint8_t)(q.rd | q.cd << 1 | q.edns << 2)};
	const struct replycache_value *hit = replycache_find(sv->cache, &key);
	struct replycache_value built;
	if (hit) {
		*wire = malloc(hit->len);
		if (!*wire)
			return false;
		memcpy(*wire, hit->wire, hit->len);
		*wire_len = hit->len;
		/* the asker's ID and the letter case of its question (0x20 resolvers check it) */
		(*wire)[0] = pkt[0];
		(*wire)[1] = pkt[1];
		memcpy(*wire + 12, pkt + 12, name_len);
	} else {
		/* a reply of a shape many names share is patched from that shape's template */
		struct template_query tq;
		struct zone_chain chain;
		zones_chain(&sv->world, q.qname, &chain);
		q.chain = &chain; /* computed once for the template and the build */
		bool templated = sv->templates && templates_anchor(&sv->world, s, &q, &key, &tq);
		if (!templated || !templates_reply(sv->templates, &tq, pkt, name_len, &built)) {
			if (!serve_build(sv, s, &q, pkt, name_len, limit, &built))
				return false;
			if (templated)
				templates_learn(sv->templates, &tq, pkt, name_len, &built);
		}
		replycache_store(sv->cache, &key, &built);
		*wire = built.wire;
		*wire_len = built.len;
		hit = &built;
	}
	stats_note_answered(&sv->stats, source, s->tier, hit->rcode, hit->kind, hit->truncated,
	                    v.delay_ms);
	*delay_ms = v.delay_ms;
	return true;
}
