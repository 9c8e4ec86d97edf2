/* tests/upstream/test_template.c - a reply patched from a template equals, byte for byte, the
 * reply the full build sends, for a sample of names (referrals from the root and the registries,
 * NXDOMAIN for unregistered names, REFUSED, mixed letter case, questions whose own labels the
 * full build would compress against; leaf answers of every kind at their own zone's servers) and
 * the templates are really used. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

static struct server_plan test_plan;

static void test_setup(struct serve *sv, bool templates)
{
	struct netem_config nc = {.seed = 5, .window_s = 10}; /* no latency, no loss */
	memset(sv, 0, sizeof(*sv));
	sv->world = (struct world){.seed = 5, .plan = &test_plan};
	sv->netem = netem_new(&nc);
	sv->templates = templates ? templates_new(4096) : NULL;
}

/* the plan of servers, and two hierarchies over it: one with templates, one building every
 * reply in full */
static void test_pair_open(const struct server_plan_config *cfg, struct serve *fast,
                           struct serve *slow)
{
	char err[256];
	assert_true(servers_plan_init(&test_plan, cfg, err, sizeof(err)));
	test_setup(fast, true);
	test_setup(slow, false);
}

/* frees both hierarchies and the plan; returns the replies the templates served */
static uint64_t test_pair_close(struct serve *fast, struct serve *slow, uint64_t *misses)
{
	uint64_t hits;
	templates_stats(fast->templates, &hits, misses);
	netem_free(fast->netem);
	netem_free(slow->netem);
	templates_free(fast->templates);
	servers_plan_free(&test_plan);
	return hits;
}

/* the name as zones_chain expects it: lower case */
static void test_lower(const char *name, char *lower)
{
	for (size_t c = 0; c <= strlen(name); c++)
		lower[c] = (char)(name[c] >= 'A' && name[c] <= 'Z' ? name[c] + 32 : name[c]);
}

static size_t test_query(uint8_t *buf, uint16_t id, const char *name, uint16_t type, bool edns)
{
	ldns_pkt *p = NULL;
	assert_int_equal(ldns_pkt_query_new_frm_str(&p, name, type, LDNS_RR_CLASS_IN, 0),
	                 LDNS_STATUS_OK);
	ldns_pkt_set_id(p, id);
	if (edns)
		ldns_pkt_set_edns_udp_size(p, 1232);
	uint8_t *wire;
	size_t len;
	assert_int_equal(ldns_pkt2wire(&wire, p, &len), LDNS_STATUS_OK);
	memcpy(buf, wire, len);
	free(wire);
	ldns_pkt_free(p);
	return len;
}

/* Asks server s the same question through both pipelines; the replies must be equal. */
static void test_compare(struct serve *fast, struct serve *slow, const struct server *s,
                         const char *name, uint16_t type, bool edns, uint16_t id)
{
	uint8_t pkt[600];
	size_t len = test_query(pkt, id, name, type, edns);
	uint8_t *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	uint32_t delay;
	bool ra = serve_packet(fast, s, 0x7f000101, 5000, pkt, len, false, 1.0, &a, &alen, &delay);
	bool rb = serve_packet(slow, s, 0x7f000101, 5000, pkt, len, false, 1.0, &b, &blen, &delay);
	assert_int_equal(ra, rb);
	if (ra && (alen != blen || memcmp(a, b, alen) != 0))
		fail_msg("%s type %u at server %d: templated reply differs (%zu vs %zu bytes)",
		         name, type, s->index, alen, blen);
	free(a);
	free(b);
}

static void test_templated_equals_built(void **state)
{
	struct server_plan_config cfg = {.block = "127.54.22.0/24",
	                                 .seed = 5,
	                                 .n = {4, 24, 96},
	                                 .slow_share = 0.1,
	                                 .dead_share = 0.02};
	struct serve fast, slow;
	test_pair_open(&cfg, &fast, &slow);
	static const char *const shapes[] = {
	    "www.d%d.com.",
	    "D%d.ExAmple.Co.Uk.",
	    "x%d.nic.com.",
	    "ns1.nic.de.",
	    "u%d.unknown-tld.",
	    "e%d.simcdn-0.net.",
	    "4.%d.2.1.in-addr.arpa.",
	    "ns%d.simdns-3.net.",
	    "a.root-servers.net.",
	    "nic.com.",
	    "www.nic%d.org.",
	    "WWW.ns1.NIC.nl.",
	    "d%d.com.",
	    "com.",
	    "x.y.z.d%d.info.",
	    "%d.",
	};
	static const uint16_t types[] = {LDNS_RR_TYPE_A, LDNS_RR_TYPE_NS, LDNS_RR_TYPE_MX,
	                                 LDNS_RR_TYPE_DS, LDNS_RR_TYPE_AAAA};
	char name[128];
	int n = 0;
	for (int i = 0; i < 300; i++) {
		for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
			snprintf(name, sizeof(name), shapes[k], i);
			struct zone_chain chain;
			char lower[128];
			test_lower(name, lower);
			zones_chain(&fast.world, lower, &chain);
			uint16_t type = types[(i + (int)k) % 5];
			bool edns = (i + (int)k) % 3 != 0;
			/* the root, every server of every zone on the way, and one that serves none
			 */
			test_compare(&fast, &slow, &test_plan.servers[i % 4], name, type, edns,
			             (uint16_t)n);
			for (int z = 0; z < chain.depth; z++)
				for (int s = 0; s < chain.zones[z].nns; s++)
					test_compare(&fast, &slow, chain.zones[z].ns[s], name, type,
					             edns, (uint16_t)n);
			test_compare(&fast, &slow, &test_plan.servers[(i * 7) % test_plan.count],
			             name, type, edns, (uint16_t)n);
			n++;
		}
	}
	uint64_t misses;
	uint64_t hits = test_pair_close(&fast, &slow, &misses);
	if (hits < 5000)
		fail_msg("templates served %llu replies, missed %llu", (unsigned long long)hits,
		         (unsigned long long)misses);
}

/* Leaf questions at the servers of the name's own zone: address answers, directly or through a
 * CNAME within the zone (TTLs, target labels and addresses patched into a template of the same
 * zone, count and label lengths), NODATA and NXDOMAIN, next to the shapes built in full (CNAMEs
 * leaving the zone, MX, TXT, SRV, a name server's address, names a SOA would compress). */
static void test_leaf_templated_equals_built(void **state)
{
	(void)state;
	struct server_plan_config cfg = {.block = "127.54.23.0/24", .seed = 7, .n = {4, 24, 96}};
	struct serve fast, slow;
	test_pair_open(&cfg, &fast, &slow);
	/* the last number picks one of five zones, so templates are shared; the first, when there
	 * are two, the leaf */
	static const char *const shapes[] = {
	    "x%d.d%d.com.",           "www.d%d.com.",
	    "mail.d%d.com.",          "d%d.com.",
	    "e%d.simcdn-%d.net.",     "a%d.g.simcdn-%d.net.",
	    "_dmarc.d%d.org.",        "s1._domainkey.d%d.net.",
	    "_sip._tcp.d%d.com.",     "Hostmaster.d%d.com.",
	    "x%d.hostmaster.d%d.de.", "ns1.d%d.com.",
	    "MX1.D%d.CoM.",           "api.v%d.d%d.co.uk.",
	    "img%d.shop%d.fr.",
	};
	static const uint16_t types[] = {LDNS_RR_TYPE_A,    LDNS_RR_TYPE_AAAA, LDNS_RR_TYPE_MX,
	                                 LDNS_RR_TYPE_TXT,  LDNS_RR_TYPE_A,    LDNS_RR_TYPE_SRV,
	                                 LDNS_RR_TYPE_AAAA, LDNS_RR_TYPE_SOA,  LDNS_RR_TYPE_CNAME};
	char name[128], lower[128];
	int asked = 0;
	for (int i = 0; i < 400; i++) {
		for (size_t k = 0; k < sizeof(shapes) / sizeof(shapes[0]); k++) {
			if (strchr(strchr(shapes[k], '%') + 1, '%'))
				snprintf(name, sizeof(name), shapes[k], i, i % 5);
			else
				snprintf(name, sizeof(name), shapes[k], i % 5);
			test_lower(name, lower);
			struct zone_chain chain;
			zones_chain(&fast.world, lower, &chain);
			const struct zone *z = &chain.zones[chain.depth - 1];
			uint16_t type = types[(size_t)i % (sizeof(types) / sizeof(types[0]))];
			bool edns = (i + (int)k) % 4 != 0;
			for (int s = 0; s < z->nns; s++) {
				test_compare(&fast, &slow, z->ns[s], name, type, edns,
				             (uint16_t)(asked * 31));
				asked++;
			}
		}
	}
	uint64_t misses;
	uint64_t hits = test_pair_close(&fast, &slow, &misses);
	/* most leaf questions are address answers, NODATA or NXDOMAIN */
	if (hits * 2 < (uint64_t)asked)
		fail_msg("templates served %llu of %d leaf replies", (unsigned long long)hits,
		         asked);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_templated_equals_built),
	    cmocka_unit_test(test_leaf_templated_equals_built),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
