/* tests/resolver/test_cache.c - the RRset cache in both stores: TTL countdown and expiry, TTL cap,
 * negative entries, ranks, LRU eviction under the byte cap, the background sweep. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "cache.h"
#include "dname.h"
#include "resolver_test_util.h"

#define TYPE_TXT_TEST 16

static const uint8_t addr1[4] = {192, 0, 2, 1}, addr2[4] = {192, 0, 2, 2};

static int setup_heap(void **state)
{
	char err[256];
	*state = cache_create(1 << 20, 86400, 3600, false, err, sizeof(err));
	return *state ? 0 : -1;
}

static int setup_file(void **state)
{
	char err[256];
	*state = cache_create(1 << 20, 86400, 3600, true, err, sizeof(err));
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	cache_destroy(*state);
	return 0;
}

static void put_a(struct cache *c, uint32_t now, const char *owner, uint32_t ttl, uint8_t rank)
{
	struct msg_rr a = RR(owner, TYPE_A, ttl, addr1, 4),
	              b = RR(owner, TYPE_A, ttl + 5, addr2, 4);
	const struct msg_rr *rrs[2] = {&a, &b};
	assert_int_equal(cache_put_rrset(c, now, N(owner), TYPE_A, rank, rrs, 2), 1);
}

static void test_ttl_countdown_and_expiry(void **state)
{
	struct cache *c = *state;
	put_a(c, 1000, "www.example.", 300, RANK_AUTH);
	struct cache_entry *e = cache_get(c, 1000, N("WWW.Example."), TYPE_A);
	assert_non_null(e);
	assert_int_equal(e->count, 2);
	assert_int_equal(cache_entry_ttl(e, 1000), 300); /* the smallest TTL of the set */
	assert_int_equal(cache_entry_ttl(cache_get(c, 1100, N("www.example."), TYPE_A), 1100), 200);
	size_t cursor = 0;
	const uint8_t *rdata;
	uint16_t rdlen;
	assert_true(cache_entry_next(e, &cursor, &rdata, &rdlen));
	assert_int_equal(rdlen, 4);
	assert_memory_equal(rdata, addr1, 4);
	assert_true(cache_entry_next(e, &cursor, &rdata, &rdlen));
	assert_memory_equal(rdata, addr2, 4);
	assert_false(cache_entry_next(e, &cursor, &rdata, &rdlen));
	assert_null(cache_get(c, 1000, N("www.example."), TYPE_AAAA));
	assert_int_equal(cache_entries(c), 1);
	assert_null(cache_get(c, 1300, N("www.example."), TYPE_A));
	assert_int_equal(cache_entries(c), 0);
	assert_int_equal(cache_bytes(c), 0);
}

static void test_ttl_cap_and_zero(void **state)
{
	char err[256];
	struct cache *c = cache_create(1 << 20, 60, 3600, false, err, sizeof(err));
	put_a(c, 10, "capped.example.", 100000, RANK_AUTH);
	assert_int_equal(cache_entry_ttl(cache_get(c, 10, N("capped.example."), TYPE_A), 10), 60);
	struct msg_rr z = RR("zero.example.", TYPE_A, 0, addr1, 4);
	const struct msg_rr *rrs[1] = {&z};
	assert_int_equal(cache_put_rrset(c, 10, N("zero.example."), TYPE_A, RANK_AUTH, rrs, 1), 0);
	assert_null(cache_get(c, 10, N("zero.example."), TYPE_A));
	cache_destroy(c);
}

static uint8_t soa_rdata[64];
static uint16_t soa_len;

static struct msg_rr make_soa(uint32_t ttl, uint32_t minimum)
{
	const uint8_t *mname = N("ns1.example."), *rname = N("admin.example.");
	size_t o = 0;
	memcpy(soa_rdata, mname, dname_len(mname));
	o += dname_len(mname);
	memcpy(soa_rdata + o, rname, dname_len(rname));
	o += dname_len(rname);
	uint32_t fields[5] = {1, 7200, 900, 1209600, minimum};
	for (int i = 0; i < 5; i++) {
		soa_rdata[o++] = (uint8_t)(fields[i] >> 24);
		soa_rdata[o++] = (uint8_t)(fields[i] >> 16);
		soa_rdata[o++] = (uint8_t)(fields[i] >> 8);
		soa_rdata[o++] = (uint8_t)fields[i];
	}
	soa_len = (uint16_t)o;
	return RR("example.", TYPE_SOA, ttl, soa_rdata, soa_len);
}

static void test_negative(void **state)
{
	struct cache *c = *state;
	struct msg_rr soa = make_soa(3600, 120);
	assert_int_equal(msg_soa_minimum(soa.rdata, soa.rdlen), 120);
	assert_int_equal(cache_put_negative(c, 0, N("nx.example."), TYPE_A, CACHE_NXDOMAIN, &soa),
	                 1);
	/* NXDOMAIN is stored for the name, whatever type was asked */
	assert_null(cache_get(c, 0, N("nx.example."), TYPE_A));
	struct cache_entry *e = cache_get(c, 0, N("nx.example."), CACHE_TYPE_NXDOMAIN);
	assert_non_null(e);
	assert_int_equal(e->kind, CACHE_NXDOMAIN);
	assert_int_equal(cache_entry_ttl(e, 0), 120); /* min(SOA TTL, MINIMUM), RFC 2308 §5 */
	const uint8_t *owner, *rdata;
	uint16_t rdlen;
	cache_entry_soa(e, &owner, &rdata, &rdlen);
	assert_true(dname_equal(owner, N("example.")));
	assert_int_equal(rdlen, soa_len);
	assert_memory_equal(rdata, soa_rdata, soa_len);

	soa = make_soa(30, 120);
	assert_int_equal(cache_put_negative(c, 0, N("www.example."), TYPE_MX, CACHE_NODATA, &soa),
	                 1);
	e = cache_get(c, 0, N("www.example."), TYPE_MX);
	assert_non_null(e);
	assert_int_equal(e->kind, CACHE_NODATA);
	assert_int_equal(cache_entry_ttl(e, 0), 30);
	assert_null(cache_get(c, 31, N("www.example."), TYPE_MX));
}

static void test_rank(void **state)
{
	struct cache *c = *state;
	put_a(c, 0, "ns1.example.", 300, RANK_AUTH);
	struct msg_rr g = RR("ns1.example.", TYPE_A, 3600, addr2, 4);
	const struct msg_rr *rrs[1] = {&g};
	/* glue never replaces live authoritative data */
	assert_int_equal(cache_put_rrset(c, 0, N("ns1.example."), TYPE_A, RANK_GLUE, rrs, 1), 0);
	assert_int_equal(cache_get(c, 0, N("ns1.example."), TYPE_A)->count, 2);
	/* but does once it expired */
	assert_int_equal(cache_put_rrset(c, 400, N("ns1.example."), TYPE_A, RANK_GLUE, rrs, 1), 1);
	assert_int_equal(cache_get(c, 400, N("ns1.example."), TYPE_A)->rank, RANK_GLUE);
	/* and authoritative data replaces glue at once */
	put_a(c, 400, "ns1.example.", 300, RANK_AUTH);
	assert_int_equal(cache_get(c, 400, N("ns1.example."), TYPE_A)->rank, RANK_AUTH);
	assert_int_equal(cache_entries(c), 1);
}

static void run_lru(bool in_file)
{
	char err[256];
	size_t cap = 16 * 1024;
	struct cache *c = cache_create(cap, 86400, 3600, in_file, err, sizeof(err));
	assert_non_null(c);
	char name[64];
	for (int i = 0; i < 2000; i++) {
		snprintf(name, sizeof(name), "host%d.example.", i);
		put_a(c, 0, name, 300, RANK_AUTH);
		assert_true(cache_bytes(c) <= cap);
		/* host0 is used all the time, so it is never the least recently used */
		assert_non_null(cache_get(c, 0, N("host0.example."), TYPE_A));
	}
	assert_true(cache_entries(c) > 20);
	assert_true(cache_entries(c) < 2000);
	assert_null(cache_get(c, 0, N("host1.example."), TYPE_A));
	assert_non_null(cache_get(c, 0, N("host1999.example."), TYPE_A));
	cache_destroy(c);
}

static void test_lru_heap(void **state)
{
	run_lru(false);
}

static void test_lru_file(void **state)
{
	run_lru(true);
}

/* The file is carved into size classes; when the mix of sizes shifts, new entries must still get
 * in (by evicting entries of their own class), the cap must hold. */
static void test_file_size_shift(void **state)
{
	char err[256];
	size_t cap = 4u << 20;
	struct cache *c = cache_create(cap, 86400, 3600, true, err, sizeof(err));
	assert_non_null(c);
	static uint8_t rdata[200];
	char name[64];
	for (int phase = 0; phase < 3; phase++) {
		uint16_t rdlen = phase == 1 ? 180 : 40; /* ~128 B entries, then ~256 B, then back */
		for (int i = 0; i < 40000; i++) {
			snprintf(name, sizeof(name), "p%d-%d.example.", phase, i);
			struct msg_rr rr = RR(name, TYPE_TXT_TEST, 300, rdata, rdlen);
			const struct msg_rr *rrs[1] = {&rr};
			assert_int_equal(
			    cache_put_rrset(c, 0, N(name), TYPE_TXT_TEST, RANK_AUTH, rrs, 1), 1);
			assert_true(cache_bytes(c) <= cap);
		}
	}
	cache_destroy(c);
}

static void test_sweep(void **state)
{
	struct cache *c = *state;
	char name[64];
	for (int i = 0; i < 100; i++) {
		snprintf(name, sizeof(name), "s%d.example.", i);
		put_a(c, 0, name, i < 50 ? 10 : 1000, RANK_AUTH);
	}
	cache_sweep(c, 20, 1 << 20);
	assert_int_equal(cache_entries(c), 50);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_ttl_countdown_and_expiry, setup_heap, teardown),
	    cmocka_unit_test_setup_teardown(test_ttl_countdown_and_expiry, setup_file, teardown),
	    cmocka_unit_test_setup_teardown(test_ttl_cap_and_zero, setup_heap, teardown),
	    cmocka_unit_test_setup_teardown(test_negative, setup_heap, teardown),
	    cmocka_unit_test_setup_teardown(test_negative, setup_file, teardown),
	    cmocka_unit_test_setup_teardown(test_rank, setup_heap, teardown),
	    cmocka_unit_test_setup_teardown(test_rank, setup_file, teardown),
	    cmocka_unit_test(test_lru_heap),
	    cmocka_unit_test(test_lru_file),
	    cmocka_unit_test(test_file_size_shift),
	    cmocka_unit_test_setup_teardown(test_sweep, setup_heap, teardown),
	    cmocka_unit_test_setup_teardown(test_sweep, setup_file, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
