/* resolver/iterator.h - iterative resolution: cache first, then referrals down from the closest
 * zone cut. */
#ifndef ALLOCSPIKE_RESOLVER_ITERATOR_H
#define ALLOCSPIKE_RESOLVER_ITERATOR_H

#include <stdbool.h>
#include <stdint.h>

#include "msg.h"

struct request;

/* Limits on one request's work (unbound and kresd have the same kinds of limits). */
/* Upstream queries of a client's request and of every lookup it spawns, retries and TCP
 * included: one budget for the whole tree. */
#define ITER_MAX_QUERIES 24
#define ITER_MAX_REFERRALS 16 /* referral depth */
#define ITER_MAX_CNAMES 8     /* CNAME chain length */
#define ITER_MAX_DEPTH 3      /* nested lookups of glueless name server addresses */
#define ITER_MAX_TRIES 2      /* per server before it is skipped */
/* Name servers without an address looked up per zone cut (unbound's target-fetch-policy looks up
 * 3 at the first level). */
#define ITER_MAX_GLUELESS 3

/* What an authoritative server's reply means for the name being resolved. */
enum iter_class {
	ITER_ANSWER,   /* the RRset asked for (possibly after CNAMEs in the same reply) */
	ITER_CNAME,    /* a CNAME chain leaving this server's zone: go on with its target */
	ITER_NXDOMAIN, /* the (final) name does not exist */
	ITER_NODATA,   /* the name exists, the type does not */
	ITER_REFERRAL, /* a delegation to a zone below the server's */
	ITER_LAME      /* anything else: try another server */
};

/* Pure classification of reply m from a server for `zone`, asked (name, qtype); used by
 * iterator_on_answer and the unit tests. Records outside `zone` are ignored (bailiwick).
 * *final receives the name the reply ends at after in-zone CNAMEs. */
enum iter_class iterator_classify(const struct msg *m, const uint8_t *zone, const uint8_t *name,
                                  uint16_t qtype, const uint8_t **final);
/* A record from a server for zone may be believed only when its owner is inside zone. */
bool iterator_in_bailiwick(const uint8_t *owner, const uint8_t *zone);

/* Completes q from the cache if it can (following cached CNAMEs); true when q->rcode is final. */
bool iterator_from_cache(struct request *q);
/* RFC 8482 §4.2: ANY is answered with one synthesized HINFO record ("RFC8482", "") instead of
 * everything the name holds, without asking anyone. Returns the rcode. */
int iterator_answer_any(struct request *q);
/* Continues resolution: finds the closest zone cut, picks a server, sends. May finish q. */
void iterator_run(struct request *q);
/* Callbacks from upstream.c and request.c; each may finish q. */
void iterator_on_answer(struct request *q, struct msg *m, void *ldns);
void iterator_on_timeout(struct request *q);
void iterator_on_subrequest(struct request *q);

#endif
