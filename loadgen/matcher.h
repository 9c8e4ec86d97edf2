/* loadgen/matcher.h - matches answers to queries by source port, ID and question, and gives up on
 * late ones. */
#ifndef ALLOCSPIKE_LOADGEN_MATCHER_H
#define ALLOCSPIKE_LOADGEN_MATCHER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "counters.h"
#include "phase_tally.h"

/* Query k of the stream goes out in runs of MATCHER_CHUNK consecutive queries per port (so that a
 * batch is one sendmmsg on one socket, not a few on each), with an ID that depends on k only: every
 * target gets the same ID for the same query, and ports * 65536 queries can be outstanding at once.
 * When a slot comes round again while its query is still unanswered, that query counts as a
 * timeout: the generator never waits for a free slot (open loop). Because a slot is reused, port
 * and ID alone do not tell an answer to this query from a late answer to the one before: the
 * question must be the slot's query's too (compared by question_hash). */
#define MATCHER_CHUNK 64

struct matcher {
	unsigned ports;
	uint64_t slots;     /* ports * 65536 */
	uint64_t *sent_ns;  /* per slot: send time + 1, 0 when free */
	uint32_t *question; /* per slot: question_hash of the query in it */
	uint64_t oldest;    /* no query before this one is outstanding */
	uint64_t next;      /* one past the last query handed to matcher_sent */
	uint64_t outstanding;
	uint64_t timeout_ns;
	struct counters *counters;
	/* Per phase instance (docs/run-folder.md, phases.csv): the counts of the queries sent in
	 * it, or NULL for none. Queries handed over are sent in instance_now. */
	struct phase_tally *tallies;
	uint32_t instance_now;
	uint32_t *instance; /* per slot: the instance its query was sent in */
	/* --tc-retry: a UDP answer with TC set to a waiting query is not its answer; the query
	 * (still outstanding, timed from its first send) is handed here to go again over TCP. */
	void (*retry_truncated)(void *arg, uint64_t k);
	void *retry_arg;
};

bool matcher_init(struct matcher *m, unsigned ports, uint64_t timeout_ns, struct counters *c);
void matcher_free(struct matcher *m);

static inline void matcher_slot(const struct matcher *m, uint64_t k, unsigned *port, uint16_t *id)
{
	uint64_t slot = k % m->slots, round = (uint64_t)MATCHER_CHUNK * m->ports;
	uint64_t r = slot % round;
	*port = (unsigned)(r / MATCHER_CHUNK);
	*id = (uint16_t)(slot / round * MATCHER_CHUNK + r % MATCHER_CHUNK);
}

/* The inverse of matcher_slot: the slot of (port, id). */
static inline uint64_t matcher_slot_of(const struct matcher *m, unsigned port, uint16_t id)
{
	return (uint64_t)(id / MATCHER_CHUNK) * MATCHER_CHUNK * m->ports +
	       (uint64_t)port * MATCHER_CHUNK + id % MATCHER_CHUNK;
}

/* Query k, whose question_hash is question, left at now_ns. Within a batch queries come port by
 * port, so k may step back by less than a batch; queries never handed over were not sent. */
void matcher_sent(struct matcher *m, uint64_t k, uint64_t now_ns, uint32_t question);

/* The answer msg (len bytes in all, of which have are at hand, from the start) arrived on port at
 * now_ns. True when it answered the query waiting in its slot; otherwise it counts as unexpected
 * (nothing waiting: late after its timeout, or never asked) or late_or_foreign (something waiting,
 * but another question: a late answer to the slot's previous query, or a stray). */
bool matcher_answer(struct matcher *m, unsigned port, const uint8_t *msg, size_t have, size_t len,
                    uint64_t now_ns);

/* Over TCP the connection knows which query it sent under an ID: the answer msg (len bytes, whole)
 * to query k, taken when k is still waiting and the question is k's (its latency in *latency_ns);
 * otherwise counted as for matcher_answer. TC is not looked at (a TCP answer is never retried). */
bool matcher_answer_query(struct matcher *m, uint64_t k, const uint8_t *msg, size_t len,
                          uint64_t now_ns, uint64_t *latency_ns);

/* Counts queries sent before now_ns - timeout as timeouts and frees their slots. Answers,
 * timeouts and late_or_foreign also count in the tally of the instance the slot's query was sent
 * in. */
void matcher_expire(struct matcher *m, uint64_t now_ns);

#endif
