/* tests/loadgen/test_matcher.c - the answer matcher: port/ID slots, questions, rcodes, timeouts,
 * slot reuse and late answers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matcher.h"
#include "phase_tally.h"
#include "querystream.h"
#include "question.h"
#include "queryfile.h"

static struct counters c, c_unused;
static struct querystream *stream; /* the queries the tests send */

/* A query stream of n queries q0.example. .. q{n-1}.example., type A, as querystream_load keeps
 * them (ID 0). */
static struct querystream *stream_make(size_t n)
{
	static struct querystream qs;
	static uint8_t data[64 * 64];
	static size_t offset[64];
	static uint16_t length[64];
	size_t used = 0;
	for (size_t i = 0; i < n; i++) {
		char name[32];
		int len = snprintf(name, sizeof(name), "q%zu.example.", i);
		size_t w = queryfile_wire_query(name, (size_t)len, 1, 0, 0, data + used, 64);
		assert_true(w > 0);
		offset[i] = used;
		length[i] = (uint16_t)w;
		used += w;
	}
	static uint32_t question[64];
	for (size_t i = 0; i < n; i++)
		assert_true(question_hash(data + offset[i], length[i], &question[i]));
	qs = (struct querystream){
	    .data = data, .offset = offset, .length = length, .question = question, .count = n};
	return &qs;
}

/* The answer a server would give to query k of qs: its message with the slot's ID, QR and rcode.
 */
static size_t answer_to(const struct matcher *m, uint64_t k, unsigned rcode, uint8_t *buf,
                        unsigned *port)
{
	size_t len;
	const uint8_t *q = querystream_message(stream, k, &len);
	memcpy(buf, q, len);
	uint16_t id;
	matcher_slot(m, k, port, &id);
	buf[0] = (uint8_t)(id >> 8);
	buf[1] = (uint8_t)id;
	buf[2] |= 0x80;
	buf[3] = (uint8_t)rcode;
	return len;
}

/* Answers query k of m's stream at now; what matcher_answer says. */
static bool answer(struct matcher *m, uint64_t k, unsigned rcode, uint64_t now)
{
	uint8_t buf[512];
	unsigned port;
	size_t len = answer_to(m, k, rcode, buf, &port);
	return matcher_answer(m, port, buf, len, len, now);
}

/* Query k of the stream leaves at now. */
static void sent(struct matcher *m, uint64_t k, uint64_t now)
{
	matcher_sent(m, k, now, querystream_question(stream, k));
}

static void test_slots_and_answers(void **state)
{
	struct matcher m;
	memset(&c, 0, sizeof(c));
	stream = stream_make(10);
	assert_true(matcher_init(&m, 4, 1000, &c));
	unsigned port;
	uint16_t id;
	matcher_slot(&m, 0, &port, &id);
	assert_true(port == 0 && id == 0);
	matcher_slot(&m, 5, &port, &id); /* runs of 64 queries per port */
	assert_true(port == 0 && id == 5);
	matcher_slot(&m, 64 + 5, &port, &id);
	assert_true(port == 1 && id == 5);
	matcher_slot(&m, 4 * 64 + 5, &port, &id);
	assert_true(port == 0 && id == 64 + 5);
	matcher_slot(&m, 4 * 65536 + 64 + 5, &port, &id); /* wraps round */
	assert_true(port == 1 && id == 5);
	/* every (port, id) is the slot of exactly one k in a round, whatever the number of ports */
	static unsigned char seen[7][65536];
	unsigned counts[] = {1, 4, 7};
	for (size_t n = 0; n < 3; n++) {
		struct matcher mp;
		assert_true(matcher_init(&mp, counts[n], 1000, &c_unused));
		memset(seen, 0, sizeof(seen));
		for (uint64_t k = 0; k < mp.slots; k++) {
			matcher_slot(&mp, k, &port, &id);
			assert_true(port < counts[n]);
			assert_int_equal(seen[port][id]++, 0);
			assert_int_equal(matcher_slot_of(&mp, port, id), k);
		}
		matcher_free(&mp);
	}
	for (uint64_t k = 0; k < 8; k++)
		sent(&m, k, 100);
	assert_int_equal(m.outstanding, 8);
	assert_true(answer(&m, 5, 0, 150));
	assert_false(answer(&m, 5, 0, 160)); /* twice: unexpected */
	assert_true(answer(&m, 6, 3, 400));
	assert_true(answer(&m, 7, 2, 400));
	assert_true(answer(&m, 0, 5, 400));
	assert_false(answer(&m, 9, 0, 400)); /* never sent */
	assert_int_equal(c.answered, 4);
	assert_int_equal(c.noerror, 1);
	assert_int_equal(c.nxdomain, 1);
	assert_int_equal(c.servfail, 1);
	assert_int_equal(c.rcode_other, 1);
	assert_int_equal(c.unexpected, 2);
	assert_int_equal(c.late_or_foreign, 0);
	assert_int_equal(c.latency.count, 4);
	assert_int_equal(c.latency.min_ns, 50);

	/* the four unanswered ones time out once 1000 ns have passed, not before */
	matcher_expire(&m, 1099);
	assert_int_equal(c.timeouts, 0);
	matcher_expire(&m, 1100);
	assert_int_equal(c.timeouts, 4);
	assert_int_equal(m.outstanding, 0);
	/* a late answer is unexpected, not an answer */
	assert_false(answer(&m, 1, 0, 1200));
	assert_int_equal(c.answered, 4);
	matcher_free(&m);
}

/* Open loop: when a slot comes round again its unanswered query is lost, never waited for; a late
 * answer to the old query must not be taken for the new one's. */
static void test_slot_reuse_late_answer(void **state)
{
	struct matcher m;
	memset(&c, 0, sizeof(c));
	/* 7 queries: query 3 and query 65539, which share a slot, ask different names */
	stream = stream_make(7);
	assert_true(matcher_init(&m, 1, 1000000000, &c));
	uint8_t late[512];
	unsigned late_port;
	size_t late_len = answer_to(&m, 3, 0, late, &late_port);
	for (uint64_t k = 0; k < 65536 + 10; k++)
		sent(&m, k, 1000 * k);
	assert_int_equal(c.timeouts, 10);
	assert_int_equal(m.outstanding, 65536);
	/* query 3's answer comes now, after query 65539 took its slot: late, not an answer */
	assert_false(matcher_answer(&m, late_port, late, late_len, late_len, 1000 * 65540));
	assert_int_equal(c.late_or_foreign, 1);
	assert_int_equal(c.answered, 0);
	assert_int_equal(c.latency.count, 0);
	assert_int_equal(m.outstanding, 65536); /* the slot still waits for its own answer */
	/* which then counts, with its real latency */
	assert_true(answer(&m, 65539, 0, 1000 * 65539 + 5000));
	assert_int_equal(c.answered, 1);
	assert_int_equal(c.unexpected, 0);
	assert_int_equal(c.latency.min_ns, 5000);
	matcher_free(&m);
}

/* The question decides: name case-insensitively (resolvers may echo 0x20 mixed case), type,
 * class, exactly one question, all of it at hand. */
static void test_question(void **state)
{
	struct matcher m;
	memset(&c, 0, sizeof(c));
	stream = stream_make(3);
	assert_true(matcher_init(&m, 1, 1000000000, &c));
	for (uint64_t k = 0; k < 3; k++)
		sent(&m, k, 1);
	uint8_t buf[512];
	unsigned port;
	size_t len = answer_to(&m, 1, 0, buf, &port);
	size_t qtype_at = len - 4;
	uint8_t copy[512];

	memcpy(copy, buf, len);
	copy[qtype_at + 1] = 28; /* AAAA */
	assert_false(matcher_answer(&m, port, copy, len, len, 2));
	memcpy(copy, buf, len);
	copy[len - 1] = 3; /* class CH */
	assert_false(matcher_answer(&m, port, copy, len, len, 2));
	memcpy(copy, buf, len);
	copy[13] = 'r'; /* r1.example. */
	assert_false(matcher_answer(&m, port, copy, len, len, 2));
	memcpy(copy, buf, len);
	copy[5] = 0; /* no question */
	assert_false(matcher_answer(&m, port, copy, len, len, 2));
	assert_false(matcher_answer(&m, port, buf, len - 1, len, 2)); /* question cut short */
	assert_int_equal(c.late_or_foreign, 5);
	memcpy(copy, buf, len);
	copy[2] &= 0x7f; /* a query, not a response */
	assert_false(matcher_answer(&m, port, copy, len, len, 2));
	assert_int_equal(c.unexpected, 1);
	assert_int_equal(c.answered, 0);

	memcpy(copy, buf, len);
	copy[13] = 'Q';
	copy[17] = 'X'; /* Q1.eXample. */
	assert_true(matcher_answer(&m, port, copy, len, len, 2));
	assert_int_equal(c.answered, 1);
	/* a compression pointer where the name should be is not a question */
	uint32_t h;
	assert_false(question_hash(
	    (const uint8_t *)"\0\0\x80\0\0\x01\0\0\0\0\0\0\xc0\x0c\0\x01\0\x01", 18, &h));
	/* labels are told apart: a.bc. is not ab.c. */
	uint32_t h2;
	assert_true(question_hash((const uint8_t *)"\0\0\0\0\0\x01\0\0\0\0\0\0\x01"
	                                           "a\x02"
	                                           "bc\0\0\x01\0\x01",
	                          22, &h));
	assert_true(question_hash((const uint8_t *)"\0\0\0\0\0\x01\0\0\0\0\0\0\x02"
	                                           "ab\x01"
	                                           "c\0\0\x01\0\x01",
	                          22, &h2));
	assert_true(h != h2);
	matcher_free(&m);
}

/* Per phase instance, by the instance a query was sent in: an answer that comes after the next
 * instance began, a timeout given up then, a late answer to the slot, each with its rcode and
 * latency, count in the instance of their query. */
static void test_phase_instances(void **state)
{
	struct matcher m;
	static struct phase_tally tallies[2];
	memset(&c, 0, sizeof(c));
	memset(tallies, 0, sizeof(tallies));
	stream = stream_make(6);
	assert_true(matcher_init(&m, 1, 1000, &c));
	m.tallies = tallies;
	m.instance_now = 0;
	for (uint64_t k = 0; k < 4; k++)
		sent(&m, k, 100);
	m.instance_now = 1; /* the spike ends; the recovery begins */
	sent(&m, 4, 600);
	sent(&m, 5, 600);
	assert_true(answer(&m, 0, 0, 700)); /* 600 ns, received in the recovery */
	assert_true(answer(&m, 1, 3, 900)); /* NXDOMAIN, 800 ns */
	assert_true(answer(&m, 4, 2, 650)); /* SERVFAIL, 50 ns, the recovery's own */
	uint8_t buf[512];
	unsigned port;
	size_t len = answer_to(&m, 2, 0, buf, &port);
	buf[13] = 'r'; /* another question in query 2's slot */
	assert_false(matcher_answer(&m, port, buf, len, len, 950));
	matcher_expire(&m, 1100); /* queries 2 and 3 (sent at 100) give up; 5 still awaited */
	assert_int_equal(tallies[0].sent, 4);
	assert_int_equal(tallies[0].answered, 2);
	assert_int_equal(tallies[0].timeouts, 2);
	assert_int_equal(tallies[0].late_or_foreign, 1);
	assert_int_equal(tallies[0].rcodes[RCODE_NOERROR], 1);
	assert_int_equal(tallies[0].rcodes[RCODE_NXDOMAIN], 1);
	assert_int_equal(tallies[0].latency.count, 2);
	assert_int_equal(tallies[0].max_ns, 800);
	assert_int_equal(tallies[0].latency.min_ns, 600);
	assert_int_equal(tallies[1].sent, 2);
	assert_int_equal(tallies[1].answered, 1);
	assert_int_equal(tallies[1].timeouts, 0);
	assert_int_equal(tallies[1].rcodes[RCODE_SERVFAIL], 1);
	assert_int_equal(tallies[1].max_ns, 50);
	/* the per-target totals are the instances' sums */
	assert_int_equal(c.answered, tallies[0].answered + tallies[1].answered);
	assert_int_equal(c.timeouts, tallies[0].timeouts + tallies[1].timeouts);
	assert_int_equal(c.late_or_foreign, tallies[0].late_or_foreign);
	struct phase_tally copy;
	phase_tally_snapshot(&tallies[0], &copy);
	assert_int_equal(copy.sent, 4);
	assert_int_equal(copy.latency.count, 2);
	matcher_free(&m);
}

/* One instance per (phase, spike), in schedule order; phases with the same pair share it. */
static void test_phase_plan(void **state)
{
	struct schedule s;
	char err[256];
	assert_true(schedule_parse("warmup:1s@10,baseline:1s@10,baseline:1s@20,"
	                           "2*(spike:1s@50,recovery:1s@10,recovery:1s@5)",
	                           &s, err, sizeof(err)));
	struct phase_plan pl;
	assert_true(phase_plan_init(&pl, &s));
	assert_int_equal(pl.count, 6);
	const char *want[] = {"warmup", "baseline", "spike", "recovery", "spike", "recovery"};
	unsigned want_spike[] = {0, 0, 1, 1, 2, 2};
	for (size_t i = 0; i < pl.count; i++) {
		assert_string_equal(schedule_kind_name(pl.instances[i].kind), want[i]);
		assert_int_equal(pl.instances[i].spike, want_spike[i]);
	}
	uint32_t want_of[] = {0, 1, 1, 2, 3, 3, 4, 5, 5};
	assert_int_equal(s.count, 9);
	for (size_t i = 0; i < s.count; i++)
		assert_int_equal(pl.of_phase[i], want_of[i]);
	assert_true(pl.instances[1].start_s == 1.0);
	phase_plan_free(&pl);
	schedule_free(&s);
}

static uint64_t retried[8];
static unsigned nretried;
static void note_retry(void *arg, uint64_t k)
{
	(void)arg;
	retried[nretried++] = k;
}

/* A truncated UDP answer with --tc-retry is handed over for TCP (its query still waiting, timed
 * from its first send), without it counts as the answer; over TCP the connection names the
 * query, and an answer to a query given up or never sent is unexpected. */
static void test_truncated_and_by_query(void **state)
{
	struct matcher m;
	memset(&c, 0, sizeof(c));
	stream = stream_make(10);
	assert_true(matcher_init(&m, 4, 1000, &c));
	for (uint64_t k = 0; k < 8; k++)
		sent(&m, k, 100);
	uint8_t buf[512];
	unsigned port;
	size_t len = answer_to(&m, 70, 0, buf, &port); /* port 1: 70 = 64 + 6 */
	sent(&m, 70, 100);
	buf[2] |= 0x02;                                            /* TC */
	assert_true(matcher_answer(&m, port, buf, len, len, 150)); /* no retry: the answer */
	assert_int_equal(c.truncated, 1);
	assert_int_equal(c.tc_retried, 0);

	m.retry_truncated = note_retry;
	len = answer_to(&m, 5, 0, buf, &port);
	buf[2] |= 0x02;
	assert_false(matcher_answer(&m, port, buf, len, len, 200));
	assert_int_equal(nretried, 1);
	assert_int_equal(retried[0], 5);
	assert_int_equal(c.truncated, 2);
	assert_int_equal(c.tc_retried, 1);
	assert_int_equal(m.outstanding, 8); /* 5 still waits */

	/* its answer over TCP, named by the connection: latency from the first send */
	len = answer_to(&m, 5, 0, buf, &port);
	uint64_t latency = 0;
	assert_true(matcher_answer_query(&m, 5, buf, len, 400, &latency));
	assert_int_equal(latency, 300);
	assert_false(matcher_answer_query(&m, 5, buf, len, 410, &latency)); /* twice */
	assert_false(matcher_answer_query(&m, 9, buf, len, 410, &latency)); /* never sent */
	assert_int_equal(c.unexpected, 2);
	len = answer_to(&m, 6, 0, buf, &port); /* query 6's answer named as query 4's */
	assert_false(matcher_answer_query(&m, 4, buf, len, 420, &latency));
	assert_int_equal(c.late_or_foreign, 1);
	matcher_expire(&m, 1100);
	len = answer_to(&m, 4, 0, buf, &port);
	assert_false(matcher_answer_query(&m, 4, buf, len, 1200, &latency)); /* timed out */
	assert_int_equal(c.answered, 2);
	matcher_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_phase_instances),   cmocka_unit_test(test_phase_plan),
	    cmocka_unit_test(test_slots_and_answers), cmocka_unit_test(test_slot_reuse_late_answer),
	    cmocka_unit_test(test_question),          cmocka_unit_test(test_truncated_and_by_query),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
