/* upstream/serve.c - the per-query pipeline shared by UDP and TCP. */
#include "serve.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool serve_parse(const uint8_t *pkt, size_t len, ldns_pkt **parsed, struct answer_query *q,
                 char *qname_buf, size_t qname_size)
{
	*parsed = NULL;
	if (len < 12 || ldns_wire2pkt(parsed, pkt, len) != LDNS_STATUS_OK)
		return false;
	ldns_pkt *p = *parsed;
	if (ldns_pkt_qr(p) || ldns_pkt_get_opcode(p) != LDNS_PACKET_QUERY ||
	    ldns_pkt_qdcount(p) != 1 || ldns_rr_list_rr_count(ldns_pkt_question(p)) != 1)
		goto bad;
	const ldns_rr *question = ldns_rr_list_rr(ldns_pkt_question(p), 0);
	char *name = ldns_rdf2str(ldns_rr_owner(question));
	if (!name)
		goto bad;
	size_t n = strlen(name);
	if (n + 1 > qname_size) {
		free(name);
		goto bad;
	}
	for (size_t i = 0; i <= n; i++)
		qname_buf[i] = (char)tolower((unsigned char)name[i]);
	free(name);
	q->question = question;
	q->qname = qname_buf;
	q->qtype = (uint16_t)ldns_rr_get_type(question);
	q->qclass = (uint16_t)ldns_rr_get_class(question);
	q->id = ldns_pkt_id(p);
	q->rd = ldns_pkt_rd(p);
	q->cd = ldns_pkt_cd(p);
	q->edns = ldns_pkt_edns(p);
	q->udp_size = ldns_pkt_edns_udp_size(p);
	return true;
bad:
	ldns_pkt_free(p);
	*parsed = NULL;
	return false;
}

static void serve_log_applied(struct serve *sv, double now_s, uint32_t source, uint16_t port,
                              const struct server *s, const struct answer_query *q,
                              const struct netem_verdict *v)
{
	char src[16], srv[16];
	char *type = ldns_rr_type2str(q->qtype);
	fprintf(sv->applied_log, "%.3f\t%s:%u\t%s\t%s\t%s\t%s\t%u\t%s\t%u\n",
	        now_s - sv->stats.start_s, servers_addr_text(source, src), port,
	        servers_addr_text(s->addr, srv), tier_names[s->tier], q->qname, type ? type : "?",
	        v->attempt, v->drop ? "drop" : "answer", v->delay_ms);
	free(type);
}

bool serve_packet(struct serve *sv, const struct server *s, uint32_t source, uint16_t port,
                  const uint8_t *pkt, size_t len, bool tcp, double now_s, uint8_t **wire,
                  size_t *wire_len, uint32_t *delay_ms)
{
	ldns_pkt *parsed;
	struct answer_query q;
	char qname[LDNS_MAX_DOMAINLEN * 4 + 8];
	stats_note_query(&sv->stats, source, s->tier, tcp);
	if (!serve_parse(pkt, len, &parsed, &q, qname, sizeof(qname))) {
		sv->stats.malformed++;
		stats_source(&sv->stats, source)->dropped++;
		return false;
	}
	struct netem_verdict v = {0};
	if (!tcp) {
		netem_decide(sv->netem, source, s, q.qname, q.qtype, now_s, &v);
		if (sv->applied_log)
			serve_log_applied(sv, now_s, source, port, s, &q, &v);
		if (v.drop) {
			stats_note_dropped(&sv->stats, source, s->tier);
			ldns_pkt_free(parsed);
			return false;
		}
	}
	enum answer_kind kind;
	ldns_pkt *reply = answer_build(&sv->world, s, &q, &kind);
	bool truncated = false;
	bool ok = reply && answer_wire(reply, tcp ? 65535 : answer_udp_limit(&q), wire, wire_len,
	                               &truncated);
	if (ok)
		stats_note_answered(&sv->stats, source, s->tier, ldns_pkt_get_rcode(reply), kind,
		                    truncated, v.delay_ms);
	ldns_pkt_free(reply);
	ldns_pkt_free(parsed);
	*delay_ms = v.delay_ms;
	return ok;
}
