/* tests/resolver/test_iterator_steps.c - the iterator's steps with no socket: replies built with
 * ldns are fed in, and the step it returns (send to whom, spawn which lookup, done with which
 * rcode) and the answer it holds are checked. Referral with glue, glueless delegation, CNAME chains
 * inside a reply and across zones, NXDOMAIN and NODATA with their SOA, the negative TTL cap, lame
 * servers, the query budget, and server timing: the timeout a SEND step carries, the choice of the
 * faster server, held-down servers skipped, the request deadline shared with spawned lookups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <ldns/ldns.h>
#include <netinet/in.h>

#include "cache.h"
#include "dname.h"
#include "infra.h"
#include "iterator.h"
#include "resolver.h"
#include "resolver_test_util.h"

#define ROOT1 "198.51.100.1"
#define ROOT2 "198.51.100.2"

static struct resolver r;
static struct rmem mem;

static void add_root(const char *addr)
{
	struct resolver_addr *a = &r.cfg.roots[r.cfg.n_roots++];
	struct sockaddr_in *v4 = (struct sockaddr_in *)&a->sa;
	memset(a, 0, sizeof(*a));
	v4->sin_family = AF_INET;
	v4->sin_port = htons(53);
	inet_pton(AF_INET, addr, &v4->sin_addr);
	a->len = sizeof(*v4);
}

static int setup(void **state)
{
	static const uint8_t key[32] = {7};
	char err[256];
	memset(&r, 0, sizeof(r));
	resolver_config_defaults(&r.cfg);
	add_root(ROOT1);
	r.cache =
	    cache_create(1 << 20, r.cfg.max_ttl, r.cfg.max_negative_ttl, false, err, sizeof(err));
	chacha_rng_seed_key(&r.rng, key);
	r.infra = infra_create(64);
	return r.cache && r.infra && rmem_init(&mem, LAYOUT_HEAP) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	rmem_release(&mem);
	cache_destroy(r.cache);
	infra_destroy(r.infra);
	return 0;
}

/* A client's resolution of (name, type), not answered from the cache. */
static void start(struct iter_state *st, const char *name, uint16_t type)
{
	const uint8_t *n = N(name);
	iterator_init(st, &r, &mem, rmem_memdup(&mem, n, dname_len(n)), type, 0, ITER_MAX_QUERIES);
	int rcode = -1;
	assert_false(iterator_from_cache(st, &rcode));
}

/* A reply from a server to the question of the last SEND step, its records given as
 * "an:", "ns:" or "ar:" followed by a zone-file line; NULL ends the list. The driver's part is
 * done here: the query is counted as sent, the packet goes through ldns to wire and back through
 * the resolver's parser, and the iterator's next step is returned. */
static struct iter_step reply(struct iter_state *st, const struct iter_step *asked, int rcode,
                              int aa, ...)
{
	assert_int_equal(asked->kind, ITER_STEP_SEND);
	iterator_count_query(st);
	ldns_rdf *qname =
	    ldns_rdf_new_frm_data(LDNS_RDF_TYPE_DNAME, dname_len(asked->name), asked->name);
	ldns_pkt *p = ldns_pkt_query_new(qname, asked->type, LDNS_RR_CLASS_IN, 0);
	ldns_pkt_set_qr(p, true);
	ldns_pkt_set_aa(p, aa != 0);
	ldns_pkt_set_rcode(p, (uint8_t)rcode);
	va_list ap;
	va_start(ap, aa);
	for (const char *rr_text; (rr_text = va_arg(ap, const char *));) {
		ldns_pkt_section section = LDNS_SECTION_ADDITIONAL;
		if (strncmp(rr_text, "an:", 3) == 0)
			section = LDNS_SECTION_ANSWER;
		else if (strncmp(rr_text, "ns:", 3) == 0)
			section = LDNS_SECTION_AUTHORITY;
		ldns_rr *rr = NULL;
		assert_int_equal(ldns_rr_new_frm_str(&rr, rr_text + 3, 0, NULL, NULL),
		                 LDNS_STATUS_OK);
		ldns_pkt_push_rr(p, section, rr);
	}
	va_end(ap);
	uint8_t *wire = NULL;
	size_t len = 0;
	assert_int_equal(ldns_pkt2wire(&wire, p, &len), LDNS_STATUS_OK);
	ldns_pkt_free(p);
	struct msg m;
	void *ldns = NULL;
	assert_int_equal(msg_parse_layout(wire, len, &mem, &m, &ldns), 0);
	struct iter_step next = iterator_on_reply(st, &m, ldns);
	free(wire);
	return next;
}

static void assert_send(const struct iter_step *step, const char *addr, const char *name,
                        uint16_t type)
{
	assert_int_equal(step->kind, ITER_STEP_SEND);
	const struct sockaddr_in *to = (const struct sockaddr_in *)step->server;
	char text[INET_ADDRSTRLEN];
	inet_ntop(AF_INET, &to->sin_addr, text, sizeof(text));
	assert_string_equal(text, addr);
	assert_int_equal(ntohs(to->sin_port), 53);
	assert_true(dname_equal(step->name, N(name)));
	assert_int_equal(step->type, type);
}

static void assert_done(const struct iter_step *step, int rcode)
{
	assert_int_equal(step->kind, ITER_STEP_DONE);
	assert_int_equal(step->rcode, rcode);
}

static void assert_answer(const struct iter_state *st, int i, const char *owner, uint16_t type)
{
	assert_true(i < st->n_answer);
	assert_true(dname_equal(st->answer[i].owner, N(owner)));
	assert_int_equal(st->answer[i].type, type);
}

#define REFERRAL_EXAMPLE "ns:example.test. 3600 IN NS ns1.example.test."
#define GLUE_EXAMPLE "ar:ns1.example.test. 3600 IN A 192.0.2.1"

static void test_referral_with_glue(void **state)
{
	struct iter_state st;
	start(&st, "www.example.test.", TYPE_A);
	struct iter_step step = iterator_next(&st);
	assert_send(&step, ROOT1, "www.example.test.", TYPE_A);
	step = reply(&st, &step, RCODE_NOERROR, false, REFERRAL_EXAMPLE, GLUE_EXAMPLE, NULL);
	assert_send(&step, "192.0.2.1", "www.example.test.", TYPE_A);
	step = reply(&st, &step, RCODE_NOERROR, true, "an:www.example.test. 300 IN A 192.0.2.80",
	             NULL);
	assert_done(&step, RCODE_NOERROR);
	assert_int_equal(st.n_answer, 1);
	assert_answer(&st, 0, "www.example.test.", TYPE_A);
	assert_int_equal(st.answer[0].ttl, 300);
	assert_false(st.has_soa);
	assert_int_equal(st.queries, 2);

	/* The answer is cached; a name beside it starts at the cached zone cut, not the root. */
	struct iter_state again;
	iterator_init(&again, &r, &mem, N("www.example.test."), TYPE_A, 0, ITER_MAX_QUERIES);
	int rcode = -1;
	assert_true(iterator_from_cache(&again, &rcode));
	assert_int_equal(rcode, RCODE_NOERROR);
	assert_int_equal(again.n_answer, 1);
	struct iter_state beside;
	start(&beside, "mail.example.test.", TYPE_A);
	step = iterator_next(&beside);
	assert_send(&step, "192.0.2.1", "mail.example.test.", TYPE_A);
}

/* A delegation without glue: the name server's address is looked up in a sub-request (here run
 * by hand as the driver would), then the parent asks it, the sub-request's queries on its bill. */
static void test_glueless(void **state)
{
	struct iter_state st;
	start(&st, "www.example.test.", TYPE_A);
	struct iter_step step = iterator_next(&st);
	step = reply(&st, &step, RCODE_NOERROR, false,
	             "ns:example.test. 3600 IN NS ns.hosting.test.", NULL);
	assert_int_equal(step.kind, ITER_STEP_SPAWN);
	assert_true(dname_equal(step.name, N("ns.hosting.test.")));
	assert_int_equal(step.type, TYPE_A);

	struct iter_state sub;
	iterator_init(&sub, &r, &mem, step.name, step.type, st.depth + 1,
	              iterator_budget_left(&st));
	int rcode = -1;
	assert_false(iterator_from_cache(&sub, &rcode));
	assert_int_equal(sub.budget, ITER_MAX_QUERIES - 1);
	struct iter_step sub_step = iterator_next(&sub);
	assert_send(&sub_step, ROOT1, "ns.hosting.test.", TYPE_A);
	sub_step = reply(&sub, &sub_step, RCODE_NOERROR, true,
	                 "an:ns.hosting.test. 3600 IN A 192.0.2.53", NULL);
	assert_done(&sub_step, RCODE_NOERROR);

	iterator_add_queries(&st, sub.queries);
	step = iterator_on_subrequest(&st);
	assert_send(&step, "192.0.2.53", "www.example.test.", TYPE_A);
	assert_int_equal(st.queries, 2);
	step = reply(&st, &step, RCODE_NOERROR, true, "an:www.example.test. 300 IN A 192.0.2.80",
	             NULL);
	assert_done(&step, RCODE_NOERROR);
	assert_int_equal(st.n_answer, 1);
}

/* NXNS (CVE-2020-12662): a referral naming many glueless servers starts ITER_MAX_GLUELESS
 * lookups at most; a server named inside its own zone without glue is not looked up at all. */
static void test_glueless_bounded(void **state)
{
	struct iter_state st;
	start(&st, "www.example.test.", TYPE_A);
	struct iter_step step = iterator_next(&st);
	step = reply(&st, &step, RCODE_NOERROR, false, "ns:example.test. 3600 IN NS a.other.test.",
	             "ns:example.test. 3600 IN NS b.other.test.",
	             "ns:example.test. 3600 IN NS c.other.test.",
	             "ns:example.test. 3600 IN NS d.other.test.",
	             "ns:example.test. 3600 IN NS e.other.test.",
	             "ns:example.test. 3600 IN NS ns1.example.test.", NULL);
	int spawned = 0;
	while (step.kind == ITER_STEP_SPAWN) {
		assert_false(dname_equal(step.name, N("ns1.example.test.")));
		spawned++;
		step = iterator_on_spawn_failed(&st);
	}
	assert_int_equal(spawned, ITER_MAX_GLUELESS);
	assert_done(&step, RCODE_SERVFAIL);
}

static void test_cname_chain_in_reply(void **state)
{
	struct iter_state st;
	start(&st, "www.example.test.", TYPE_A);
	struct iter_step step = iterator_next(&st);
	step = reply(&st, &step, RCODE_NOERROR, true,
	             "an:www.example.test. 300 IN CNAME alias.example.test.",
	             "an:alias.example.test. 300 IN A 192.0.2.7", NULL);
	assert_done(&step, RCODE_NOERROR);
	assert_int_equal(st.n_answer, 2);
	assert_answer(&st, 0, "www.example.test.", TYPE_CNAME);
	assert_answer(&st, 1, "alias.example.test.", TYPE_A);
}

/* A CNAME leaving the server's zone: resolution restarts at the target, from the root (no cut
 * for other.test. is cached), and the answer holds the CNAME and the target's records. */
static void test_cname_restart(void **state)
{
	struct iter_state st;
	start(&st, "www.example.test.", TYPE_A);
	struct iter_step step = iterator_next(&st);
	step = reply(&st, &step, RCODE_NOERROR, false, REFERRAL_EXAMPLE, GLUE_EXAMPLE, NULL);
	assert_send(&step, "192.0.2.1", "www.example.test.", TYPE_A);
	/* the out-of-zone A record rides along but is not believed */
	step = reply(&st, &step, RCODE_NOERROR, true,
	             "an:www.example.test. 300 IN CNAME www.other.test.",
	             "an:www.other.test. 300 IN A 203.0.113.66", NULL);
	assert_send(&step, ROOT1, "www.other.test.", TYPE_A);
	assert_int_equal(st.n_answer, 1);
	step =
	    reply(&st, &step, RCODE_NOERROR, true, "an:www.other.test. 300 IN A 192.0.2.9", NULL);
	assert_done(&step, RCODE_NOERROR);
	assert_int_equal(st.n_answer, 2);
	assert_answer(&st, 0, "www.example.test.", TYPE_CNAME);
	assert_answer(&st, 1, "www.other.test.", TYPE_A);
	assert_memory_equal(st.answer[1].rdata, "\xc0\x00\x02\x09", 4);
}

#define SOA_TEST "ns:test. 3600 IN SOA ns.test. admin.test. 1 7200 900 1209600 300"

static void test_nxdomain(void **state)
{
	struct iter_state st;
	start(&st, "nope.test.", TYPE_A);
	struct iter_step step = iterator_next(&st);
	step = reply(&st, &step, RCODE_NXDOMAIN, true, SOA_TEST, NULL);
	assert_done(&step, RCODE_NXDOMAIN);
	assert_int_equal(st.n_answer, 0);
	assert_true(st.has_soa);
	assert_true(dname_equal(st.soa.owner, N("test.")));
	assert_int_equal(st.soa.ttl, 300); /* min(TTL, MINIMUM): RFC 2308 */

	/* cached for the name, whatever the type */
	struct iter_state again;
	iterator_init(&again, &r, &mem, N("nope.test."), TYPE_AAAA, 0, ITER_MAX_QUERIES);
	int rcode = -1;
	assert_true(iterator_from_cache(&again, &rcode));
	assert_int_equal(rcode, RCODE_NXDOMAIN);
	assert_true(again.has_soa);
}

static void test_nodata(void **state)
{
	struct iter_state st;
	start(&st, "www.test.", TYPE_AAAA);
	struct iter_step step = iterator_next(&st);
	step = reply(&st, &step, RCODE_NOERROR, true, SOA_TEST, NULL);
	assert_done(&step, RCODE_NOERROR);
	assert_int_equal(st.n_answer, 0);
	assert_true(st.has_soa);

	/* cached for that type only */
	struct iter_state again;
	iterator_init(&again, &r, &mem, N("www.test."), TYPE_AAAA, 0, ITER_MAX_QUERIES);
	int rcode = -1;
	assert_true(iterator_from_cache(&again, &rcode));
	assert_int_equal(rcode, RCODE_NOERROR);
	assert_int_equal(again.n_answer, 0);
	assert_true(again.has_soa);
	start(&again, "www.test.", TYPE_A);
}

/* --max-negative-ttl caps the SOA's TTL a client sees, fresh or from the cache. */
static void test_negative_ttl_cap(void **state)
{
	r.cfg.max_negative_ttl = 60;
	struct iter_state st;
	start(&st, "nope.test.", TYPE_A);
	struct iter_step step = iterator_next(&st);
	step = reply(&st, &step, RCODE_NXDOMAIN, true, SOA_TEST, NULL);
	assert_done(&step, RCODE_NXDOMAIN);
	assert_int_equal(st.soa.ttl, 60);
	struct iter_state again;
	iterator_init(&again, &r, &mem, N("nope.test."), TYPE_A, 0, ITER_MAX_QUERIES);
	int rcode = -1;
	assert_true(iterator_from_cache(&again, &rcode));
	assert_true(again.soa.ttl <= 60);
}

/* A lame reply marks the server; the other root is asked next, then there is nobody left. */
static void test_lame_then_other_server(void **state)
{
	add_root(ROOT2);
	struct iter_state st;
	start(&st, "www.example.test.", TYPE_A);
	struct iter_step first = iterator_next(&st);
	assert_int_equal(first.kind, ITER_STEP_SEND);
	const char *other =
	    ((const struct sockaddr_in *)first.server)->sin_addr.s_addr == inet_addr(ROOT1) ? ROOT2
	                                                                                    : ROOT1;
	struct iter_step step = reply(&st, &first, RCODE_REFUSED, false, NULL);
	assert_send(&step, other, "www.example.test.", TYPE_A);
	step = iterator_on_send_failed(&st);
	assert_done(&step, RCODE_SERVFAIL);
}

/* A timeout asks again (the same server may get its second try); past the budget: SERVFAIL. */
static void test_budget(void **state)
{
	struct iter_state st;
	const uint8_t *n = N("www.example.test.");
	iterator_init(&st, &r, &mem, n, TYPE_A, 0, 2);
	struct iter_step step = iterator_next(&st);
	assert_send(&step, ROOT1, "www.example.test.", TYPE_A);
	iterator_count_query(&st);
	step = iterator_on_timeout(&st);
	assert_send(&step, ROOT1, "www.example.test.", TYPE_A);
	iterator_count_query(&st);
	assert_int_equal(iterator_budget_left(&st), 0);
	step = iterator_on_timeout(&st);
	assert_done(&step, RCODE_SERVFAIL);
}

static struct sockaddr_in root_addr(const char *addr)
{
	struct sockaddr_in v4 = {.sin_family = AF_INET, .sin_port = htons(53)};
	inet_pton(AF_INET, addr, &v4.sin_addr);
	return v4;
}

static bool sent_to(const struct iter_step *step, const char *addr)
{
	return step->kind == ITER_STEP_SEND &&
	       ((const struct sockaddr_in *)step->server)->sin_addr.s_addr == inet_addr(addr);
}

/* An unknown server gets infra's first timeout, shortened to --upstream-timeout-ms when that is
 * lower (a real limit: not marked capped). */
static void test_send_carries_timeout(void **state)
{
	struct iter_state st;
	start(&st, "www.example.test.", TYPE_A);
	struct iter_step step = iterator_next(&st);
	assert_send(&step, ROOT1, "www.example.test.", TYPE_A);
	assert_int_equal(step.choice.timeout_ms, INFRA_INITIAL_TIMEOUT_MS);
	r.cfg.upstream_timeout_ms = 100;
	start(&st, "www.example.test.", TYPE_A);
	step = iterator_next(&st);
	assert_int_equal(step.choice.timeout_ms, 100);
	assert_false(step.choice.capped);
}

/* With both roots measured, the faster one is asked, except for the rare exploration. */
static void test_prefers_fast_server(void **state)
{
	add_root(ROOT2);
	struct sockaddr_in slow = root_addr(ROOT1), fast = root_addr(ROOT2);
	uint64_t now = resolver_now_ms();
	infra_report_reply(r.infra, (struct sockaddr *)&slow, sizeof(slow), 300, now);
	infra_report_reply(r.infra, (struct sockaddr *)&fast, sizeof(fast), 10, now);
	int to_fast = 0;
	for (int i = 0; i < 40; i++) {
		struct iter_state st;
		start(&st, "www.example.test.", TYPE_A);
		struct iter_step step = iterator_next(&st);
		to_fast += sent_to(&step, ROOT2);
		if (sent_to(&step, ROOT2))
			assert_int_equal(step.choice.timeout_ms, 50); /* srtt + 4 rttvar, floored */
	}
	assert_true(to_fast >= 32);
}

/* A server with INFRA_DEAD_TIMEOUTS timeouts in a row is held down: with no other server and no
 * glueless name left, the request fails at once instead of waiting for it. */
static void test_held_down_server_skipped(void **state)
{
	struct sockaddr_in dead = root_addr(ROOT1);
	uint64_t now = resolver_now_ms();
	struct infra_choice used = {.timeout_ms = INFRA_INITIAL_TIMEOUT_MS};
	for (int k = INFRA_DEAD_TIMEOUTS - 1; k >= 0; k--)
		infra_report_timeout(r.infra, (struct sockaddr *)&dead, sizeof(dead), &used,
		                     now - (uint64_t)k * 20000);
	struct iter_state st;
	start(&st, "www.example.test.", TYPE_A);
	struct iter_step step = iterator_next(&st);
	assert_done(&step, RCODE_SERVFAIL);
}

/* A spawned lookup takes its parent's deadline: near its end the query's wait is clamped to what
 * is left (and marked capped, so its timeout is not held against the server); once it is spent
 * the next step is SERVFAIL. */
static void test_deadline_shared(void **state)
{
	struct iter_state parent, sub;
	start(&parent, "www.example.test.", TYPE_A);
	infra_deadline_start(&parent.deadline, resolver_now_ms(), 60);
	start(&sub, "ns.example.test.", TYPE_A);
	iterator_share_deadline(&sub, &parent);
	struct iter_step step = iterator_next(&sub);
	assert_int_equal(step.kind, ITER_STEP_SEND);
	assert_true(step.choice.timeout_ms <= 60);
	assert_true(step.choice.capped);
	infra_deadline_start(&parent.deadline, resolver_now_ms() - 10, 0);
	start(&sub, "ns.example.test.", TYPE_A);
	iterator_share_deadline(&sub, &parent);
	step = iterator_next(&sub);
	assert_done(&step, RCODE_SERVFAIL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_referral_with_glue, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_glueless, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_glueless_bounded, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cname_chain_in_reply, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cname_restart, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_nxdomain, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_nodata, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_negative_ttl_cap, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_lame_then_other_server, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_budget, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_send_carries_timeout, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_prefers_fast_server, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_held_down_server_skipped, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_deadline_shared, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
