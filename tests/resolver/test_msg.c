/* tests/resolver/test_msg.c - both packet parsers agree, decompress names in rdata, reject
 * malformed packets, read EDNS alike; the answer builder truncates with TC when the client's buffer
 * is too small and writes extended rcodes into its OPT. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "dname.h"
#include "memory.h"
#include "msg.h"
#include "request.h"
#include "resolver.h"
#include "resolver_test_util.h"
#include "upstream.h"

static const uint8_t addr1[4] = {192, 0, 2, 1}, addr2[4] = {192, 0, 2, 2};

/* A referral-shaped reply with an answer too, every section used, EDNS on. */
static size_t build_reply(uint8_t *buf, size_t cap)
{
	struct wire_writer w;
	const uint8_t *q = N("www.example.");
	wire_begin(&w, buf, cap, 0x1234, MSG_QR | MSG_AA, q, TYPE_A, CLASS_IN);
	wire_put_rr(&w, MSG_ANSWER, q, TYPE_A, CLASS_IN, 300, addr1, 4);
	wire_put_rr(&w, MSG_ANSWER, N("WWW.example."), TYPE_A, CLASS_IN, 300, addr2, 4);
	const uint8_t *ns = N("ns1.example.");
	wire_put_rr(&w, MSG_AUTHORITY, N("example."), TYPE_NS, CLASS_IN, 3600, ns,
	            (uint16_t)dname_len(ns));
	wire_put_rr(&w, MSG_ADDITIONAL, N("ns1.example."), TYPE_A, CLASS_IN, 3600, addr2, 4);
	wire_put_opt(&w, 1232, RCODE_NOERROR, true);
	return wire_finish(&w);
}

static void check_parsed(const struct msg *m)
{
	assert_int_equal(m->id, 0x1234);
	assert_true(m->flags & MSG_AA);
	assert_true(dname_equal(m->qname, N("www.example.")));
	assert_int_equal(m->qtype, TYPE_A);
	assert_int_equal(m->count[MSG_ANSWER], 2);
	assert_int_equal(m->count[MSG_AUTHORITY], 1);
	assert_int_equal(m->count[MSG_ADDITIONAL], 1); /* OPT is not a record here */
	assert_true(m->has_edns);
	assert_true(m->edns_do);
	assert_int_equal(m->edns_udp, 1232);
	const struct msg_rr *an = msg_section_rr(m, MSG_ANSWER);
	assert_true(dname_equal(an[0].owner, N("www.example.")));
	assert_int_equal(an[0].ttl, 300);
	assert_memory_equal(an[1].rdata, addr2, 4);
	const struct msg_rr *ns = msg_section_rr(m, MSG_AUTHORITY);
	assert_int_equal(ns->type, TYPE_NS);
	assert_true(dname_equal(msg_rdata_name(TYPE_NS, ns->rdata, ns->rdlen), N("ns1.example.")));
	const struct msg_rr *ar = msg_section_rr(m, MSG_ADDITIONAL);
	assert_true(dname_equal(ar->owner, N("ns1.example.")));
}

static void parse_both(const uint8_t *wire, size_t len, void (*check)(const struct msg *), int want)
{
	for (int layout = LAYOUT_HEAP; layout <= LAYOUT_KRESD; layout++) {
		struct rmem mem;
		assert_int_equal(rmem_init(&mem, (enum memory_layout)layout), 0);
		struct msg m;
		void *ldns = NULL;
		int rc = msg_parse_layout(wire, len, &mem, &m, &ldns);
		if (rc != want)
			print_error("layout %d length %zu: rc %d\n", layout, len, rc);
		assert_int_equal(rc, want);
		if (rc == 0 && check)
			check(&m);
		msg_release(&mem, &m, ldns);
		rmem_release(&mem);
	}
}

static void test_parsers_agree(void **state)
{
	uint8_t buf[1024];
	size_t len = build_reply(buf, sizeof(buf));
	assert_true(len > 12);
	parse_both(buf, len, check_parsed, 0);
}

static void check_ns_decompressed(const struct msg *m)
{
	assert_int_equal(m->count[MSG_ANSWER], 1);
	const struct msg_rr *rr = msg_section_rr(m, MSG_ANSWER);
	assert_true(dname_equal(rr->owner, N("example.")));
	assert_int_equal(rr->rdlen, dname_len(N("ns1.example.")));
	assert_true(dname_equal(rr->rdata, N("ns1.example.")));
}

static void test_rdata_decompressed(void **state)
{
	static const uint8_t pkt[] = {
	    0x00, 0x01, 0x84, 0x00, 0,    1,   0,   1,   0,    0,    0, 0,    /* header */
	    7,    'e',  'x',  'a',  'm',  'p', 'l', 'e', 0,    0,    2, 0, 1, /* example. NS IN */
	    0xC0, 12,   0,    2,    0,    1,   0,   0,   0x0E, 0x10, 0, 6,    /* owner, NS, IN, ttl,
	                                                                         rdlen */
	    3,    'n',  's',  '1',  0xC0, 12,                                 /* ns1 + pointer */
	};
	parse_both(pkt, sizeof(pkt), check_ns_decompressed, 0);
}

static void test_malformed(void **state)
{
	uint8_t buf[1024];
	size_t len = build_reply(buf, sizeof(buf));
	/* every byte belongs to a counted record, so any shorter packet is malformed */
	for (size_t cut = 0; cut < len; cut++)
		parse_both(buf, cut, NULL, -1);
	static const uint8_t loop[] = {0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xC0, 12, 0, 1, 0, 1};
	parse_both(loop, sizeof(loop), NULL, -1);
	static const uint8_t forward[] = {0, 1, 0,    0,  0, 1, 0, 0, 0, 0,
	                                  0, 0, 0xC0, 14, 0, 0, 1, 0, 1};
	/* forward pointers are legal for ldns but refused by the kresd layout's parser (as knot's)
	 */
	struct rmem mem;
	struct msg m;
	rmem_init(&mem, LAYOUT_KRESD);
	assert_int_equal(msg_parse(forward, sizeof(forward), &mem, &m), -1);
	rmem_release(&mem);
	static const uint8_t no_question[] = {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	parse_both(no_question, sizeof(no_question), NULL, -1);
	static const uint8_t bad_label[] = {0, 1, 0, 0,    0, 1, 0, 0, 0,
	                                    0, 0, 0, 0x40, 0, 0, 1, 0, 1};
	parse_both(bad_label, sizeof(bad_label), NULL, -1);
}

static void test_answer_truncated(void **state)
{
	static struct resolver r;
	resolver_config_defaults(&r.cfg);
	struct iter_state q;
	iterator_init(&q, &r, NULL, N("big.example."), 16, 0, ITER_MAX_QUERIES);
	static uint8_t txt[256];
	txt[0] = 200;
	memset(txt + 1, 'x', 200);
	struct msg_rr rrs[8];
	for (int i = 0; i < 8; i++)
		rrs[i] = RR("big.example.", 16, 60, txt, 201);
	q.answer = rrs;
	q.n_answer = 4;
	struct waiter w;
	memset(&w, 0, sizeof(w));
	w.id = 77;
	w.flags = MSG_RD;
	w.qname = N("big.example.");
	uint8_t buf[4096];
	size_t len = request_build_answer(&q, &w, RCODE_NOERROR, buf, sizeof(buf));
	assert_true(len > 12 && len <= 512);
	assert_true(buf[2] & 0x02);  /* TC */
	assert_int_equal(buf[7], 0); /* no answer records */
	w.edns = true;
	w.udp_size = 4096;
	len = request_build_answer(&q, &w, RCODE_NOERROR, buf, sizeof(buf));
	assert_true(len > 800);
	assert_false(buf[2] & 0x02);
	assert_int_equal(buf[7], 4);
	assert_int_equal(buf[11], 1);                               /* OPT */
	assert_int_equal((buf[len - 8] << 8) | buf[len - 7], 1232); /* the size we accept */

	/* ~1.7 KB: over the 1232-byte cap although the client offered 4096 */
	q.n_answer = 8;
	len = request_build_answer(&q, &w, RCODE_NOERROR, buf, sizeof(buf));
	assert_true(len > 12 && len <= 1232);
	assert_true(buf[2] & 0x02);
	assert_int_equal(buf[7], 0);
	r.cfg.max_udp_size = 4096;
	len = request_build_answer(&q, &w, RCODE_NOERROR, buf, sizeof(buf));
	assert_true(len > 1232);
	assert_false(buf[2] & 0x02);
	assert_int_equal(buf[7], 8);
	/* a client asking for less than the cap gets no more than it asked */
	w.udp_size = 1000;
	q.n_answer = 5;
	len = request_build_answer(&q, &w, RCODE_NOERROR, buf, sizeof(buf));
	assert_true(len <= 1000 && (buf[2] & 0x02));
}

/* A query for www.example. A with OPT records as given: each {section, owner, ttl} (the TTL field
 * holds extended rcode, version and flags). */
struct opt_spec {
	enum msg_section section;
	const char *owner;
	uint32_t ttl;
};

static size_t build_query_opts(uint8_t *buf, size_t cap, const struct opt_spec *opts, int n)
{
	static const uint8_t no_rdata[1];
	struct wire_writer w;
	wire_begin(&w, buf, cap, 99, MSG_RD, N("www.example."), TYPE_A, CLASS_IN);
	for (int i = 0; i < n; i++)
		wire_put_rr(&w, opts[i].section, N(opts[i].owner), TYPE_OPT, 1232, opts[i].ttl,
		            no_rdata, 0);
	return wire_finish(&w);
}

static void check_edns_version1(const struct msg *m)
{
	assert_true(m->has_edns);
	assert_false(m->edns_malformed);
	assert_int_equal(m->edns_version, 1);
	assert_int_equal(m->edns_udp, 1232);
	assert_true(m->edns_do);
}

static void check_edns_malformed(const struct msg *m)
{
	assert_true(m->edns_malformed);
	assert_false(m->has_edns);
}

static void check_edns_root_by_pointer(const struct msg *m)
{
	assert_true(m->has_edns);
	assert_false(m->edns_malformed);
	assert_int_equal(m->edns_version, 0);
}

/* RFC 6891 §6.1.1 read the same way by both layouts: the version is kept; two OPT records, an OPT
 * outside the additional section or owned by another name than the root make EDNS malformed,
 * while the packet still parses (the client gets FORMERR, not silence). */
static void test_edns_read(void **state)
{
	uint8_t buf[512];
	struct opt_spec v1[] = {{MSG_ADDITIONAL, ".", 0x00018000u}};
	size_t len = build_query_opts(buf, sizeof(buf), v1, 1);
	assert_true(len > 12);
	parse_both(buf, len, check_edns_version1, 0);

	struct opt_spec two[] = {{MSG_ADDITIONAL, ".", 0}, {MSG_ADDITIONAL, ".", 0}};
	len = build_query_opts(buf, sizeof(buf), two, 2);
	parse_both(buf, len, check_edns_malformed, 0);
	struct opt_spec named[] = {{MSG_ADDITIONAL, "example.", 0}};
	len = build_query_opts(buf, sizeof(buf), named, 1);
	parse_both(buf, len, check_edns_malformed, 0);
	struct opt_spec in_answer[] = {{MSG_ANSWER, ".", 0}};
	len = build_query_opts(buf, sizeof(buf), in_answer, 1);
	parse_both(buf, len, check_edns_malformed, 0);

	/* an owner compressed to the question name's root label is the root (header; question
	 * www.example. A IN; OPT: owner pointer, type, size, ttl, rdlen) */
	static const uint8_t pointer_owner[] = {
	    0,   99,  1,   0, 0, 1, 0, 0, 0,    0,  0, 1,  3, 'w',  'w', 'w', 7, 'e', 'x', 'a', 'm',
	    'p', 'l', 'e', 0, 0, 1, 0, 1, 0xC0, 24, 0, 41, 4, 0xD0, 0,   0,   0, 0,   0,   0,
	};
	parse_both(pointer_owner, sizeof(pointer_owner), check_edns_root_by_pointer, 0);
}

/* BADVERS (16) is header rcode 0 and extended rcode 1 in our OPT, version 0; FORMERR to a
 * malformed OPT carries no OPT. */
static void test_answer_extended_rcode(void **state)
{
	static struct resolver r;
	resolver_config_defaults(&r.cfg);
	struct iter_state q;
	iterator_init(&q, &r, NULL, N("www.example."), TYPE_A, 0, ITER_MAX_QUERIES);
	struct waiter w;
	memset(&w, 0, sizeof(w));
	w.id = 5;
	w.qname = N("www.example.");
	w.edns = true;
	w.udp_size = 1232;
	uint8_t buf[512];
	size_t len = request_build_answer(&q, &w, RCODE_BADVERS, buf, sizeof(buf));
	assert_true(len > 12 + 11);
	assert_int_equal(buf[3] & 0xF, 0); /* header rcode */
	assert_int_equal(buf[11], 1);      /* the OPT */
	assert_int_equal(buf[len - 11], 0);
	assert_int_equal((buf[len - 10] << 8) | buf[len - 9], TYPE_OPT);
	assert_int_equal(buf[len - 6], 1); /* extended rcode: 16 >> 4 */
	assert_int_equal(buf[len - 5], 0); /* version */
	w.edns = false;
	len = request_build_answer(&q, &w, RCODE_FORMERR, buf, sizeof(buf));
	assert_true(len > 12);
	assert_int_equal(buf[3] & 0xF, RCODE_FORMERR);
	assert_int_equal(buf[11], 0);
}

/* Replies are matched on the wire, before the kresd layout copies them into the request's pool. */
static void test_reply_matched_on_wire(void **state)
{
	uint8_t buf[512];
	struct wire_writer w;
	wire_begin(&w, buf, sizeof(buf), 4242, MSG_QR | MSG_AA, N("WWW.Example."), TYPE_A,
	           CLASS_IN);
	size_t len = wire_finish(&w);
	assert_true(len > 12);
	assert_int_equal(upstream_match(buf, len, 4242, N("www.example."), TYPE_A), 0);
	assert_int_equal(upstream_match(buf, len, 4243, N("www.example."), TYPE_A), -1);
	assert_int_equal(upstream_match(buf, len, 4242, N("www.example."), TYPE_AAAA), -1);
	assert_int_equal(upstream_match(buf, len, 4242, N("ww.example."), TYPE_A), -1);
	assert_int_equal(upstream_match(buf, len - 1, 4242, N("www.example."), TYPE_A), -1);
	assert_int_equal(upstream_match(buf, 11, 4242, N("www.example."), TYPE_A), -1);
	buf[2] &= 0x7F; /* a query, not a reply */
	assert_int_equal(upstream_match(buf, len, 4242, N("www.example."), TYPE_A), -1);
	buf[2] |= 0x80 | (5 << 3); /* opcode UPDATE */
	assert_int_equal(upstream_match(buf, len, 4242, N("www.example."), TYPE_A), -1);
	buf[2] &= (uint8_t) ~(0xF << 3);
	buf[5] = 2; /* two questions */
	assert_int_equal(upstream_match(buf, len, 4242, N("www.example."), TYPE_A), -1);
	buf[5] = 1;
	buf[len - 1] = 3; /* class CH */
	assert_int_equal(upstream_match(buf, len, 4242, N("www.example."), TYPE_A), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parsers_agree),
	    cmocka_unit_test(test_rdata_decompressed),
	    cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_answer_truncated),
	    cmocka_unit_test(test_edns_read),
	    cmocka_unit_test(test_answer_extended_rcode),
	    cmocka_unit_test(test_reply_matched_on_wire),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
