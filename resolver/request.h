/* resolver/request.h - one resolution's lifetime: its memory, its waiting clients, coalescing, the
 * answer. */
#ifndef ALLOCSPIKE_RESOLVER_REQUEST_H
#define ALLOCSPIKE_RESOLVER_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "memory.h"
#include "msg.h"
#include "resolver.h"

/* Who gets the answer: a client (address, ID, EDNS size) or a parent request that needs this
 * name's address to reach a glueless name server. */
struct waiter {
	struct waiter *next;
	struct request *parent;
	struct sockaddr_storage addr;
	socklen_t addrlen;
	int fd;
	uint16_t id, flags;
	bool edns, edns_do;
	uint16_t udp_size;
	const uint8_t *qname; /* as the client spelled it */
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

struct upstream_query;
struct event;

struct request {
	struct resolver *r;
	struct rmem mem;
	struct request *hnext; /* coalescing table chain */
	uint32_t hash;
	bool in_table, internal;
	const uint8_t *qname;
	uint16_t qtype, qclass;
	int depth; /* 0 for a client's request, parent's + 1 for a glueless NS lookup */
	struct waiter *waiters;
	int n_waiters;
	void *query_ldns; /* heap layout: the client's query as ldns parsed it */
	struct event *resume_ev;

	/* resolution state, owned by iterator.c */
	const uint8_t *cur; /* name being resolved now (after CNAMEs) */
	int cnames, referrals;
	/* Upstream queries sent by this request and by the lookups it spawned (added when they
	 * finish), against budget: ITER_MAX_QUERIES for a client's request, what its parent has
	 * left for a spawned lookup, so a whole tree shares one budget. */
	int queries, budget;
	struct msg_rr *answer;
	int n_answer, cap_answer;
	struct msg_rr soa;
	bool has_soa, has_cut, waiting_sub;
	int rcode;
	struct iter_cut cut;
	struct upstream_query *uq;       /* the query in flight, NULL when none */
	struct upstream_query *uq_store; /* its memory, reused by the next query */
};

/* Clients waiting on one resolution at most: past it a new identical question is dropped and
 * counted as overload (memory per request stays bounded). */
#define REQUEST_MAX_WAITERS 256

struct request_table *request_table_create(size_t max_inflight);
/* Frees every request still in flight (shutdown). */
void request_table_destroy(struct resolver *r);
size_t request_inflight(const struct resolver *r);

/* A client datagram arrived on fd: parse, answer from cache, join an identical request in
 * flight, or start a new one. Malformed packets are dropped and counted. */
void request_handle_query(struct resolver *r, int fd, const uint8_t *wire, size_t len,
                          const struct sockaddr *from, socklen_t fromlen);
/* The request in flight for (name, type), if any. */
struct request *request_find(struct resolver *r, const uint8_t *name, uint16_t type);
/* Starts an internal request for (name, type) whose completion resumes parent (from the event
 * loop), counted against --max-inflight and spending the parent's query budget. Returns NULL
 * when it could not be started. */
struct request *request_spawn(struct request *parent, const uint8_t *name, uint16_t type);
/* Answers every waiter with q's result (rcode and q->answer / q->soa) and frees q. */
void request_finish(struct request *q, int rcode);

/* Builds the answer to one client; returns its length (truncated to the header and question
 * with TC when it does not fit the client's UDP size, itself capped by --max-udp-size). */
size_t request_build_answer(const struct request *q, const struct waiter *w, int rcode,
                            uint8_t *buf, size_t cap);

#endif
