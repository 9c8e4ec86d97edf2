/* resolver/request.c - request lifecycle: parse, cache hit, coalescing of identical questions,
 * the driver performing the iterator's steps, answer, free. */
#include "request.h"

#include <event2/event.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "acl.h"
#include "dname.h"
#include "infra.h"
#include "overload.h"
#include "resolver.h"
#include "server.h"
#include "stats.h"
#include "upstream.h"

/* The fields here are request.c's; iter belongs to iterator.c (request.c reads the question,
 * the query count and the result) and upstream to upstream.c. */
struct request {
	struct resolver *r;
	struct rmem mem;
	struct request *hnext; /* coalescing table chain */
	uint32_t hash;
	bool in_table;
	struct waiter *waiters;
	int n_waiters;
	void *query_ldns;     /* heap layout: the client's query as ldns parsed it */
	uint8_t *answer_wire; /* kresd layout: the answer packet, sized for the first client */
	size_t answer_cap;
	struct event *resume_ev;
	/* The lookup this request waits on (ITER_STEP_SPAWN), so that replacing this request
	 * (overload.h) can detach it; NULL when none. */
	struct request *lookup;
	/* A client request's place in the overload policy's list. */
	struct overload_entry slot;
	/* The query in flight, for infra's report of its outcome: the server (pointing into the
	 * iterator's zone cut, unchanged until the iterator hears the outcome), infra's choice, and
	 * when it was sent. */
	const struct sockaddr *asked;
	socklen_t asked_len;
	struct infra_choice asked_choice;
	uint64_t asked_ms;
	struct iter_state iter;
	struct upstream_link upstream;
};

/* Requests in flight, keyed by (name, type): a second client asking the same question while
 * it is being resolved waits on the first request instead of starting its own. */
struct request_table {
	struct request **buckets;
	size_t mask, count;
	size_t count_max;         /* the most in flight since the last request_inflight_take_max */
	struct overload overload; /* who of the new client requests is admitted */
};

static uint8_t request_tx[65536];

struct request_table *request_table_create(const struct resolver_config *cfg)
{
	struct request_table *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	overload_init(&t->overload, cfg->overload_policy, (size_t)cfg->request_list,
	              (uint64_t)cfg->jostle_timeout_ms);
	size_t n = 1024;
	while (n < (size_t)cfg->max_inflight && n < ((size_t)1 << 20))
		n <<= 1;
	t->buckets = calloc(n, sizeof(*t->buckets));
	if (!t->buckets) {
		free(t);
		return NULL;
	}
	t->mask = n - 1;
	return t;
}

size_t request_inflight(const struct resolver *r)
{
	return r->requests ? r->requests->count : 0;
}

size_t request_inflight_take_max(struct resolver *r)
{
	if (!r->requests)
		return 0;
	size_t max = r->requests->count_max;
	r->requests->count_max = r->requests->count;
	return max;
}

const struct overload *request_overload(const struct resolver *r)
{
	return &r->requests->overload;
}

static uint32_t request_hash(const uint8_t *name, uint16_t type)
{
	return dname_hash(name, type);
}

static struct request *request_table_find(struct request_table *t, const uint8_t *name,
                                          uint16_t type)
{
	uint32_t h = request_hash(name, type);
	for (struct request *q = t->buckets[h & t->mask]; q; q = q->hnext)
		if (q->hash == h && q->iter.qtype == type && dname_equal(q->iter.qname, name))
			return q;
	return NULL;
}

static void request_table_insert(struct request_table *t, struct request *q)
{
	q->hash = request_hash(q->iter.qname, q->iter.qtype);
	struct request **b = &t->buckets[q->hash & t->mask];
	q->hnext = *b;
	*b = q;
	q->in_table = true;
	if (++t->count > t->count_max)
		t->count_max = t->count;
}

static void request_table_remove(struct request_table *t, struct request *q)
{
	struct request **pp = &t->buckets[q->hash & t->mask];
	while (*pp && *pp != q)
		pp = &(*pp)->hnext;
	if (*pp) {
		*pp = q->hnext;
		t->count--;
	}
	q->in_table = false;
}

static struct request *request_new(struct resolver *r)
{
	struct rmem mem;
	if (rmem_init(&mem, r->cfg.layout) < 0)
		return NULL;
	/* The request itself is the first object of its own memory (in the pool for kresd). */
	struct request *q = rmem_calloc(&mem, sizeof(*q));
	if (!q) {
		rmem_release(&mem);
		return NULL;
	}
	q->mem = mem;
	q->r = r;
	upstream_link_init(&q->upstream, r, &q->mem, q);
	return q;
}

/* q no longer waits for its lookup: the lookup carries on (its answer still fills the cache) but
 * resumes nobody. */
static void request_detach_lookup(struct request *q)
{
	struct request *child = q->lookup;
	if (!child)
		return;
	for (struct waiter **pp = &child->waiters; *pp; pp = &(*pp)->next)
		if ((*pp)->parent == q) {
			*pp = (*pp)->next;
			child->n_waiters--;
			break;
		}
	q->lookup = NULL;
}

/* q goes away while parents still wait on it (the table torn down at exit, in any order): they
 * must not reach into it afterwards. */
static void request_orphan_parents(struct request *q)
{
	for (struct waiter *w = q->waiters; w; w = w->next)
		if (w->parent && w->parent->lookup == q)
			w->parent->lookup = NULL;
}

/* Every client waiter releases its route once, answered or not. */
static void request_release_clients(struct request *q)
{
	for (struct waiter *w = q->waiters; w; w = w->next)
		if (!w->parent)
			server_release(q->r, &w->route);
}

static void request_free(struct request *q)
{
	request_release_clients(q);
	overload_leave(&q->r->requests->overload, &q->slot);
	request_detach_lookup(q);
	request_orphan_parents(q);
	upstream_cancel(&q->upstream);
	if (q->resume_ev)
		event_del(q->resume_ev);
	if (q->in_table)
		request_table_remove(q->r->requests, q);
	if (q->query_ldns) {
		struct msg none = {0};
		msg_release(&q->mem, &none, q->query_ldns);
	}
	struct rmem mem = q->mem;
	rmem_release(&mem);
}

void request_table_destroy(struct resolver *r)
{
	struct request_table *t = r->requests;
	if (!t)
		return;
	for (size_t i = 0; i <= t->mask; i++)
		while (t->buckets[i])
			request_free(t->buckets[i]);
	free(t->buckets);
	free(t);
	r->requests = NULL;
}

/* Over UDP without EDNS 512 bytes (RFC 1035 §4.2.1); with it the client's size (RFC 6891 §6.2.5),
 * but never past --max-udp-size: big UDP answers fragment, and fragments can be spoofed
 * (unbound's and kresd's 1232). Over a stream the largest message there is (RFC 7766 §8). */
static size_t request_answer_limit(const struct resolver *r, const struct waiter *w)
{
	if (w->route.fd < 0)
		return 65535;
	size_t limit = 512, max_udp = (size_t)r->cfg.max_udp_size;
	if (w->edns && w->udp_size > limit)
		limit = w->udp_size;
	return limit > max_udp ? max_udp : limit;
}

size_t request_build_answer(const struct iter_state *res, const struct waiter *w, int rcode,
                            uint8_t *buf, size_t cap)
{
	size_t limit = request_answer_limit(res->r, w), max_udp = (size_t)res->r->cfg.max_udp_size;
	if (limit > cap)
		limit = cap;
	/* an extended rcode's upper bits go into the OPT (wire_put_opt) */
	uint16_t flags =
	    (uint16_t)(MSG_QR | MSG_RA | (w->flags & (MSG_RD | MSG_CD)) | (rcode & 0xF));
	struct wire_writer wr;
	/* The class is IN: clients asking another one are dropped (request_query_acceptable). */
	wire_begin(&wr, buf, limit, w->id, flags, w->qname, res->qtype, CLASS_IN);
	if (rcode != RCODE_SERVFAIL) {
		for (int i = 0; i < res->n_answer; i++) {
			const struct msg_rr *rr = &res->answer[i];
			wire_put_rr(&wr, MSG_ANSWER, rr->owner, rr->type, rr->rclass, rr->ttl,
			            rr->rdata, rr->rdlen);
		}
		if (res->has_soa)
			wire_put_rr(&wr, MSG_AUTHORITY, res->soa.owner, TYPE_SOA, CLASS_IN,
			            res->soa.ttl, res->soa.rdata, res->soa.rdlen);
	}
	if (w->edns)
		wire_put_opt(&wr, (uint16_t)max_udp, rcode, false);
	size_t len = wire_finish(&wr);
	if (len)
		return len;
	/* Too big for the client's buffer: header and question with TC, so it retries on TCP. */
	wire_begin(&wr, buf, limit, w->id, flags | MSG_TC, w->qname, res->qtype, CLASS_IN);
	if (w->edns)
		wire_put_opt(&wr, (uint16_t)max_udp, rcode, false);
	return wire_finish(&wr);
}

static void request_finish(struct request *q, int rcode);
static int request_start_lookup(struct request *parent, const uint8_t *name, uint16_t type);

/* The driver: performs the iterator's steps until one waits for a reply or a sub-request, or the
 * resolution is done. */
static void request_perform(struct request *q, struct iter_step step)
{
	for (;;) {
		switch (step.kind) {
		case ITER_STEP_SEND:
			q->asked = step.server;
			q->asked_len = step.server_len;
			q->asked_choice = step.choice;
			q->asked_ms = resolver_now_ms();
			if (upstream_send(&q->upstream, step.name, step.type, step.server,
			                  step.server_len, step.choice.timeout_ms) == 0)
				return;
			step = iterator_on_send_failed(&q->iter);
			break;
		case ITER_STEP_SPAWN:
			if (request_start_lookup(q, step.name, step.type) == 0)
				return;
			step = iterator_on_spawn_failed(&q->iter);
			break;
		case ITER_STEP_DONE:
			request_finish(q, step.rcode);
			return;
		}
	}
}

void request_upstream_sent(void *ctx)
{
	struct request *q = ctx;
	iterator_count_query(&q->iter);
}

/* Reported before the iterator hears the outcome: q->asked points into its zone cut. */
void request_upstream_reply(void *ctx, struct msg *m, void *ldns)
{
	struct request *q = ctx;
	uint64_t now_ms = resolver_now_ms();
	infra_report_reply(q->r->infra, q->asked, q->asked_len, (int)(now_ms - q->asked_ms),
	                   now_ms);
	request_perform(q, iterator_on_reply(&q->iter, m, ldns));
}

/* Every failure counts against the server as a timeout: no reply in time, unreachable, or a bad
 * answer over TCP all say it is not worth asking soon. */
void request_upstream_failed(void *ctx)
{
	struct request *q = ctx;
	infra_report_timeout(q->r->infra, q->asked, q->asked_len, &q->asked_choice,
	                     resolver_now_ms());
	request_perform(q, iterator_on_timeout(&q->iter));
}

static void request_on_resume(evutil_socket_t fd, short what, void *arg)
{
	struct request *q = arg;
	request_perform(q, iterator_on_subrequest(&q->iter));
}

/* Resumes a parent from the event loop, never from inside the child's completion, so the
 * parent's state is never re-entered while one of its own calls is on the stack. */
static void request_resume(struct request *parent)
{
	if (!parent->resume_ev) {
		parent->resume_ev = rmem_alloc(&parent->mem, event_get_struct_event_size());
		if (!parent->resume_ev)
			return;
		event_assign(parent->resume_ev, parent->r->base, -1, 0, request_on_resume, parent);
	}
	event_active(parent->resume_ev, EV_TIMEOUT, 1);
}

/* Answers every waiter with q's result (rcode and the iterator's answer) and frees q. */
static void request_finish(struct request *q, int rcode)
{
	struct resolver *r = q->r;
	upstream_cancel(&q->upstream);
	if (q->in_table)
		request_table_remove(r->requests, q);
	for (struct waiter *w = q->waiters; w; w = w->next) {
		if (w->parent) {
			/* one budget for the whole tree; request_free clears the parent's lookup
			 * before its resume runs from the loop */
			iterator_add_queries(&w->parent->iter, q->iter.queries);
			request_resume(w->parent);
			continue;
		}
		uint8_t *buf = request_tx;
		size_t cap = sizeof(request_tx);
		if (q->answer_wire && request_answer_limit(r, w) <= q->answer_cap) {
			buf = q->answer_wire;
			cap = q->answer_cap;
		}
		size_t len = request_build_answer(&q->iter, w, rcode, buf, cap);
		if (len && server_send(r, &w->route, buf, len) == 0)
			stats_count_answer(&r->stats, rcode);
	}
	request_free(q);
}

static bool request_query_acceptable(const struct msg *m)
{
	return !(m->flags & MSG_QR) && MSG_OPCODE(m->flags) == 0 && m->qclass == CLASS_IN;
}

/* Types a resolver does not look up: 0, OPT, and the meta and question-only range 128-254
 * (TKEY, TSIG, IXFR, AXFR, MAILB, MAILA among them; RFC 6895 §3.1). ANY (255) is answered. */
static bool request_type_refused(uint16_t qtype)
{
	return qtype == 0 || qtype == TYPE_OPT || (qtype >= 128 && qtype < TYPE_ANY);
}

/* RFC 6891: FORMERR for a malformed OPT (§6.1.1), BADVERS for an EDNS version other than 0
 * (§6.1.3, the only one there is), else NOERROR. */
static int request_edns_rcode(const struct msg *m)
{
	if (m->edns_malformed)
		return RCODE_FORMERR;
	if (m->has_edns && m->edns_version != 0)
		return RCODE_BADVERS;
	return RCODE_NOERROR;
}

/* Whether a new client request may start: under the hard ceiling (--max-inflight) and admitted
 * by the overload policy, which may replace an old request (freed here, its clients unanswered,
 * as unbound does). Called from the event loop only, so no request is on the stack. */
static bool request_admit(struct resolver *r)
{
	if (r->requests->count >= (size_t)r->cfg.max_inflight)
		return false;
	struct overload_entry *victim;
	switch (overload_admit(&r->requests->overload, resolver_now_ms(), &victim)) {
	case OVERLOAD_ADMIT:
		return true;
	case OVERLOAD_REPLACE:
		request_free((struct request *)((char *)victim - offsetof(struct request, slot)));
		return true;
	case OVERLOAD_DROP:
		break;
	}
	return false;
}

int request_handle_query(struct resolver *r, const struct route *from, const uint8_t *wire,
                         size_t len)
{
	struct request *q = request_new(r);
	if (!q) {
		r->stats.dropped_overload++;
		return 0;
	}
	const uint8_t *data = wire;
	if (r->cfg.layout == LAYOUT_KRESD)
		data =
		    rmem_memdup(&q->mem, wire, len); /* kresd keeps the query packet in the pool */
	struct msg m;
	void *ldns = NULL;
	if (!data || msg_parse_layout(data, len, &q->mem, &m, &ldns) < 0 ||
	    !request_query_acceptable(&m)) {
		r->stats.dropped_malformed++;
		q->query_ldns = ldns;
		request_free(q);
		return -1;
	}
	r->stats.queries++;
	q->query_ldns = ldns;
	iterator_init(&q->iter, r, &q->mem, m.qname, m.qtype, 0, ITER_MAX_QUERIES);
	struct waiter *w = rmem_calloc(&q->mem, sizeof(*w));
	if (!w) {
		request_free(q);
		return 0;
	}
	w->route = *from;
	server_hold(r, &w->route);
	w->id = m.id;
	w->flags = m.flags;
	w->edns = m.has_edns;
	w->edns_do = m.edns_do;
	w->udp_size = m.edns_udp;
	w->qname = m.qname;
	q->waiters = w;
	q->n_waiters = 1;
	if (r->cfg.layout == LAYOUT_KRESD) {
		/* kresd allocates the answer packet (the client's EDNS size, at least 512) in the
		 * request's pool (lib/resolve.c kr_request_ensure_answer). */
		q->answer_cap = request_answer_limit(r, w);
		q->answer_wire = rmem_alloc(&q->mem, q->answer_cap);
		if (!q->answer_wire) {
			request_free(q);
			return 0;
		}
	}

	if (!acl_allows(&r->cfg.allow, (const struct sockaddr *)&from->addr)) {
		request_finish(q, RCODE_REFUSED);
		return 0;
	}
	int edns_rcode = request_edns_rcode(&m);
	if (edns_rcode != RCODE_NOERROR) {
		request_finish(q, edns_rcode);
		return 0;
	}
	if (request_type_refused(m.qtype)) {
		request_finish(q, RCODE_REFUSED);
		return 0;
	}
	if (m.qtype == TYPE_ANY) {
		request_finish(q, iterator_answer_any(&q->iter));
		return 0;
	}
	int rcode;
	if (iterator_from_cache(&q->iter, &rcode)) {
		r->stats.cache_hits++;
		request_finish(q, rcode);
		return 0;
	}
	r->stats.cache_misses++;
	struct request *same = request_table_find(r->requests, m.qname, m.qtype);
	if (same && same->n_waiters >= REQUEST_MAX_WAITERS) {
		r->stats.dropped_overload++;
		request_free(q);
		return 0;
	}
	if (same) {
		struct waiter *copy = rmem_memdup(&same->mem, w, sizeof(*w));
		if (copy)
			copy->qname = rmem_memdup(&same->mem, w->qname, dname_len(w->qname));
		if (copy && copy->qname) {
			server_hold(r, &copy->route);
			copy->next = same->waiters;
			same->waiters = copy;
			same->n_waiters++;
		}
		request_free(q);
		return 0;
	}
	if (!request_admit(r)) {
		r->stats.dropped_overload++;
		request_free(q);
		return 0;
	}
	overload_enter(&r->requests->overload, &q->slot, resolver_now_ms());
	request_table_insert(r->requests, q);
	request_perform(q, iterator_next(&q->iter));
	return 0;
}

/* Starts an internal request for (name, type) whose completion resumes parent (from the event
 * loop), counted against --max-inflight and spending the parent's query budget. 0 when started
 * (it may already be finished), -1 when it could not be. */
static int request_start_lookup(struct request *parent, const uint8_t *name, uint16_t type)
{
	struct resolver *r = parent->r;
	if (iterator_budget_left(&parent->iter) <= 0)
		return -1;
	if (r->requests->count >= (size_t)r->cfg.max_inflight) {
		r->stats.dropped_overload++;
		return -1;
	}
	struct request *q = request_new(r);
	if (!q)
		return -1;
	const uint8_t *qname = rmem_memdup(&q->mem, name, dname_len(name));
	struct waiter *w = rmem_calloc(&q->mem, sizeof(*w));
	if (!qname || !w) {
		request_free(q);
		return -1;
	}
	iterator_init(&q->iter, r, &q->mem, qname, type, parent->iter.depth + 1,
	              iterator_budget_left(&parent->iter));
	iterator_share_deadline(&q->iter, &parent->iter);
	w->parent = parent;
	q->waiters = w;
	q->n_waiters = 1;
	int rcode;
	if (iterator_from_cache(&q->iter, &rcode)) {
		request_finish(q, rcode); /* the parent resumes from the event loop */
		return 0;
	}
	parent->lookup = q;
	request_table_insert(r->requests, q);
	request_perform(q, iterator_next(&q->iter));
	return 0;
}

int request_inject_reply(struct resolver *r, const uint8_t *name, uint16_t type, uint8_t *wire,
                         size_t len)
{
	struct request *q = request_table_find(r->requests, name, type);
	return q ? upstream_inject(&q->upstream, wire, len) : -1;
}
