/* tests/resolver/test_infra.c - the infrastructure cache against simulated servers: dead ones
 * are avoided and retried only after their hold-down, slow ones are measured, fast ones are
 * preferred while the others are still explored, the table stays within its size, and the
 * request deadline. Time is simulated; nothing is sent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "chacha_rng.h"
#include "infra.h"

#define DEAD -1

/* A simulated server: an address and how it answers. */
struct sim_server {
	struct sockaddr_in sa;
	int rtt_ms;    /* DEAD: never answers */
	int jitter_ms; /* each reply takes rtt_ms +- jitter_ms, uniformly */
	unsigned chosen;
};

static void sim_server_init(struct sim_server *s, uint32_t host, int rtt_ms, int jitter_ms)
{
	memset(s, 0, sizeof(*s));
	s->sa.sin_family = AF_INET;
	s->sa.sin_port = htons(53);
	s->sa.sin_addr.s_addr = htonl(0x7f000000u | host);
	s->rtt_ms = rtt_ms;
	s->jitter_ms = jitter_ms;
}

static void seeded(struct chacha_rng *g, uint8_t seed)
{
	uint8_t key[32];
	memset(key, seed, sizeof(key));
	chacha_rng_seed_key(g, key);
}

struct sim {
	struct infra *t;
	struct chacha_rng choice_rng, world_rng;
	struct sim_server *servers;
	int n;
	uint64_t now;
};

static void sim_init(struct sim *sim, struct sim_server *servers, int n)
{
	sim->t = infra_create(INFRA_DEFAULT_CAPACITY);
	assert_non_null(sim->t);
	seeded(&sim->choice_rng, 1);
	seeded(&sim->world_rng, 2);
	sim->servers = servers;
	sim->n = n;
	sim->now = 1000;
}

static int sim_rtt(struct sim *sim, const struct sim_server *s)
{
	if (s->rtt_ms == DEAD)
		return DEAD;
	if (s->jitter_ms == 0)
		return s->rtt_ms;
	return s->rtt_ms - s->jitter_ms +
	       (int)chacha_rng_below(&sim->world_rng, (uint32_t)(2 * s->jitter_ms + 1));
}

/* One request, alone in time: choose, wait for the reply or the timeout, report it, then 10 ms
 * pass before the next. Returns the index chosen, or -1 when nothing was usable. */
static int sim_request(struct sim *sim, struct infra_choice *c)
{
	struct infra_candidate cands[8];
	for (int i = 0; i < sim->n; i++)
		cands[i] = (struct infra_candidate){(struct sockaddr *)&sim->servers[i].sa,
		                                    sizeof(sim->servers[i].sa)};
	if (!infra_choose(sim->t, cands, sim->n, sim->now, &sim->choice_rng, c)) {
		assert_int_equal(c->index, -1);
		sim->now += 10;
		return -1;
	}
	struct sim_server *s = &sim->servers[c->index];
	s->chosen++;
	int rtt = sim_rtt(sim, s);
	if (rtt == DEAD || rtt > c->timeout_ms) {
		sim->now += (uint64_t)c->timeout_ms;
		infra_report_timeout(sim->t, cands[c->index].sa, cands[c->index].len, c, sim->now);
	} else {
		sim->now += (uint64_t)rtt;
		infra_report_reply(sim->t, cands[c->index].sa, cands[c->index].len, rtt, sim->now);
	}
	sim->now += 10;
	return c->index;
}

static struct infra_server sim_state(const struct sim *sim, int i)
{
	struct infra_server st;
	assert_true(infra_lookup(sim->t, (struct sockaddr *)&sim->servers[i].sa,
	                         sizeof(sim->servers[i].sa), sim->now, &st));
	return st;
}

/* Beside a working server, a dead one costs one timeout (its first try, as an unknown server)
 * and is then left alone. */
static void test_dead_server_avoided_after_first_timeout(void **state)
{
	(void)state;
	struct sim_server servers[2];
	sim_server_init(&servers[0], 1, 20, 2);
	sim_server_init(&servers[1], 2, DEAD, 0);
	struct sim sim;
	sim_init(&sim, servers, 2);
	struct infra_choice c;
	for (int i = 0; i < 2000; i++)
		assert_true(sim_request(&sim, &c) >= 0);
	assert_int_equal(servers[1].chosen, 1);
	struct infra_server dead = sim_state(&sim, 1);
	assert_int_equal(dead.timeouts, 1);
	assert_int_equal(dead.timeout_ms, 2 * INFRA_INITIAL_TIMEOUT_MS);
	infra_destroy(sim.t);
}

/* A delegation whose only server is dead: timeouts back off (376, 752, 1504, 3008 ms), then
 * the server is held down; after the hold-down exactly one probe goes out, and when it times
 * out too the next hold-down is twice as long. */
static void test_dead_delegation_backs_off_and_probes(void **state)
{
	(void)state;
	struct sim_server servers[1];
	sim_server_init(&servers[0], 3, DEAD, 0);
	struct sim sim;
	sim_init(&sim, servers, 1);
	struct infra_choice c;
	int expected = INFRA_INITIAL_TIMEOUT_MS;
	for (int i = 0; i < INFRA_DEAD_TIMEOUTS; i++) {
		assert_int_equal(sim_request(&sim, &c), 0);
		assert_int_equal(c.timeout_ms, expected);
		assert_false(c.probe);
		expected *= 2;
	}
	struct infra_server st = sim_state(&sim, 0);
	assert_int_equal(st.timeouts, INFRA_DEAD_TIMEOUTS);
	uint64_t first_hold_end = st.hold_until_ms;
	uint64_t last_timeout = sim.now - 10;
	assert_int_equal(first_hold_end - last_timeout, INFRA_HOLD_BASE_MS);

	/* Held down: nothing to choose, so the request can fail at once. */
	while (sim.now < first_hold_end)
		assert_int_equal(sim_request(&sim, &c), -1);
	assert_int_equal(servers[0].chosen, INFRA_DEAD_TIMEOUTS);

	/* The probe, alone: a second request meanwhile finds the server still held down. */
	struct infra_candidate cand = {(struct sockaddr *)&servers[0].sa, sizeof(servers[0].sa)};
	struct infra_choice probe, other;
	assert_true(infra_choose(sim.t, &cand, 1, sim.now, &sim.choice_rng, &probe));
	assert_true(probe.probe);
	assert_int_equal(probe.timeout_ms, expected);
	assert_false(infra_choose(sim.t, &cand, 1, sim.now + 1, &sim.choice_rng, &other));
	sim.now += (uint64_t)probe.timeout_ms;
	infra_report_timeout(sim.t, cand.sa, cand.len, &probe, sim.now);
	st = sim_state(&sim, 0);
	assert_int_equal(st.timeouts, INFRA_DEAD_TIMEOUTS + 1);
	assert_int_equal(st.hold_until_ms - sim.now, 2 * INFRA_HOLD_BASE_MS);
	assert_int_equal(st.timeout_ms, INFRA_MAX_TIMEOUT_MS); /* 2 x 6016 capped */

	/* A reply to a later probe clears everything. */
	sim.now = st.hold_until_ms;
	assert_true(infra_choose(sim.t, &cand, 1, sim.now, &sim.choice_rng, &probe));
	assert_true(probe.probe);
	infra_report_reply(sim.t, cand.sa, cand.len, 40, sim.now + 40);
	st = sim_state(&sim, 0);
	assert_int_equal(st.timeouts, 0);
	assert_int_equal(st.hold_until_ms, 0);
	assert_int_equal(st.srtt_ms, 40);
	infra_destroy(sim.t);
}

/* Many queries in flight to a server that then stops answering time out together: the timeout
 * doubles once and counts once. */
static void test_concurrent_timeouts_count_once(void **state)
{
	(void)state;
	struct infra *t = infra_create(16);
	struct chacha_rng rng;
	seeded(&rng, 3);
	struct sim_server s;
	sim_server_init(&s, 4, DEAD, 0);
	struct infra_candidate cand = {(struct sockaddr *)&s.sa, sizeof(s.sa)};
	struct infra_choice c[50];
	for (int i = 0; i < 50; i++)
		assert_true(infra_choose(t, &cand, 1, 1000, &rng, &c[i]));
	for (int i = 0; i < 50; i++)
		infra_report_timeout(t, cand.sa, cand.len, &c[i], 1000 + INFRA_INITIAL_TIMEOUT_MS);
	struct infra_server st;
	assert_true(infra_lookup(t, cand.sa, cand.len, 2000, &st));
	assert_int_equal(st.timeouts, 1);
	assert_int_equal(st.timeout_ms, 2 * INFRA_INITIAL_TIMEOUT_MS);
	assert_int_equal(st.hold_until_ms, 0);
	infra_destroy(t);
}

/* A slow server's smoothed RTT converges: within 10 % of its mean after 200 replies with +-10 %
 * jitter, and no reply is then mistaken for a timeout. A server slower than the initial
 * timeout is found after that first timeout. */
static void test_slow_server_rtt_found(void **state)
{
	(void)state;
	static const int means[] = {300, 500, 1500};
	for (size_t m = 0; m < sizeof(means) / sizeof(means[0]); m++) {
		struct sim_server servers[1];
		sim_server_init(&servers[0], 5, means[m], means[m] / 10);
		struct sim sim;
		sim_init(&sim, servers, 1);
		struct infra_choice c;
		int late_timeouts = 0;
		for (int i = 0; i < 200; i++) {
			assert_int_equal(sim_request(&sim, &c), 0);
			struct infra_server st = sim_state(&sim, 0);
			if (i >= 10 && st.timeouts > 0)
				late_timeouts++;
		}
		struct infra_server st = sim_state(&sim, 0);
		assert_in_range(st.srtt_ms, means[m] * 9 / 10, means[m] * 11 / 10);
		assert_true(st.rttvar_ms <= means[m] / 10);
		assert_true(st.timeout_ms > means[m] * 11 / 10);
		assert_int_equal(late_timeouts, 0);
		infra_destroy(sim.t);
	}
}

/* Servers at 20, 60 and 150 ms: the fastest gets at least 90 % of the choices (95 % exploit
 * plus a third of the 5 % exploration, so about 96.7 %), the other two are still explored (about
 * 1.7 % each); exploring the 150 ms one with a timeout capped at twice the best's leaves no
 * mark on it. */
static void test_fast_preferred_others_explored(void **state)
{
	(void)state;
	struct sim_server servers[3];
	sim_server_init(&servers[0], 6, 150, 15);
	sim_server_init(&servers[1], 7, 20, 2);
	sim_server_init(&servers[2], 8, 60, 6);
	struct sim sim;
	sim_init(&sim, servers, 3);
	struct infra_choice c;
	for (int i = 0; i < 3; i++) /* each unknown server is measured once first */
		assert_true(sim_request(&sim, &c) >= 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(servers[i].chosen, 1);
	const int rounds = 4000;
	unsigned explored = 0, capped = 0;
	for (int i = 0; i < rounds; i++) {
		assert_true(sim_request(&sim, &c) >= 0);
		explored += c.explored;
		capped += c.capped;
	}
	unsigned fast = servers[1].chosen - 1;
	assert_true(fast >= (unsigned)rounds * 90 / 100);
	assert_true(fast <= (unsigned)rounds * 99 / 100);
	assert_true(servers[0].chosen - 1 >= 20);
	assert_true(servers[2].chosen - 1 >= 20);
	assert_in_range(explored, rounds / 40, rounds / 10);
	assert_true(capped > 0);
	struct infra_server slow = sim_state(&sim, 0);
	assert_int_equal(slow.timeouts, 0);
	assert_in_range(slow.srtt_ms, 135, 165);
	infra_destroy(sim.t);
}

static struct sockaddr_in addr_n(uint32_t n)
{
	struct sockaddr_in sa;
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons(53);
	sa.sin_addr.s_addr = htonl(0x7f000000u | n);
	return sa;
}

/* 10,000 addresses through a 64-entry table: it never holds more than 64, its memory does not
 * change, the newest address is there, and entries are forgotten after the host TTL. */
static void test_table_bounded(void **state)
{
	(void)state;
	struct infra *t = infra_create(64);
	assert_non_null(t);
	struct infra_stats before, after;
	infra_get_stats(t, 0, &before);
	assert_int_equal(before.capacity, 64);
	assert_int_equal(before.entries, 0);
	uint64_t now = 1000;
	for (uint32_t i = 0; i < 10000; i++) {
		struct sockaddr_in sa = addr_n(i + 1);
		infra_report_reply(t, (struct sockaddr *)&sa, sizeof(sa), 30, now++);
	}
	infra_get_stats(t, 0, &after);
	assert_true(after.entries <= 64);
	assert_true(after.entries >= 48);
	assert_int_equal(after.evictions, 10000 - after.entries);
	assert_int_equal(after.measured, after.entries);
	assert_int_equal(after.srtt_max_ms, 30);
	assert_int_equal(after.held_down, 0);
	assert_int_equal(after.bytes, before.bytes);
	struct infra_server st;
	struct sockaddr_in newest = addr_n(10000);
	assert_true(infra_lookup(t, (struct sockaddr *)&newest, sizeof(newest), now, &st));
	assert_int_equal(st.srtt_ms, 30);
	assert_false(infra_lookup(t, (struct sockaddr *)&newest, sizeof(newest),
	                          now + INFRA_HOST_TTL_MS, &st));
	/* An IPv6 address and a different port are different servers. */
	struct sockaddr_in other_port = newest;
	other_port.sin_port = htons(5353);
	assert_false(infra_lookup(t, (struct sockaddr *)&other_port, sizeof(other_port), now, &st));
	struct sockaddr_in6 v6;
	memset(&v6, 0, sizeof(v6));
	v6.sin6_family = AF_INET6;
	v6.sin6_port = htons(53);
	inet_pton(AF_INET6, "2001:db8::1", &v6.sin6_addr);
	infra_report_reply(t, (struct sockaddr *)&v6, sizeof(v6), 70, now);
	assert_true(infra_lookup(t, (struct sockaddr *)&v6, sizeof(v6), now, &st));
	assert_int_equal(st.srtt_ms, 70);
	infra_destroy(t);
	assert_null(infra_create(0));
}

static void test_deadline(void **state)
{
	(void)state;
	struct infra_deadline d;
	infra_deadline_start(&d, 1000, INFRA_REQUEST_DEADLINE_MS);
	assert_int_equal(infra_deadline_left_ms(&d, 1000), INFRA_REQUEST_DEADLINE_MS);
	assert_int_equal(infra_deadline_left_ms(&d, 5000), 6000);
	assert_int_equal(infra_deadline_clamp(&d, 5000, 376), 376);
	assert_int_equal(infra_deadline_clamp(&d, 10900, 376), 100);
	assert_int_equal(infra_deadline_clamp(&d, 11000, 376), 0);
	assert_int_equal(infra_deadline_left_ms(&d, 11000), 0);
	assert_int_equal(infra_deadline_left_ms(&d, 20000), 0);
	/* A glueless lookup copies its parent's deadline: the two run out together. */
	struct infra_deadline child = d;
	assert_int_equal(infra_deadline_left_ms(&child, 9000), infra_deadline_left_ms(&d, 9000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_dead_server_avoided_after_first_timeout),
	    cmocka_unit_test(test_dead_delegation_backs_off_and_probes),
	    cmocka_unit_test(test_concurrent_timeouts_count_once),
	    cmocka_unit_test(test_slow_server_rtt_found),
	    cmocka_unit_test(test_fast_preferred_others_explored),
	    cmocka_unit_test(test_table_bounded),
	    cmocka_unit_test(test_deadline),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
