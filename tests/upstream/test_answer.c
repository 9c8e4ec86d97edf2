/* tests/upstream/test_answer.c - the namespace and the replies: delegation chains, referrals with
 * glue, NS agreement, negative answers with SOA, truncation, byte-identical replies per seed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "zones.h"

static struct server_plan test_plan;

static struct world test_world(uint64_t seed)
{
	struct server_plan_config cfg = {.block = "127.54.20.0/24",
	                                 .seed = seed,
	                                 .n = {4, 24, 96},
	                                 .slow_share = 0.1,
	                                 .dead_share = 0.02};
	char err[256];
	servers_plan_free(&test_plan);
	assert_true(servers_plan_init(&test_plan, &cfg, err, sizeof(err)));
	return (struct world){.seed = seed, .plan = &test_plan};
}

/* Asks server s; returns the reply (caller frees) and its kind. */
static ldns_pkt *test_ask(const struct world *w, const struct server *s, const char *name,
                          ldns_rr_type type, enum answer_kind *kind)
{
	ldns_rr *question = NULL;
	char text[600];
	char *tname = ldns_rr_type2str(type);
	snprintf(text, sizeof(text), "%s IN %s", name, tname);
	free(tname);
	assert_int_equal(ldns_rr_new_question_frm_str(&question, text, NULL, NULL), LDNS_STATUS_OK);
	struct answer_query q = {.question = question,
	                         .qname = name,
	                         .qtype = (uint16_t)type,
	                         .qclass = LDNS_RR_CLASS_IN,
	                         .id = 4242,
	                         .edns = true,
	                         .udp_size = 1232};
	ldns_pkt *p = answer_build(w, s, &q, kind);
	ldns_rr_free(question);
	assert_non_null(p);
	return p;
}

static const struct server *test_root(const struct world *w)
{
	return &w->plan->servers[w->plan->first[TIER_ROOT]];
}

static void test_chains(void **state)
{
	struct world w = test_world(1);
	struct zone_chain c;
	zones_chain(&w, "wpad.lan.", &c);
	assert_int_equal(c.depth, 1);
	assert_false(c.exists);
	zones_chain(&w, "www.bbc.co.uk.", &c);
	assert_int_equal(c.depth, 4);
	assert_string_equal(c.zones[2].name, "co.uk.");
	assert_string_equal(c.zones[3].name, "bbc.co.uk.");
	zones_chain(&w, "4.3.2.1.in-addr.arpa.", &c);
	assert_int_equal(c.depth, 4);
	assert_string_equal(c.zones[3].name, "1.in-addr.arpa.");
	zones_chain(&w, "a.root-servers.net.", &c);
	assert_int_equal(c.depth, 3);
	assert_int_equal(c.zones[2].ns[0]->tier, TIER_ROOT);
	zones_chain(&w, "ns1.nic.com.", &c);
	assert_int_equal(c.depth, 2); /* the registry's own hosts: no delegation */
	for (int i = 0; i < 200; i++) {
		char name[64];
		snprintf(name, sizeof(name), "d%d.example.com.", i);
		zones_chain(&w, name, &c);
		if (c.exists) {
			assert_true(c.zones[c.depth - 1].nns >= 2);
			bool alive = false;
			for (int k = 0; k < c.zones[c.depth - 1].nns; k++)
				alive |= !c.zones[c.depth - 1].ns[k]->dead;
			assert_true(alive);
		}
	}
}

static void test_referral_glue_and_agreement(void **state)
{
	struct world w = test_world(1);
	enum answer_kind kind;
	ldns_pkt *p = test_ask(&w, test_root(&w), "www.example.com.", LDNS_RR_TYPE_A, &kind);
	assert_int_equal(kind, ANSWER_REFERRAL);
	assert_false(ldns_pkt_aa(p));
	assert_true(ldns_pkt_nscount(p) >= 2);
	assert_int_equal(ldns_pkt_arcount(p), ldns_pkt_nscount(p)); /* glue for every TLD server */
	ldns_pkt_free(p);

	/* every delegation of a few hundred domains: parent and child publish the same NS names;
	 * in-bailiwick sets come with glue, provider-hosted ones without (glueless) */
	int glued = 0, glueless = 0;
	for (int i = 0; i < 300; i++) {
		char name[64];
		snprintf(name, sizeof(name), "dom%d.org.", i);
		struct zone_chain c;
		zones_chain(&w, name, &c);
		if (!c.exists)
			continue;
		ldns_pkt *ref = test_ask(&w, c.zones[1].ns[0], name, LDNS_RR_TYPE_A, &kind);
		assert_int_equal(kind, ANSWER_REFERRAL);
		ldns_pkt *apex = test_ask(&w, c.zones[2].ns[0], name, LDNS_RR_TYPE_NS, &kind);
		assert_int_equal(kind, ANSWER_DATA);
		assert_true(ldns_pkt_aa(apex));
		ldns_rr_list *a = ldns_rr_list_clone(ldns_pkt_authority(ref));
		ldns_rr_list *b = ldns_rr_list_clone(ldns_pkt_answer(apex));
		assert_int_equal(ldns_rr_list_rr_count(a), ldns_rr_list_rr_count(b));
		ldns_rr_list_sort(a);
		ldns_rr_list_sort(b);
		for (size_t k = 0; k < ldns_rr_list_rr_count(a); k++)
			assert_int_equal(ldns_rdf_compare(ldns_rr_rdf(ldns_rr_list_rr(a, k), 0),
			                                  ldns_rr_rdf(ldns_rr_list_rr(b, k), 0)),
			                 0);
		if (ldns_pkt_arcount(ref) > 0)
			glued++;
		else
			glueless++;
		ldns_rr_list_deep_free(a);
		ldns_rr_list_deep_free(b);
		ldns_pkt_free(ref);
		ldns_pkt_free(apex);
	}
	printf("glued %d glueless %d\n", glued, glueless);
	assert_true(glued > 50 && glueless > 50);
}

static void test_negative_answers(void **state)
{
	struct world w = test_world(1);
	enum answer_kind kind;
	ldns_pkt *p = test_ask(&w, test_root(&w), "wpad.lan.", LDNS_RR_TYPE_A, &kind);
	assert_int_equal(kind, ANSWER_NXDOMAIN);
	assert_int_equal(ldns_pkt_get_rcode(p), LDNS_RCODE_NXDOMAIN);
	assert_true(ldns_pkt_aa(p));
	assert_int_equal(ldns_rr_get_type(ldns_rr_list_rr(ldns_pkt_authority(p), 0)),
	                 LDNS_RR_TYPE_SOA);
	ldns_pkt_free(p);
	/* a server asked about a zone it does not serve refuses */
	struct zone_chain c;
	zones_chain(&w, "www.example.com.", &c);
	const struct server *other = NULL;
	for (int i = 0; i < test_plan.n[TIER_SLD] && !other; i++) {
		const struct server *s = servers_tier_server(&test_plan, TIER_SLD, (uint64_t)i);
		if (zones_served_by(&c, s) < 0)
			other = s;
	}
	assert_non_null(other);
	p = test_ask(&w, other, "www.example.com.", LDNS_RR_TYPE_A, &kind);
	assert_int_equal(kind, ANSWER_REFUSED);
	assert_int_equal(ldns_pkt_get_rcode(p), LDNS_RCODE_REFUSED);
	ldns_pkt_free(p);
	/* NODATA: AAAA of a registry's apex */
	zones_chain(&w, "com.", &c);
	p = test_ask(&w, c.zones[1].ns[0], "com.", LDNS_RR_TYPE_AAAA, &kind);
	assert_int_equal(kind, ANSWER_NODATA);
	assert_int_equal(ldns_pkt_get_rcode(p), LDNS_RCODE_NOERROR);
	assert_int_equal(ldns_pkt_ancount(p), 0);
	assert_int_equal(ldns_pkt_nscount(p), 1);
	ldns_pkt_free(p);
}

static void test_truncation(void **state)
{
	struct world w = test_world(1);
	/* find an apex with kilobytes of TXT */
	for (int i = 0; i < 2000; i++) {
		char name[64];
		snprintf(name, sizeof(name), "big%d.net.", i);
		struct zone_chain c;
		zones_chain(&w, name, &c);
		if (!c.exists)
			continue;
		enum answer_kind kind;
		ldns_pkt *p = test_ask(&w, c.zones[2].ns[0], name, LDNS_RR_TYPE_TXT, &kind);
		uint8_t *wire;
		size_t len;
		bool tc;
		assert_true(answer_wire(p, 65535, &wire, &len, &tc));
		free(wire);
		assert_false(tc);
		if (len <= 1232) {
			ldns_pkt_free(p);
			continue;
		}
		assert_true(answer_wire(p, 1232, &wire, &len, &tc));
		assert_true(tc);
		assert_true(len <= 1232);
		ldns_pkt *t = NULL;
		assert_int_equal(ldns_wire2pkt(&t, wire, len), LDNS_STATUS_OK);
		assert_true(ldns_pkt_tc(t));
		assert_int_equal(ldns_pkt_id(t), 4242);
		assert_int_equal(ldns_pkt_qdcount(t), 1);
		assert_int_equal(ldns_pkt_ancount(t), 0);
		ldns_pkt_free(t);
		free(wire);
		ldns_pkt_free(p);
		return;
	}
	fail_msg("no name with a large TXT set among 2000");
}

/* Serializes the replies of every server of the chain for a set of questions. */
static size_t test_replies(uint64_t seed, uint8_t *out, size_t cap)
{
	static const char *const names[] = {"www.google.com.",
	                                    "thumbs2.ebaystatic.com.",
	                                    "196.127.197.94.in-addr.arpa.",
	                                    "mail.mobilni-telefony.biz.",
	                                    "www.bbc.co.uk.",
	                                    "wpad.lan.",
	                                    "e123.simcdn-2.net.",
	                                    "ns1.simdns-3.net.",
	                                    "example.org.",
	                                    "a.root-servers.net."};
	static const ldns_rr_type types[] = {LDNS_RR_TYPE_A,   LDNS_RR_TYPE_AAAA, LDNS_RR_TYPE_MX,
	                                     LDNS_RR_TYPE_TXT, LDNS_RR_TYPE_PTR,  LDNS_RR_TYPE_NS};
	struct world w = test_world(seed);
	size_t used = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
			struct zone_chain c;
			zones_chain(&w, names[i], &c);
			for (int z = 0; z < c.depth; z++) {
				enum answer_kind kind;
				ldns_pkt *p =
				    test_ask(&w, c.zones[z].ns[0], names[i], types[t], &kind);
				uint8_t *wire;
				size_t len;
				bool tc;
				assert_true(answer_wire(p, 65535, &wire, &len, &tc));
				assert_true(used + len <= cap);
				memcpy(out + used, wire, len);
				used += len;
				free(wire);
				ldns_pkt_free(p);
			}
		}
	}
	return used;
}

static void test_same_seed_identical_bytes(void **state)
{
	static uint8_t a[1 << 20], b[1 << 20], c[1 << 20];
	size_t la = test_replies(42, a, sizeof(a));
	size_t lb = test_replies(42, b, sizeof(b));
	size_t lc = test_replies(43, c, sizeof(c));
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	assert_true(la != lc || memcmp(a, c, la) != 0);
}

static int test_teardown(void **state)
{
	servers_plan_free(&test_plan);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_chains),
	    cmocka_unit_test(test_referral_glue_and_agreement),
	    cmocka_unit_test(test_negative_answers),
	    cmocka_unit_test(test_truncation),
	    cmocka_unit_test(test_same_seed_identical_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, test_teardown);
}
