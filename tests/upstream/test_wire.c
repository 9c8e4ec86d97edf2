/* tests/upstream/test_wire.c - the hierarchy's own wire encoder writes exactly the bytes
 * ldns_pkt2wire writes (same name compression), for every kind of reply a sample of names gets
 * from every server on its way, in mixed letter case, and for the truncated form of each. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "wire.h"

/* The reply that did not fit, as ldns builds it: header, question, OPT, TC. */
static ldns_pkt *test_truncated(const ldns_pkt *p)
{
	ldns_pkt *t = ldns_pkt_new();
	ldns_pkt_set_id(t, ldns_pkt_id(p));
	ldns_pkt_set_qr(t, true);
	ldns_pkt_set_aa(t, ldns_pkt_aa(p));
	ldns_pkt_set_rd(t, ldns_pkt_rd(p));
	ldns_pkt_set_cd(t, ldns_pkt_cd(p));
	ldns_pkt_set_tc(t, true);
	ldns_pkt_set_rcode(t, ldns_pkt_get_rcode(p));
	ldns_rr_list *qs = ldns_pkt_question(p);
	for (size_t i = 0; i < ldns_rr_list_rr_count(qs); i++)
		ldns_pkt_push_rr(t, LDNS_SECTION_QUESTION, ldns_rr_clone(ldns_rr_list_rr(qs, i)));
	ldns_pkt_set_edns_udp_size(t, ldns_pkt_edns_udp_size(p));
	return t;
}

static void test_same_bytes(const ldns_pkt *p, bool question_only, const char *what)
{
	static uint8_t ours[65535];
	size_t len;
	ldns_pkt *t = question_only ? test_truncated(p) : NULL;
	uint8_t *theirs;
	size_t tlen;
	assert_int_equal(ldns_pkt2wire(&theirs, t ? t : p, &tlen), LDNS_STATUS_OK);
	assert_true(wire_encode(p, question_only, ours, sizeof(ours), &len));
	if (len != tlen || memcmp(ours, theirs, len) != 0)
		fail_msg("%s%s: %zu bytes, ldns %zu", what, question_only ? " (TC)" : "", len,
		         tlen);
	free(theirs);
	ldns_pkt_free(t);
}

static void test_replies_as_ldns(void **state)
{
	struct server_plan plan;
	struct server_plan_config cfg = {.block = "127.54.23.0/24", .seed = 3, .n = {4, 24, 96}};
	char err[256];
	assert_true(servers_plan_init(&plan, &cfg, err, sizeof(err)));
	struct world w = {.seed = 3, .plan = &plan};
	static const char *const shapes[] = {
	    "www.d%d.com.",           "mail.D%d.Co.Uk.",    "d%d.org.",
	    "x%d.unknown-tld.",       "e%d.simcdn-1.net.",  "a%d.g.simcdn-2.net.",
	    "%d.3.2.1.in-addr.arpa.", "_sip._udp.d%d.de.",  "s1._domainkey.d%d.com.",
	    "_dmarc.d%d.net.",        "ns1.simdns-%d.net.", "cdn.d%d.io.",
	};
	static const uint16_t types[] = {LDNS_RR_TYPE_A,   LDNS_RR_TYPE_AAAA, LDNS_RR_TYPE_MX,
	                                 LDNS_RR_TYPE_TXT, LDNS_RR_TYPE_NS,   LDNS_RR_TYPE_SOA,
	                                 LDNS_RR_TYPE_SRV, LDNS_RR_TYPE_PTR,  LDNS_RR_TYPE_CNAME,
	                                 LDNS_RR_TYPE_ANY, LDNS_RR_TYPE_DS};
	char name[128], lower[128], text[200];
	int replies = 0;
	for (int i = 0; i < 200; i++) {
		for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
			snprintf(name, sizeof(name), shapes[k], i);
			for (size_t c = 0; c <= strlen(name); c++)
				lower[c] = (char)(name[c] >= 'A' && name[c] <= 'Z' ? name[c] + 32
				                                                   : name[c]);
			uint16_t type = types[(i + (int)k) % 11];
			char *tname = ldns_rr_type2str(type);
			snprintf(text, sizeof(text), "%s IN %s", name, tname);
			free(tname);
			ldns_rr *question = NULL;
			assert_int_equal(ldns_rr_new_question_frm_str(&question, text, NULL, NULL),
			                 LDNS_STATUS_OK);
			struct answer_query q = {.question = question,
			                         .qname = lower,
			                         .qtype = type,
			                         .qclass = LDNS_RR_CLASS_IN,
			                         .id = (uint16_t)i,
			                         .rd = i % 2,
			                         .cd = i % 5 == 0,
			                         .edns = i % 3 != 0,
			                         .udp_size = 1232};
			struct zone_chain chain;
			zones_chain(&w, lower, &chain);
			for (int z = 0; z < chain.depth; z++) {
				enum answer_kind kind;
				ldns_pkt *p = answer_build(&w, chain.zones[z].ns[0], &q, &kind);
				assert_non_null(p);
				test_same_bytes(p, false, text);
				test_same_bytes(p, true, text);
				ldns_pkt_free(p);
				replies++;
			}
			ldns_rr_free(question);
		}
	}
	assert_true(replies > 5000);
	servers_plan_free(&plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_replies_as_ldns),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
