/* loadgen/matcher.c - matches answers to queries by source port, ID and question, and gives up on
 * late ones. */
#include "matcher.h"

#include <stdlib.h>

#define DNS_HEADER 12

bool matcher_init(struct matcher *m, unsigned ports, uint64_t timeout_ns, struct counters *c,
                  const struct querystream *queries)
{
	*m = (struct matcher){.ports = ports,
	                      .slots = (uint64_t)ports * 65536,
	                      .timeout_ns = timeout_ns,
	                      .counters = c,
	                      .queries = queries};
	m->sent_ns = calloc(m->slots, sizeof(*m->sent_ns));
	return m->sent_ns != NULL;
}

void matcher_free(struct matcher *m)
{
	free(m->sent_ns);
	m->sent_ns = NULL;
}

static void matcher_give_up(struct matcher *m, uint64_t slot)
{
	m->sent_ns[slot] = 0;
	m->outstanding--;
	counters_add(&m->counters->timeouts, 1);
}

void matcher_sent(struct matcher *m, uint64_t k, uint64_t now_ns)
{
	/* the slot comes round again: whatever still holds it is lost */
	while (m->oldest + m->slots <= k) {
		uint64_t slot = m->oldest % m->slots;
		if (m->sent_ns[slot])
			matcher_give_up(m, slot);
		m->oldest++;
	}
	m->sent_ns[k % m->slots] = now_ns + 1;
	m->outstanding++;
	if (k + 1 > m->next) /* a batch hands its queries over port by port */
		m->next = k + 1;
}

/* The query a busy slot holds. Every outstanding query lies in [next - slots, next) (matcher_sent
 * gives up older ones), where each slot is the slot of exactly one query number. */
static uint64_t matcher_query_of(const struct matcher *m, uint64_t slot)
{
	uint64_t base = m->next > m->slots ? m->next - m->slots : 0;
	return base + (slot + m->slots - base % m->slots) % m->slots;
}

/* Length of the uncompressed name at the start of wire (within have bytes), or 0. */
static size_t matcher_name_len(const uint8_t *wire, size_t have)
{
	size_t i = 0;
	while (i < have && wire[i] != 0) {
		if (wire[i] > 63) /* a compression pointer cannot start a question's name */
			return 0;
		i += 1 + wire[i];
	}
	return i < have ? i + 1 : 0;
}

static uint8_t matcher_fold(uint8_t c)
{
	return c >= 'A' && c <= 'Z' ? (uint8_t)(c | 0x20) : c;
}

bool matcher_same_question(const uint8_t *query, size_t query_len, const uint8_t *answer,
                           size_t have)
{
	if (query_len < DNS_HEADER || have < DNS_HEADER || answer[4] != 0 || answer[5] != 1)
		return false;
	size_t name = matcher_name_len(query + DNS_HEADER, query_len - DNS_HEADER);
	if (name == 0 || have < DNS_HEADER + name + 4)
		return false;
	const uint8_t *q = query + DNS_HEADER, *a = answer + DNS_HEADER;
	/* length octets are at most 63, below 'A', so folding every octet leaves them alone */
	for (size_t i = 0; i < name; i++)
		if (matcher_fold(q[i]) != matcher_fold(a[i]))
			return false;
	return q[name] == a[name] && q[name + 1] == a[name + 1] && q[name + 2] == a[name + 2] &&
	       q[name + 3] == a[name + 3];
}

static void matcher_rcode(struct counters *c, unsigned rcode)
{
	switch (rcode) {
	case 0:
		counters_add(&c->noerror, 1);
		break;
	case 2:
		counters_add(&c->servfail, 1);
		break;
	case 3:
		counters_add(&c->nxdomain, 1);
		break;
	default:
		counters_add(&c->rcode_other, 1);
	}
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
	uint64_t sent = m->sent_ns[slot];
	if (!sent) {
		counters_add(&c->unexpected, 1);
		return false;
	}
	size_t qlen;
	const uint8_t *query = querystream_message(m->queries, matcher_query_of(m, slot), &qlen);
	if (!matcher_same_question(query, qlen, msg, have)) {
		/* the slot's own answer may still come: the query stays outstanding */
		counters_add(&c->late_or_foreign, 1);
		return false;
	}
	m->sent_ns[slot] = 0;
	m->outstanding--;
	counters_add(&c->answered, 1);
	matcher_rcode(c, msg[3] & 0x0f);
	sent--;
	latency_hist_add(&c->latency, now_ns > sent ? now_ns - sent : 0);
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
