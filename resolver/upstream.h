/* resolver/upstream.h - queries to authoritative servers: random ID and port, strict matching,
 * timeout, TCP on TC. Knows nothing of requests: it reports through the handlers wiring.c put in
 * struct resolver's upstream. */
#ifndef ALLOCSPIKE_RESOLVER_UPSTREAM_H
#define ALLOCSPIKE_RESOLVER_UPSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "memory.h"
#include "msg.h"

struct resolver;
struct upstream_query;

/* What a link reports, each with the link's ctx. After reply or failure nothing is pending. */
struct upstream_handlers {
	/* One more packet went out: the query, or its TCP retry after TC. */
	void (*sent)(void *ctx);
	/* The matching reply, parsed; the handler owns m and ldns (msg_release). */
	void (*reply)(void *ctx, struct msg *m, void *ldns);
	/* No usable reply: timeout, unreachable server, bad TCP answer. */
	void (*failed)(void *ctx);
};

/* One requester's way to the authoritative servers: at most one query in flight. Its fields
 * belong to upstream.c; the query state is allocated from mem on the first send and reused by
 * the later ones. */
struct upstream_link {
	struct resolver *r;
	struct rmem *mem;
	void *ctx;
	struct upstream_query *uq;       /* the query in flight, NULL when none */
	struct upstream_query *uq_store; /* its memory, reused by the next query */
};

void upstream_link_init(struct upstream_link *l, struct resolver *r, struct rmem *mem, void *ctx);
/* Sends (name, type) to `to` from a fresh socket (the kernel picks a random ephemeral port), with
 * a random ID, RD clear, EDNS0; name must live until the reply. A reply is accepted only from
 * `to`, with the same ID and question, within timeout_ms (twice that over TCP after truncation).
 * Returns 0 (sent, then reply or failed follows), or -1 when the query could not be sent (no
 * handler follows). */
int upstream_send(struct upstream_link *l, const uint8_t *name, uint16_t type,
                  const struct sockaddr *to, socklen_t tolen, int timeout_ms);
/* Forgets the outstanding query, if any (closes its socket). */
void upstream_cancel(struct upstream_link *l);
bool upstream_pending(const struct upstream_link *l);

/* Validates a received upstream packet's wire against what was asked, before it is parsed or
 * copied: same ID, QR set, QUERY opcode, one question equal to ours (name compared
 * case-insensitively, type, class IN). 0 or -1. Exposed for tests and the fuzzer. */
int upstream_match(const uint8_t *wire, size_t len, uint16_t id, const uint8_t *qname,
                   uint16_t qtype);

/* Delivers wire as the reply to the link's outstanding query, its ID overwritten with the one
 * sent (the fuzzer's way in; with cfg.upstream_offline nothing is ever sent). -1: nothing
 * pending. */
int upstream_inject(struct upstream_link *l, uint8_t *wire, size_t len);

#define UPSTREAM_EDNS_SIZE 1232

#endif
