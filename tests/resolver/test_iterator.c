/* tests/resolver/test_iterator.c - what the iterator makes of a reply: answers, CNAME chains in and
 * out of the zone, NXDOMAIN, NODATA, referrals, lame and out-of-bailiwick replies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "dname.h"
#include "iterator.h"
#include "resolver_test_util.h"

static const uint8_t addr1[4] = {192, 0, 2, 1};
static uint8_t soa_rdata[64];

static struct msg mk(uint8_t rcode, uint16_t flags, const char *qname, uint16_t qtype,
                     struct msg_rr *rrs, uint16_t an, uint16_t ns, uint16_t ar)
{
	struct msg m = {.id = 1,
	                .flags = (uint16_t)(MSG_QR | flags | rcode),
	                .rcode = rcode,
	                .qname = N(qname),
	                .qtype = qtype,
	                .qclass = CLASS_IN,
	                .rr = rrs};
	m.count[0] = an;
	m.count[1] = ns;
	m.count[2] = ar;
	return m;
}

static struct msg_rr soa(const char *owner)
{
	const uint8_t *a = N("ns1.example."), *b = N("admin.example.");
	size_t o = 0;
	memcpy(soa_rdata, a, dname_len(a));
	o += dname_len(a);
	memcpy(soa_rdata + o, b, dname_len(b));
	o += dname_len(b);
	memset(soa_rdata + o, 0, 20);
	soa_rdata[o + 19] = 60;
	return RR(owner, TYPE_SOA, 3600, soa_rdata, (uint16_t)(o + 20));
}

static struct msg_rr name_rr(const char *owner, uint16_t type, const char *target)
{
	const uint8_t *t = N(target);
	return RR(owner, type, 300, t, (uint16_t)dname_len(t));
}

static void expect(const struct msg *m, const char *zone, const char *name, uint16_t qtype,
                   enum iter_class want, const char *want_final)
{
	const uint8_t *final = NULL;
	enum iter_class got = iterator_classify(m, N(zone), N(name), qtype, &final);
	assert_int_equal(got, want);
	if (want_final)
		assert_true(dname_equal(final, N(want_final)));
}

static void test_answer(void **state)
{
	struct msg_rr rrs[] = {RR("WWW.example.", TYPE_A, 300, addr1, 4)};
	struct msg m = mk(RCODE_NOERROR, MSG_AA, "www.example.", TYPE_A, rrs, 1, 0, 0);
	expect(&m, "example.", "www.example.", TYPE_A, ITER_ANSWER, "www.example.");
}

static void test_cname_in_zone(void **state)
{
	struct msg_rr rrs[] = {name_rr("alias.example.", TYPE_CNAME, "c2.example."),
	                       name_rr("c2.example.", TYPE_CNAME, "www.example."),
	                       RR("www.example.", TYPE_A, 300, addr1, 4)};
	struct msg m = mk(RCODE_NOERROR, MSG_AA, "alias.example.", TYPE_A, rrs, 3, 0, 0);
	expect(&m, "example.", "alias.example.", TYPE_A, ITER_ANSWER, "www.example.");
	/* asking for the CNAME itself stops at the first record */
	m.qtype = TYPE_CNAME;
	expect(&m, "example.", "alias.example.", TYPE_CNAME, ITER_ANSWER, "alias.example.");
}

static void test_cname_leaving_zone(void **state)
{
	/* the target's address is out of this server's bailiwick: it must be looked up again */
	struct msg_rr rrs[] = {name_rr("ext.example.", TYPE_CNAME, "host.other."),
	                       RR("host.other.", TYPE_A, 300, addr1, 4)};
	struct msg m = mk(RCODE_NOERROR, MSG_AA, "ext.example.", TYPE_A, rrs, 2, 0, 0);
	expect(&m, "example.", "ext.example.", TYPE_A, ITER_CNAME, "host.other.");
}

static void test_cname_loop_bounded(void **state)
{
	struct msg_rr rrs[] = {name_rr("a.example.", TYPE_CNAME, "b.example."),
	                       name_rr("b.example.", TYPE_CNAME, "a.example.")};
	struct msg m = mk(RCODE_NOERROR, MSG_AA, "a.example.", TYPE_A, rrs, 2, 0, 0);
	const uint8_t *final;
	enum iter_class c = iterator_classify(&m, N("example."), N("a.example."), TYPE_A, &final);
	assert_int_not_equal(c, ITER_ANSWER);
}

static void test_nxdomain_nodata(void **state)
{
	struct msg_rr rrs[] = {soa("example.")};
	struct msg m = mk(RCODE_NXDOMAIN, MSG_AA, "nx.example.", TYPE_A, rrs, 0, 1, 0);
	expect(&m, "example.", "nx.example.", TYPE_A, ITER_NXDOMAIN, "nx.example.");
	m = mk(RCODE_NOERROR, MSG_AA, "www.example.", TYPE_MX, rrs, 0, 1, 0);
	expect(&m, "example.", "www.example.", TYPE_MX, ITER_NODATA, "www.example.");
	/* a SOA from outside the zone asked does not make a negative answer */
	struct msg_rr other[] = {soa("other.")};
	m = mk(RCODE_NOERROR, 0, "www.example.", TYPE_MX, other, 0, 1, 0);
	expect(&m, "example.", "www.example.", TYPE_MX, ITER_LAME, NULL);
}

static void test_referral(void **state)
{
	struct msg_rr rrs[] = {name_rr("example.", TYPE_NS, "ns1.example."),
	                       RR("ns1.example.", TYPE_A, 3600, addr1, 4)};
	struct msg m = mk(RCODE_NOERROR, 0, "www.example.", TYPE_A, rrs, 0, 1, 1);
	expect(&m, ".", "www.example.", TYPE_A, ITER_REFERRAL, NULL);
	/* the same NS set from the zone itself is not a referral (no progress): lame */
	expect(&m, "example.", "www.example.", TYPE_A, ITER_LAME, NULL);
	/* nor is one to a zone that does not contain the name */
	expect(&m, ".", "www.other.", TYPE_A, ITER_LAME, NULL);
}

static void test_upward_and_sideways(void **state)
{
	struct msg_rr up[] = {name_rr(".", TYPE_NS, "a.root.")};
	struct msg m = mk(RCODE_NOERROR, 0, "www.example.", TYPE_A, up, 0, 1, 0);
	expect(&m, "example.", "www.example.", TYPE_A, ITER_LAME, NULL);
	struct msg_rr side[] = {name_rr("www.example.", TYPE_NS, "ns.other.")};
	m = mk(RCODE_NOERROR, 0, "www.example.", TYPE_A, side, 0, 1, 0);
	expect(&m, "other.", "www.example.", TYPE_A, ITER_LAME, NULL);
}

static void test_out_of_bailiwick_answer(void **state)
{
	/* a server for example. answering for victim. is not believed */
	struct msg_rr rrs[] = {RR("www.victim.", TYPE_A, 300, addr1, 4)};
	struct msg m = mk(RCODE_NOERROR, MSG_AA, "www.victim.", TYPE_A, rrs, 1, 0, 0);
	expect(&m, "example.", "www.victim.", TYPE_A, ITER_LAME, NULL);
	assert_false(iterator_in_bailiwick(N("www.victim."), N("example.")));
	assert_true(iterator_in_bailiwick(N("a.b.Example."), N("example.")));
	assert_true(iterator_in_bailiwick(N("example."), N("example.")));
	assert_false(iterator_in_bailiwick(N("badexample."), N("example.")));
	assert_true(iterator_in_bailiwick(N("anything."), N(".")));
}

/* An A record must be 4 bytes and an AAAA 16: a 16-byte "A" is neither an answer nor an IPv6
 * address (it would have become a server address). */
static void test_address_length_checked(void **state)
{
	static const uint8_t sixteen[16] = {0x20, 0x01, 0x0d, 0xb8};
	struct msg_rr bad_a[] = {RR("www.example.", TYPE_A, 300, sixteen, 16)};
	struct msg m = mk(RCODE_NOERROR, MSG_AA, "www.example.", TYPE_A, bad_a, 1, 0, 0);
	expect(&m, "example.", "www.example.", TYPE_A, ITER_LAME, NULL);
	struct msg_rr bad_aaaa[] = {RR("www.example.", TYPE_AAAA, 300, addr1, 4)};
	m = mk(RCODE_NOERROR, MSG_AA, "www.example.", TYPE_AAAA, bad_aaaa, 1, 0, 0);
	expect(&m, "example.", "www.example.", TYPE_AAAA, ITER_LAME, NULL);
	struct msg_rr good[] = {RR("www.example.", TYPE_AAAA, 300, sixteen, 16)};
	m = mk(RCODE_NOERROR, MSG_AA, "www.example.", TYPE_AAAA, good, 1, 0, 0);
	expect(&m, "example.", "www.example.", TYPE_AAAA, ITER_ANSWER, "www.example.");
	assert_true(msg_rdata_fits_type(TYPE_A, 4));
	assert_false(msg_rdata_fits_type(TYPE_A, 16));
	assert_false(msg_rdata_fits_type(TYPE_A, 0));
	assert_true(msg_rdata_fits_type(TYPE_AAAA, 16));
	assert_false(msg_rdata_fits_type(TYPE_AAAA, 4));
	assert_true(msg_rdata_fits_type(TYPE_MX, 16)); /* other types: their parser's business */
}

static void test_error_rcodes(void **state)
{
	struct msg m = mk(RCODE_SERVFAIL, 0, "www.example.", TYPE_A, NULL, 0, 0, 0);
	expect(&m, "example.", "www.example.", TYPE_A, ITER_LAME, NULL);
	m = mk(RCODE_REFUSED, 0, "www.example.", TYPE_A, NULL, 0, 0, 0);
	expect(&m, "example.", "www.example.", TYPE_A, ITER_LAME, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_answer),
	    cmocka_unit_test(test_cname_in_zone),
	    cmocka_unit_test(test_cname_leaving_zone),
	    cmocka_unit_test(test_cname_loop_bounded),
	    cmocka_unit_test(test_nxdomain_nodata),
	    cmocka_unit_test(test_referral),
	    cmocka_unit_test(test_upward_and_sideways),
	    cmocka_unit_test(test_out_of_bailiwick_answer),
	    cmocka_unit_test(test_error_rcodes),
	    cmocka_unit_test(test_address_length_checked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
