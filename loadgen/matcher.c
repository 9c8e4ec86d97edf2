/* loadgen/matcher.c - matches answers to queries by source port and ID, and gives up on late ones.
 */
#include "matcher.h"

#include <stdlib.h>

bool matcher_init(struct matcher *m, unsigned ports, uint64_t timeout_ns, struct counters *c)
{
	*m = (struct matcher){.ports = ports,
	                      .slots = (uint64_t)ports * 65536,
	                      .timeout_ns = timeout_ns,
	                      .counters = c};
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

bool matcher_answer(struct matcher *m, unsigned port, uint16_t id, unsigned rcode, uint64_t now_ns)
{
	uint64_t slot = matcher_slot_of(m, port, id);
	uint64_t sent = m->sent_ns[slot];
	struct counters *c = m->counters;
	if (!sent) {
		counters_add(&c->unexpected, 1);
		return false;
	}
	m->sent_ns[slot] = 0;
	m->outstanding--;
	counters_add(&c->answered, 1);
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
