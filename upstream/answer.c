/* upstream/answer.c - authoritative logic: referral, answer, NXDOMAIN/NODATA, REFUSED, truncation.
 */
#include "answer.h"

#include "content.h"
#include "rr.h"
#include "wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const answer_kind_names[ANSWER_KIND_COUNT] = {
    "data", "cname", "nodata", "nxdomain", "referral", "refused",
};

static void answer_push(ldns_pkt *p, ldns_pkt_section section, ldns_rr_list *list)
{
	for (size_t i = 0; i < ldns_rr_list_rr_count(list); i++)
		ldns_pkt_push_rr(p, section, ldns_rr_list_rr(list, i));
	ldns_rr_list_free(list); /* the records now belong to the packet */
}

static void answer_push_ns(const struct world *w, ldns_pkt *p, ldns_pkt_section section,
                           const struct zone *z, bool at_parent, bool glue)
{
	char name[ZONES_NAME_MAX];
	uint32_t ttl = content_ns_ttl(w, z, at_parent);
	for (int k = 0; k < z->nns; k++) {
		zones_ns_name(z, k, name);
		ldns_rr *rr = rr_new(z->name, LDNS_RR_TYPE_NS, ttl);
		if (!rr)
			return;
		rr_add_dname(rr, name);
		ldns_pkt_push_rr(p, section, rr);
	}
	if (!glue || !zones_ns_in_bailiwick(z))
		return;
	for (int k = 0; k < z->nns; k++) {
		zones_ns_name(z, k, name);
		ldns_rr *rr = rr_new(name, LDNS_RR_TYPE_A, ttl);
		rr_add_a(rr, z->ns[k]->addr);
		ldns_pkt_push_rr(p, LDNS_SECTION_ADDITIONAL, rr);
	}
}

/* Addresses of in-zone MX exchangers, as real servers add them. */
static void answer_push_mx_additional(const struct world *w, ldns_pkt *p, const struct zone *z)
{
	ldns_rr_list *answer = ldns_pkt_answer(p);
	char target[ZONES_NAME_MAX];
	for (size_t i = 0; i < ldns_rr_list_rr_count(answer); i++) {
		ldns_rr *rr = ldns_rr_list_rr(answer, i);
		if (ldns_rr_get_type(rr) != LDNS_RR_TYPE_MX)
			continue;
		char *t = ldns_rdf2str(ldns_rr_rdf(rr, 1));
		if (!t)
			continue;
		ldns_rr_list *add = ldns_rr_list_new();
		if (content_lookup(w, z, t, LDNS_RR_TYPE_A, add, target) == CONTENT_ANSWER)
			answer_push(p, LDNS_SECTION_ADDITIONAL, add);
		else
			ldns_rr_list_deep_free(add);
		free(t);
	}
}

static bool answer_in_zone(const char *name, const struct zone *z)
{
	size_t n = strlen(name), zl = strlen(z->name);
	if (z->kind == ZONE_ROOT)
		return true;
	return n >= zl && strcmp(name + n - zl, z->name) == 0 &&
	       (n == zl || name[n - zl - 1] == '.');
}

bool answer_follows_cname(const struct zone *z, const struct answer_query *q, const char *name,
                          const char *target)
{
	return q->qtype != LDNS_RR_TYPE_CNAME && answer_in_zone(target, z) &&
	       strcmp(target, name) != 0;
}

bool answer_from_content(const struct zone *z, const struct answer_query *q)
{
	uint32_t addr;
	return !(strcmp(q->qname, z->name) == 0 && q->qtype == LDNS_RR_TYPE_NS) &&
	       !zones_ns_address(z, q->qname, &addr) &&
	       (z->kind == ZONE_DOMAIN || z->kind == ZONE_WILDCARD) &&
	       strcmp(z->name, "root-servers.net.") != 0;
}

/* Authoritative data of zone z for q: NS host names, apex records, then the leaf content. */
static enum answer_kind answer_authoritative(const struct world *w, const struct zone *z,
                                             const struct answer_query *q, ldns_pkt *p)
{
	ldns_pkt_set_aa(p, true);
	bool apex = strcmp(q->qname, z->name) == 0;
	uint32_t addr;
	if (answer_from_content(z, q))
		goto content;
	if (apex && q->qtype == LDNS_RR_TYPE_NS) {
		answer_push_ns(w, p, LDNS_SECTION_ANSWER, z, false, true);
		return ANSWER_DATA;
	}
	if (zones_ns_address(z, q->qname, &addr)) {
		if (q->qtype != LDNS_RR_TYPE_A)
			goto nodata;
		ldns_rr *rr = rr_new(q->qname, LDNS_RR_TYPE_A, content_ns_ttl(w, z, false));
		rr_add_a(rr, addr);
		ldns_pkt_push_rr(p, LDNS_SECTION_ANSWER, rr);
		return ANSWER_DATA;
	}
	if (apex && q->qtype == LDNS_RR_TYPE_SOA) {
		ldns_pkt_push_rr(p, LDNS_SECTION_ANSWER, content_soa(w, z));
		return ANSWER_DATA;
	}
	if (apex || (strncmp(q->qname, "nic.", 4) == 0 && strcmp(q->qname + 4, z->name) == 0))
		goto nodata;
	goto nxdomain;

content:;
	char name[ZONES_NAME_MAX];
	char target[ZONES_NAME_MAX];
	snprintf(name, sizeof(name), "%s", q->qname);
	/* follow CNAMEs while they stay in this zone, as authoritative servers do */
	for (int hops = 0; hops < 8; hops++) {
		ldns_rr_list *list = ldns_rr_list_new();
		enum content_result r = content_lookup(w, z, name, q->qtype, list, target);
		answer_push(p, LDNS_SECTION_ANSWER, list);
		switch (r) {
		case CONTENT_ANSWER:
			if (q->qtype == LDNS_RR_TYPE_MX)
				answer_push_mx_additional(w, p, z);
			return ANSWER_DATA;
		case CONTENT_NODATA:
			goto nodata;
		case CONTENT_NXDOMAIN:
			goto nxdomain;
		case CONTENT_CNAME:
			if (!answer_follows_cname(z, q, name, target))
				return q->qtype == LDNS_RR_TYPE_CNAME ? ANSWER_DATA : ANSWER_CNAME;
			snprintf(name, sizeof(name), "%s", target);
			break;
		}
	}
	return ANSWER_CNAME;
nodata:
	ldns_pkt_push_rr(p, LDNS_SECTION_AUTHORITY, content_soa(w, z));
	return ANSWER_NODATA;
nxdomain:
	ldns_pkt_push_rr(p, LDNS_SECTION_AUTHORITY, content_soa(w, z));
	/* an NXDOMAIN reached through a CNAME keeps the CNAME and says NXDOMAIN for the target */
	ldns_pkt_set_rcode(p, LDNS_RCODE_NXDOMAIN);
	return ANSWER_NXDOMAIN;
}

ldns_pkt *answer_build(const struct world *w, const struct server *s, const struct answer_query *q,
                       enum answer_kind *kind)
{
	ldns_pkt *p = ldns_pkt_new();
	if (!p)
		return NULL;
	ldns_pkt_set_id(p, q->id);
	ldns_pkt_set_qr(p, true);
	ldns_pkt_set_rd(p, q->rd);
	ldns_pkt_set_cd(p, q->cd);
	ldns_pkt_push_rr(p, LDNS_SECTION_QUESTION, ldns_rr_clone(q->question));
	if (q->edns)
		ldns_pkt_set_edns_udp_size(p, 1232);

	struct zone_chain own;
	const struct zone_chain *chain = q->chain;
	if (!chain) {
		zones_chain(w, q->qname, &own);
		chain = &own;
	}
	int i = q->qclass == LDNS_RR_CLASS_IN ? zones_served_by(chain, s) : -1;
	if (i < 0) {
		ldns_pkt_set_rcode(p, LDNS_RCODE_REFUSED);
		*kind = ANSWER_REFUSED;
		return p;
	}
	const struct zone *z = &chain->zones[i];
	if (i < chain->depth - 1) {
		const struct zone *child = &chain->zones[i + 1];
		if (q->qtype == LDNS_RR_TYPE_DS && strcmp(q->qname, child->name) == 0) {
			/* DS lives at the parent side of the cut: unsigned, so NODATA */
			ldns_pkt_set_aa(p, true);
			ldns_pkt_push_rr(p, LDNS_SECTION_AUTHORITY, content_soa(w, z));
			*kind = ANSWER_NODATA;
			return p;
		}
		answer_push_ns(w, p, LDNS_SECTION_AUTHORITY, child, true, true);
		*kind = ANSWER_REFERRAL;
		return p;
	}
	if (!chain->exists) {
		ldns_pkt_set_aa(p, true);
		ldns_pkt_set_rcode(p, LDNS_RCODE_NXDOMAIN);
		ldns_pkt_push_rr(p, LDNS_SECTION_AUTHORITY, content_soa(w, z));
		*kind = ANSWER_NXDOMAIN;
		return p;
	}
	*kind = answer_authoritative(w, z, q, p);
	return p;
}

size_t answer_udp_limit(const struct answer_query *q)
{
	if (!q->edns || q->udp_size < 512)
		return 512;
	return q->udp_size;
}

bool answer_wire(const ldns_pkt *p, size_t limit, uint8_t **wire, size_t *len, bool *truncated)
{
	static uint8_t buf[65535];
	*truncated = false;
	if (!wire_encode(p, false, buf, sizeof(buf), len))
		return false;
	if (*len > limit) {
		if (!wire_encode(p, true, buf, sizeof(buf), len))
			return false;
		*truncated = true;
	}
	*wire = malloc(*len);
	if (!*wire)
		return false;
	memcpy(*wire, buf, *len);
	return true;
}
