/* tests/upstream/test_serve.c - the packet pipeline: malformed input is counted and dropped
 * (never a crash), a cached reply equals a freshly built one but for ID and letter case. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "serve.h"

static struct server_plan test_plan;

static void test_setup_serve(struct serve *sv, size_t cache_slots)
{
	struct server_plan_config cfg = {.block = "127.54.21.0/24", .seed = 5, .n = {4, 24, 96}};
	char err[256];
	servers_plan_free(&test_plan);
	assert_true(servers_plan_init(&test_plan, &cfg, err, sizeof(err)));
	struct netem_config nc = {.seed = 5, .window_s = 10}; /* no latency, no loss */
	memset(sv, 0, sizeof(*sv));
	sv->world = (struct world){.seed = 5, .plan = &test_plan};
	sv->netem = netem_new(&nc);
	sv->cache = replycache_new(cache_slots);
}

static void test_teardown_serve(struct serve *sv)
{
	netem_free(sv->netem);
	replycache_free(sv->cache);
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

static void test_malformed_never_crash(void **state)
{
	struct serve sv;
	test_setup_serve(&sv, 1024);
	const struct server *root = &test_plan.servers[0];
	uint8_t good[512], pkt[512];
	size_t good_len = test_query(good, 1, "www.example.com.", LDNS_RR_TYPE_A, true);
	srand(1);
	uint64_t answered = 0;
	for (int i = 0; i < 20000; i++) {
		size_t len;
		if (i % 2) { /* random bytes */
			len = (size_t)(rand() % 64);
			for (size_t k = 0; k < len; k++)
				pkt[k] = (uint8_t)rand();
		} else { /* a good query with a few bytes changed or cut */
			len = good_len - (size_t)(rand() % 4 == 0 ? rand() % (int)good_len : 0);
			memcpy(pkt, good, good_len);
			for (int k = 0; k < 3; k++)
				pkt[rand() % (int)good_len] = (uint8_t)rand();
		}
		uint8_t *wire = NULL;
		size_t wire_len;
		uint32_t delay;
		if (serve_packet(&sv, root, 0x7f000001, 5353, pkt, len, i % 3 == 0, 1.0, &wire,
		                 &wire_len, &delay)) {
			answered++;
			assert_true(wire_len >= 12);
			free(wire);
		}
	}
	assert_int_equal(sv.stats.total.queries, 20000);
	assert_int_equal(sv.stats.malformed + answered, 20000);
	assert_true(sv.stats.malformed > 10000);
	/* header-only and QR-set packets are malformed */
	good[2] |= 0x80;
	uint8_t *wire = NULL;
	size_t wire_len;
	uint32_t delay;
	uint64_t before = sv.stats.malformed;
	assert_false(
	    serve_packet(&sv, root, 1, 1, good, good_len, false, 1.0, &wire, &wire_len, &delay));
	assert_false(serve_packet(&sv, root, 1, 1, good, 11, false, 1.0, &wire, &wire_len, &delay));
	assert_int_equal(sv.stats.malformed, before + 2);
	test_teardown_serve(&sv);
}

static void test_cached_equals_built(void **state)
{
	struct serve cached, plain;
	test_setup_serve(&cached, 4096);
	struct server_plan keep = test_plan;
	test_plan = (struct server_plan){0};
	test_setup_serve(&plain, 0);
	cached.world.plan = &keep;
	static const char *const names[] = {"www.google.com.",     "WwW.GooGle.CoM.",
	                                    "wpad.lan.",           "com.",
	                                    "a.root-servers.net.", "big0.net."};
	uint8_t q[512];
	for (int round = 0; round < 3; round++) {
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			for (int s = 0; s < keep.count; s += 7) {
				size_t len = test_query(q, (uint16_t)(100 * round + i), names[i],
				                        i == 5 ? LDNS_RR_TYPE_TXT : LDNS_RR_TYPE_A,
				                        round != 1);
				uint8_t *a, *b;
				size_t la, lb;
				uint32_t d;
				assert_true(serve_packet(&cached, &keep.servers[s], 1, 1, q, len,
				                         false, 1.0 + round, &a, &la, &d));
				assert_true(serve_packet(&plain, &test_plan.servers[s], 1, 1, q,
				                         len, false, 1.0 + round, &b, &lb, &d));
				assert_int_equal(la, lb);
				assert_memory_equal(a, b, la);
				free(a);
				free(b);
			}
		}
	}
	uint64_t hits, misses;
	replycache_stats(cached.cache, &hits, &misses);
	assert_true(hits > 0);
	test_teardown_serve(&cached);
	test_teardown_serve(&plain);
	servers_plan_free(&keep);
}

static int test_teardown(void **state)
{
	servers_plan_free(&test_plan);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_malformed_never_crash),
	    cmocka_unit_test(test_cached_equals_built),
	};
	return cmocka_run_group_tests(tests, NULL, test_teardown);
}
