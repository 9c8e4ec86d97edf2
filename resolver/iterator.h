/* resolver/iterator.h - iterative resolution as a state machine without I/O: cache first, then
 * referrals down from the closest zone cut. Each call returns the next step, which the driver
 * (request.c) performs: send a query, start a sub-request, or finish with an rcode. */
#ifndef ALLOCSPIKE_RESOLVER_ITERATOR_H
#define ALLOCSPIKE_RESOLVER_ITERATOR_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "infra.h"
#include "memory.h"
#include "msg.h"

struct resolver;

/* Limits on one request's work (unbound and kresd have the same kinds of limits). */
/* Upstream queries of a client's request and of every lookup it spawns, retries and TCP
 * included: one budget for the whole tree. */
#define ITER_MAX_QUERIES 24
#define ITER_MAX_REFERRALS 16 /* referral depth */
#define ITER_MAX_CNAMES 8     /* CNAME chain length */
#define ITER_MAX_DEPTH 3      /* nested lookups of glueless name server addresses */
#define ITER_MAX_TRIES 2      /* per server before it is skipped */
/* Each query waits what infra_choose says, within cfg.upstream_timeout_min_ms and
 * cfg.upstream_timeout_ms and never past the request's deadline (INFRA_REQUEST_DEADLINE_MS, shared
 * with the lookups it spawns). */
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

struct iter_server {
	struct sockaddr_storage sa;
	socklen_t len;
	uint8_t tries;
	bool failed;
};

/* The zone cut resolution currently works below: its servers, and the NS names whose address
 * is still unknown (glueless delegation). */
struct iter_cut {
	const uint8_t *zone;
	struct iter_server *servers;
	int n_servers, cap_servers;
	const uint8_t **names;
	int n_names, next_name;
	int current; /* index of the server asked last, -1 none */
};

/* One resolution's state. Written by iterator.c only; the driver reads the result (answer,
 * n_answer, soa, has_soa) to build replies. Everything it points to lives in *mem. */
struct iter_state {
	struct resolver *r; /* configuration, cache, random numbers */
	struct rmem *mem;   /* the request's memory */
	const uint8_t *qname;
	uint16_t qtype;
	int depth;          /* 0 for a client's request, parent's + 1 for a glueless NS lookup */
	const uint8_t *cur; /* name being resolved now (after CNAMEs) */
	int cnames, referrals;
	/* Upstream queries sent by this resolution and by the lookups it spawned (added when they
	 * finish), against budget: ITER_MAX_QUERIES for a client's request, what its parent has
	 * left for a spawned lookup, so a whole tree shares one budget. */
	int queries, budget;
	struct infra_deadline deadline; /* the client request's, copied into spawned lookups */
	struct msg_rr *answer;
	int n_answer, cap_answer;
	struct msg_rr soa;
	bool has_soa, has_cut;
	struct iter_cut cut;
};

enum iter_step_kind {
	ITER_STEP_SEND,  /* ask server for (name, type); then iterator_on_reply / _on_timeout */
	ITER_STEP_SPAWN, /* look (name, type) up in a sub-request; then iterator_on_subrequest */
	ITER_STEP_DONE   /* finished with rcode; the answer is in the state */
};

struct iter_step {
	enum iter_step_kind kind;
	const uint8_t *name; /* SEND, SPAWN */
	uint16_t type;
	const struct sockaddr *server; /* SEND; valid until the next iterator call */
	socklen_t server_len;
	/* SEND: infra's choice of the server, its timeout_ms what the query waits (capped, clamped
	 * to the deadline); the driver reports the outcome to infra with it. */
	struct infra_choice choice;
	int rcode; /* DONE */
};

/* Pure classification of reply m from a server for `zone`, asked (name, qtype); used by
 * iterator_on_reply and the unit tests. Records outside `zone` are ignored (bailiwick).
 * *final receives the name the reply ends at after in-zone CNAMEs. */
enum iter_class iterator_classify(const struct msg *m, const uint8_t *zone, const uint8_t *name,
                                  uint16_t qtype, const uint8_t **final);
/* A record from a server for zone may be believed only when its owner is inside zone. */
bool iterator_in_bailiwick(const uint8_t *owner, const uint8_t *zone);

/* A fresh resolution of (qname, type) with its memory in mem (qname must live there as long).
 * depth and budget: 0 and ITER_MAX_QUERIES for a client's question. */
void iterator_init(struct iter_state *st, struct resolver *r, struct rmem *mem,
                   const uint8_t *qname, uint16_t qtype, int depth, int budget);
/* A spawned lookup ends when the request that spawned it must: st takes parent's deadline. */
void iterator_share_deadline(struct iter_state *st, const struct iter_state *parent);
/* Completes the resolution from the cache if it can (following cached CNAMEs): true with the
 * final *rcode. */
bool iterator_from_cache(struct iter_state *st, int *rcode);
/* RFC 8482 §4.2: ANY is answered with one synthesized HINFO record ("RFC8482", "") instead of
 * everything the name holds, without asking anyone. Returns the rcode. */
int iterator_answer_any(struct iter_state *st);

/* What to do next: closest zone cut, a server to ask (infra_choose among this cut's usable
 * servers), a glueless name to look up, or SERVFAIL (nothing left, or the deadline spent). */
struct iter_step iterator_next(struct iter_state *st);
/* A reply to the query of the last SEND step; m and ldns are released here. */
struct iter_step iterator_on_reply(struct iter_state *st, struct msg *m, void *ldns);
/* No usable reply to the last SEND step (timeout, error, bad TCP answer): ask again. */
struct iter_step iterator_on_timeout(struct iter_state *st);
/* The last SEND step's query could not be sent: that server is skipped. */
struct iter_step iterator_on_send_failed(struct iter_state *st);
/* The sub-request of the last SPAWN step could not be started: on to the next name or server. */
struct iter_step iterator_on_spawn_failed(struct iter_state *st);
/* The sub-request of the last SPAWN step finished (its answer, if any, is in the cache). */
struct iter_step iterator_on_subrequest(struct iter_state *st);

/* One more upstream packet went out for this resolution (the first try, or TCP after TC). */
void iterator_count_query(struct iter_state *st);
/* A finished sub-request spent `queries` of the budget this resolution gave it. */
void iterator_add_queries(struct iter_state *st, int queries);
/* Queries left in the budget (what a sub-request may spend). */
int iterator_budget_left(const struct iter_state *st);

#endif
