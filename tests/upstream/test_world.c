/* tests/upstream/test_world.c - the --world presets: the same seed gives the same world, the
 * per-server RTTs and the broken-delegation shares match docs/upstream.md within stated
 * tolerances, the jitter keeps a server's median, a lame server answers REFUSED, lan is today's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "preset.h"

/* A plan of the preset name with n servers per tier; lan's flags are main.c's defaults. */
static void test_plan(struct server_plan *plan, const char *name, uint64_t seed, int nt, int ns,
                      struct netem_config *ncfg)
{
	struct server_plan_config pcfg = {.block = "127.54.0.0/16",
	                                  .seed = seed,
	                                  .n = {4, nt, ns},
	                                  .slow_share = 0.1,
	                                  .dead_share = 0.02};
	struct netem_config n = {.seed = seed, .latency = true, .slow_factor = 4, .window_s = 10};
	double loss = 0.02;
	const struct preset *p = preset_find(name);
	assert_non_null(p);
	preset_apply(p, &pcfg, &n, &loss);
	char err[256];
	assert_true(servers_plan_init(plan, &pcfg, err, sizeof(err)));
	if (ncfg)
		*ncfg = n;
}

static int test_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The q-quantile of the tier's base RTTs. */
static double test_tier_quantile(const struct server_plan *plan, enum tier t, double q)
{
	double *v = malloc((size_t)plan->n[t] * sizeof(*v));
	assert_non_null(v);
	for (int i = 0; i < plan->n[t]; i++)
		v[i] = plan->servers[plan->first[t] + i].rtt_ms;
	qsort(v, (size_t)plan->n[t], sizeof(*v), test_cmp_double);
	double r = v[(int)(q * (plan->n[t] - 1))];
	free(v);
	return r;
}

static void test_same_seed_same_world(void **state)
{
	struct server_plan a, b, c;
	test_plan(&a, "internet", 5, 24, 96, NULL);
	test_plan(&b, "internet", 5, 24, 96, NULL);
	test_plan(&c, "internet", 6, 24, 96, NULL);
	int differ = 0;
	for (int i = 0; i < a.count; i++) {
		assert_true(a.servers[i].rtt_ms == b.servers[i].rtt_ms);
		assert_int_equal(a.servers[i].slow, b.servers[i].slow);
		assert_int_equal(a.servers[i].dead, b.servers[i].dead);
		differ += a.servers[i].rtt_ms != c.servers[i].rtt_ms;
	}
	assert_true(differ > a.count / 2);
	struct world wa = {.seed = 5, .plan = &a}, wb = {.seed = 5, .plan = &b};
	struct delegation_count ca, cb;
	preset_count_delegations(&wa, 5000, &ca);
	preset_count_delegations(&wb, 5000, &cb);
	assert_memory_equal(&ca, &cb, sizeof(ca));
	servers_plan_free(&a);
	servers_plan_free(&b);
	servers_plan_free(&c);
}

/* The documented quantiles of the registered domains' servers (SolveDNS 2012) within 10%, from
 * 16,000 servers; the slow share (3%) within 0.5 points; the root and registry medians within
 * 15% (26 and 4,000 servers). */
static void test_rtt_distribution(void **state)
{
	struct server_plan plan;
	struct server_plan_config pcfg = {
	    .block = "127.0.0.0/8", .seed = 3, .n = {26, 4000, 16000}};
	struct netem_config n = {0};
	double loss;
	preset_apply(preset_find("internet"), &pcfg, &n, &loss);
	char err[256];
	assert_true(servers_plan_init(&plan, &pcfg, err, sizeof(err)));
	static const double q[][2] = {
	    {0.10, 30}, {0.50, 87}, {0.75, 171}, {0.90, 216}, {0.97, 500}};
	for (size_t i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		double got = test_tier_quantile(&plan, TIER_SLD, q[i][0]);
		if (fabs(got / q[i][1] - 1) > 0.10)
			fail_msg("sld p%.0f: %.1f ms, documented %.0f", q[i][0] * 100, got,
			         q[i][1]);
	}
	int slow = 0;
	for (int i = plan.first[TIER_SLD]; i < plan.count; i++) {
		slow += plan.servers[i].slow;
		assert_true(plan.servers[i].slow == (plan.servers[i].rtt_ms >= 500));
	}
	assert_true(fabs((double)slow / plan.n[TIER_SLD] - 0.03) < 0.005);
	assert_true(fabs(test_tier_quantile(&plan, TIER_TLD, 0.5) / 40 - 1) < 0.15);
	assert_true(fabs(test_tier_quantile(&plan, TIER_ROOT, 0.5) / 28 - 1) < 0.35);
	servers_plan_free(&plan);
}

/* Broken delegations of 40,000 names (about 38,800 registered): each share within 0.4 points of
 * the preset (the binomial standard error is at most 0.14 points). */
static void test_delegation_shares(void **state)
{
	static const char *const names[] = {"internet", "hostile"};
	for (int i = 0; i < 2; i++) {
		struct server_plan plan;
		test_plan(&plan, names[i], 11, 24, 96, NULL);
		struct world w = {.seed = 11, .plan = &plan};
		struct delegation_count c;
		preset_count_delegations(&w, 40000, &c);
		const struct delegation_faults *f = &preset_find(names[i])->faults;
		double got[4] = {(double)c.all_dead / c.total, (double)c.one_dead / c.total,
		                 (double)c.all_lame / c.total, (double)c.one_lame / c.total};
		double want[4] = {f->all_dead, f->one_dead, f->all_lame, f->one_lame};
		for (int k = 0; k < 4; k++)
			if (fabs(got[k] - want[k]) > 0.004)
				fail_msg("%s share %d: %.4f, documented %.4f", names[i], k, got[k],
				         want[k]);
		servers_plan_free(&plan);
	}
}

/* A server's delays: median its base RTT (within 5%), 99th percentile the jitter's (within 15%)
 * over the non-late queries, late share 0.33% within 0.2 points, from 20,000 questions. */
static void test_jitter(void **state)
{
	struct netem_config n;
	struct server_plan plan;
	test_plan(&plan, "internet", 2, 24, 96, &n);
	n.loss = false;
	struct server s = {.index = 40, .tier = TIER_SLD, .rtt_ms = 100};
	enum { N = 20000 };
	static double d[N];
	int late = 0, m = 0;
	char name[64];
	for (int i = 0; i < N; i++) {
		struct netem_verdict v;
		snprintf(name, sizeof(name), "h%d.example.com.", i);
		netem_treatment(&n, &s, name, 1, 1, &v);
		if (v.delay_ms >= 500)
			late++;
		else
			d[m++] = v.delay_ms;
	}
	qsort(d, (size_t)m, sizeof(*d), test_cmp_double);
	assert_true(fabs(d[m / 2] / 100 - 1) < 0.05);
	assert_true(fabs(d[(int)(m * 0.99)] / 150 - 1) < 0.15);
	assert_true(fabs((double)late / N - 0.0033) < 0.002);
	servers_plan_free(&plan);
}

/* A lame server answers REFUSED for the domain; its live, not lame, peer answers with authority. */
static void test_lame_refuses(void **state)
{
	struct server_plan plan;
	test_plan(&plan, "internet", 11, 24, 96, NULL);
	struct world w = {.seed = 11, .plan = &plan};
	char name[64];
	int checked = 0;
	for (int i = 0; i < 4000 && checked < 20; i++) {
		snprintf(name, sizeof(name), "d%d.com.", i);
		struct zone_chain chain;
		zones_chain(&w, name, &chain);
		const struct zone *z = &chain.zones[chain.depth - 1];
		if (!chain.exists || !z->lame || z->lame == (1u << z->nns) - 1)
			continue;
		for (int k = 0; k < z->nns; k++) {
			ldns_rr *question = NULL;
			char text[128];
			snprintf(text, sizeof(text), "%s IN SOA", name);
			assert_int_equal(ldns_rr_new_question_frm_str(&question, text, NULL, NULL),
			                 LDNS_STATUS_OK);
			struct answer_query q = {.question = question,
			                         .qname = name,
			                         .qtype = LDNS_RR_TYPE_SOA,
			                         .qclass = LDNS_RR_CLASS_IN};
			enum answer_kind kind;
			ldns_pkt *p = answer_build(&w, z->ns[k], &q, &kind);
			assert_non_null(p);
			bool lame = z->lame >> k & 1;
			assert_int_equal(ldns_pkt_get_rcode(p),
			                 lame ? LDNS_RCODE_REFUSED : LDNS_RCODE_NOERROR);
			assert_int_equal(ldns_pkt_aa(p), !lame);
			ldns_pkt_free(p);
			ldns_rr_free(question);
		}
		checked++;
	}
	assert_int_equal(checked, 20);
	servers_plan_free(&plan);
}

/* lan changes nothing: no base RTT, no broken delegation beyond today's dead servers. */
static void test_lan_is_today(void **state)
{
	struct server_plan lan;
	struct netem_config n;
	test_plan(&lan, "lan", 1, 24, 96, &n);
	assert_false(lan.faults_on);
	assert_true(n.jitter_p99 == 0 && n.late_share == 0 && n.slow_factor == 4);
	int dead = 0;
	for (int i = 0; i < lan.count; i++) {
		assert_true(lan.servers[i].rtt_ms == 0);
		dead += lan.servers[i].dead;
	}
	assert_true(dead < 10);
	servers_plan_free(&lan);
	assert_null(preset_find("moon"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_same_seed_same_world), cmocka_unit_test(test_rtt_distribution),
	    cmocka_unit_test(test_delegation_shares),    cmocka_unit_test(test_jitter),
	    cmocka_unit_test(test_lame_refuses),         cmocka_unit_test(test_lan_is_today),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
