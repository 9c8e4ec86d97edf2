/* loadgen/matcher.c - matches answers to queries by source port, ID and question, and gives up on
 * late ones. */
#include "matcher.h"

#include <stdlib.h>

#include "question.h"

#define DNS_HEADER 12
#define DNS_FLAG_TC 0x02 /* in the header's third byte */

bool matcher_init(struct matcher *m, unsigned ports, uint64_t timeout_ns, struct counters *c)
{
	*m = (struct matcher){.ports = ports,
	                      .slots = (uint64_t)ports * 65536,
	                      .timeout_ns = timeout_ns,
	                      .counters = c};
	m->sent_ns = calloc(m->slots, sizeof(*m->sent_ns));
	m->question = calloc(m->slots, sizeof(*m->question));
	m->instance = calloc(m->slots, sizeof(*m->instance));
	return m->sent_ns && m->question && m->instance;
}

void matcher_free(struct matcher *m)
{
	free(m->sent_ns);
	free(m->question);
	free(m->instance);
	m->sent_ns = NULL;
	m->question = NULL;
	m->instance = NULL;
}

static void matcher_give_up(struct matcher *m, uint64_t slot)
{
	m->sent_ns[slot] = 0;
	m->outstanding--;
	counters_add(&m->counters->timeouts, 1);
	if (m->tallies)
		counters_add(&m->tallies[m->instance[slot]].timeouts, 1);
}

void matcher_sent(struct matcher *m, uint64_t k, uint64_t now_ns, uint32_t question)
{
	/* the slot comes round again: whatever still holds it is lost */
	while (m->oldest + m->slots <= k) {
		uint64_t slot = m->oldest % m->slots;
		if (m->sent_ns[slot])
			matcher_give_up(m, slot);
		m->oldest++;
	}
	m->sent_ns[k % m->slots] = now_ns + 1;
	m->question[k % m->slots] = question;
	m->outstanding++;
	if (m->tallies) {
		m->instance[k % m->slots] = m->instance_now;
		counters_add(&m->tallies[m->instance_now].sent, 1);
	}
	if (k + 1 > m->next) /* a batch hands its queries over port by port */
		m->next = k + 1;
}

static void matcher_rcode(struct counters *c, unsigned rcode)
{
	uint64_t *by_class[] = {[RCODE_NOERROR] = &c->noerror,
	                        [RCODE_NXDOMAIN] = &c->nxdomain,
	                        [RCODE_SERVFAIL] = &c->servfail,
	                        [RCODE_OTHER] = &c->rcode_other};
	counters_add(by_class[rcode_class_of(rcode)], 1);
}

/* False (counted late_or_foreign) unless the answer asks the question of the query waiting in
 * slot: the slot's own answer may still come, so that query stays outstanding. */
static bool matcher_same_question(struct matcher *m, uint64_t slot, const uint8_t *msg, size_t have)
{
	uint32_t question;
	if (question_hash(msg, have, &question) && question == m->question[slot])
		return true;
	counters_add(&m->counters->late_or_foreign, 1);
	if (m->tallies)
		counters_add(&m->tallies[m->instance[slot]].late_or_foreign, 1);
	return false;
}

/* The answer to the query waiting in slot (sent_ns[slot] is its send time + 1): counted, its
 * latency measured, the slot freed. */
static uint64_t matcher_take(struct matcher *m, uint64_t slot, const uint8_t *msg, uint64_t now_ns)
{
	uint64_t sent = m->sent_ns[slot] - 1;
	m->sent_ns[slot] = 0;
	m->outstanding--;
	counters_add(&m->counters->answered, 1);
	matcher_rcode(m->counters, msg[3] & 0x0f);
	uint64_t latency = now_ns > sent ? now_ns - sent : 0;
	latency_hist_add(&m->counters->latency, latency);
	if (m->tallies)
		phase_tally_answer(&m->tallies[m->instance[slot]], msg[3] & 0x0f, latency);
	return latency;
}

/* The query in slot: the one in [oldest, next) that maps to it (there is at most one, since a
 * query is given up when its slot comes round). */
static uint64_t matcher_query_in(const struct matcher *m, uint64_t slot)
{
	return m->oldest + (slot + m->slots - m->oldest % m->slots) % m->slots;
}

bool matcher_answer(struct matcher *m, unsigned port, const uint8_t *msg, size_t have, size_t len,
                    uint64_t now_ns)
{
	struct counters *c = m->counters;
	counters_add(&c->bytes_received, len);
	if (have < DNS_HEADER || !(msg[2] & 0x80)) { /* not a DNS response */
		counters_add(&c->unexpected, 1);
		return false;
	}
	uint16_t id = (uint16_t)(msg[0] << 8 | msg[1]);
	uint64_t slot = matcher_slot_of(m, port, id);
	if (!m->sent_ns[slot]) {
		counters_add(&c->unexpected, 1);
		return false;
	}
	if (!matcher_same_question(m, slot, msg, have))
		return false;
	if (msg[2] & DNS_FLAG_TC) {
		counters_add(&c->truncated, 1);
		if (m->retry_truncated) { /* as a stub does: the same query again over TCP */
			counters_add(&c->tc_retried, 1);
			m->retry_truncated(m->retry_arg, matcher_query_in(m, slot));
			return false;
		}
	}
	matcher_take(m, slot, msg, now_ns);
	return true;
}

bool matcher_answer_query(struct matcher *m, uint64_t k, const uint8_t *msg, size_t len,
                          uint64_t now_ns, uint64_t *latency_ns)
{
	struct counters *c = m->counters;
	counters_add(&c->bytes_received, len);
	uint64_t slot = k % m->slots;
	/* k waits when its slot is taken and k is not before the oldest outstanding query (a later
	 * query in the same slot would have given k up) */
	if (len < DNS_HEADER || !(msg[2] & 0x80) || k < m->oldest || k >= m->next ||
	    !m->sent_ns[slot]) {
		counters_add(&c->unexpected, 1);
		return false;
	}
	if (!matcher_same_question(m, slot, msg, len))
		return false;
	*latency_ns = matcher_take(m, slot, msg, now_ns);
	return true;
}

void matcher_expire(struct matcher *m, uint64_t now_ns)
{
	while (m->oldest < m->next) {
		uint64_t slot = m->oldest % m->slots;
		uint64_t sent = m->sent_ns[slot];
		if (sent) {
			if (sent - 1 + m->timeout_ns > now_ns)
				return;
			matcher_give_up(m, slot);
		}
		m->oldest++;
	}
}
