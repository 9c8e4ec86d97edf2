/* resolver/upstream.h - queries to authoritative servers: random ID and port, strict matching,
 * timeout, TCP on TC. */
#ifndef ALLOCSPIKE_RESOLVER_UPSTREAM_H
#define ALLOCSPIKE_RESOLVER_UPSTREAM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct request;

/* Sends (q->cur, q->qtype) to `to` from a fresh socket (the kernel picks a random ephemeral
 * port), with a random ID, RD clear, EDNS0. A reply is accepted only from `to`, with the same ID
 * and question; then iterator_on_answer() runs. No reply in time: iterator_on_timeout().
 * Returns 0, or -1 when the query could not be sent (no callback follows). */
int upstream_send(struct request *q, const struct sockaddr *to, socklen_t tolen);
/* Forgets q's outstanding query, if any (closes its socket). */
void upstream_cancel(struct request *q);

/* Validates a received upstream packet's wire against what was asked, before it is parsed or
 * copied: same ID, QR set, QUERY opcode, one question equal to ours (name compared
 * case-insensitively, type, class IN). 0 or -1. Exposed for tests and the fuzzer. */
int upstream_match(const uint8_t *wire, size_t len, uint16_t id, const uint8_t *qname,
                   uint16_t qtype);

/* Delivers wire as the reply to q's outstanding query, its ID overwritten with the one sent
 * (the fuzzer's way in; with cfg.upstream_offline nothing is ever sent). -1: nothing pending. */
int upstream_inject(struct request *q, uint8_t *wire, size_t len);

#define UPSTREAM_EDNS_SIZE 1232

#endif
