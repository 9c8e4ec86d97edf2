/* resolver/iterator.c - iterative resolution: cache, closest zone cut, referrals, glue, CNAMEs,
 * negative answers. No I/O: every entry point returns the next step for the driver (request.c). */
#include "iterator.h"

#include <netinet/in.h>
#include <string.h>

#include "cache.h"
#include "dname.h"
#include "resolver.h"
#include "sockaddr_parse.h"

#define ITER_MAX_RRSET 256
#define ITER_ANY_TTL 3600 /* of the synthesized HINFO (RFC 8482 leaves it to the operator) */

static const uint8_t iter_root[1] = {0};

bool iterator_in_bailiwick(const uint8_t *owner, const uint8_t *zone)
{
	return dname_is_sub(owner, zone);
}

/* Records of (owner, type) class IN in a section, from inside zone; returns how many. */
static int iter_collect(const struct msg *m, enum msg_section s, const uint8_t *owner,
                        uint16_t type, const uint8_t *zone, const struct msg_rr **out, int max)
{
	const struct msg_rr *rr = msg_section_rr(m, s);
	int n = 0;
	for (int i = 0; i < m->count[s] && n < max; i++) {
		if (rr[i].type != type || rr[i].rclass != CLASS_IN ||
		    !msg_rdata_fits_type(rr[i].type, rr[i].rdlen))
			continue;
		if (!dname_equal(rr[i].owner, owner) || !iterator_in_bailiwick(rr[i].owner, zone))
			continue;
		out[n++] = &rr[i];
	}
	return n;
}

static const struct msg_rr *iter_find_soa(const struct msg *m, const uint8_t *zone,
                                          const uint8_t *name)
{
	const struct msg_rr *rr = msg_section_rr(m, MSG_AUTHORITY);
	for (int i = 0; i < m->count[MSG_AUTHORITY]; i++)
		if (rr[i].type == TYPE_SOA && rr[i].rclass == CLASS_IN &&
		    iterator_in_bailiwick(rr[i].owner, zone) && dname_is_sub(name, rr[i].owner) &&
		    msg_soa_minimum(rr[i].rdata, rr[i].rdlen) != 0xFFFFFFFFu)
			return &rr[i];
	return NULL;
}

/* The NS set of a delegation below zone that covers name, if the reply has one. */
static const struct msg_rr *iter_find_referral(const struct msg *m, const uint8_t *zone,
                                               const uint8_t *name)
{
	const struct msg_rr *rr = msg_section_rr(m, MSG_AUTHORITY);
	for (int i = 0; i < m->count[MSG_AUTHORITY]; i++)
		if (rr[i].type == TYPE_NS && rr[i].rclass == CLASS_IN &&
		    iterator_in_bailiwick(rr[i].owner, zone) && !dname_equal(rr[i].owner, zone) &&
		    dname_is_sub(name, rr[i].owner))
			return &rr[i];
	return NULL;
}

/* One CNAME step for name inside zone: the target, or NULL. */
static const uint8_t *iter_cname_step(const struct msg *m, const uint8_t *zone, const uint8_t *name,
                                      const struct msg_rr **rr_out)
{
	const struct msg_rr *rr;
	if (iter_collect(m, MSG_ANSWER, name, TYPE_CNAME, zone, &rr, 1) != 1)
		return NULL;
	const uint8_t *target = msg_rdata_name(TYPE_CNAME, rr->rdata, rr->rdlen);
	if (rr_out)
		*rr_out = rr;
	return target;
}

enum iter_class iterator_classify(const struct msg *m, const uint8_t *zone, const uint8_t *name,
                                  uint16_t qtype, const uint8_t **final)
{
	const uint8_t *cur = name;
	const struct msg_rr *tmp;
	*final = name;
	for (int hops = 0; hops <= ITER_MAX_CNAMES; hops++) {
		if (iter_collect(m, MSG_ANSWER, cur, qtype, zone, &tmp, 1) > 0) {
			*final = cur;
			return m->rcode == RCODE_NOERROR || cur != name ? ITER_ANSWER : ITER_LAME;
		}
		if (qtype == TYPE_CNAME)
			break;
		const uint8_t *target = iter_cname_step(m, zone, cur, NULL);
		if (!target)
			break;
		cur = target;
		*final = cur;
		if (!iterator_in_bailiwick(cur, zone))
			return ITER_CNAME;
	}
	if (m->rcode == RCODE_NXDOMAIN)
		return ITER_NXDOMAIN;
	if (m->rcode != RCODE_NOERROR)
		return ITER_LAME;
	if (iter_find_soa(m, zone, cur))
		return ITER_NODATA;
	if (iter_find_referral(m, zone, cur))
		return cur == name ? ITER_REFERRAL : ITER_CNAME;
	if (cur != name)
		return ITER_CNAME;
	if ((m->flags & MSG_AA) && m->count[MSG_ANSWER] == 0)
		return ITER_NODATA;
	return ITER_LAME;
}

/* Answer records live in the request's memory: one object per record (owner + rdata). Every
 * TTL a client sees passes through here or iter_set_soa, fresh or cached: the caps apply. */
static int iter_add_answer(struct iter_state *st, const uint8_t *owner, uint16_t type, uint32_t ttl,
                           const uint8_t *rdata, uint16_t rdlen)
{
	ttl = msg_ttl_cap(ttl, st->r->cfg.max_ttl);
	if (st->n_answer == st->cap_answer) {
		int cap = st->cap_answer ? 2 * st->cap_answer : 8;
		if (cap > 4096)
			return -1;
		struct msg_rr *n = rmem_alloc(st->mem, (size_t)cap * sizeof(*n));
		if (!n)
			return -1;
		if (st->n_answer)
			memcpy(n, st->answer, (size_t)st->n_answer * sizeof(*n));
		rmem_free(st->mem, st->answer);
		st->answer = n;
		st->cap_answer = cap;
	}
	size_t olen = dname_len(owner);
	uint8_t *obj = rmem_alloc(st->mem, olen + rdlen + 1);
	if (!obj)
		return -1;
	memcpy(obj, owner, olen);
	memcpy(obj + olen, rdata, rdlen);
	struct msg_rr *rr = &st->answer[st->n_answer++];
	rr->owner = obj;
	rr->rdata = obj + olen;
	rr->rdlen = rdlen;
	rr->type = type;
	rr->rclass = CLASS_IN;
	rr->ttl = ttl;
	return 0;
}

static int iter_set_soa(struct iter_state *st, const uint8_t *owner, uint32_t ttl,
                        const uint8_t *rdata, uint16_t rdlen)
{
	size_t olen = dname_len(owner);
	uint8_t *obj = rmem_alloc(st->mem, olen + rdlen + 1);
	if (!obj)
		return -1;
	memcpy(obj, owner, olen);
	memcpy(obj + olen, rdata, rdlen);
	st->soa.owner = obj;
	st->soa.rdata = obj + olen;
	st->soa.rdlen = rdlen;
	st->soa.type = TYPE_SOA;
	st->soa.rclass = CLASS_IN;
	st->soa.ttl = msg_ttl_cap(ttl, st->r->cfg.max_negative_ttl);
	st->has_soa = true;
	return 0;
}

static void iter_soa_from_entry(struct iter_state *st, const struct cache_entry *e, uint32_t now)
{
	const uint8_t *owner, *rdata;
	uint16_t rdlen;
	cache_entry_soa(e, &owner, &rdata, &rdlen);
	iter_set_soa(st, owner, cache_entry_ttl(e, now), rdata, rdlen);
}

static int iter_add_entry(struct iter_state *st, const struct cache_entry *e, uint32_t now)
{
	size_t cursor = 0;
	const uint8_t *rdata;
	uint16_t rdlen;
	while (cache_entry_next(e, &cursor, &rdata, &rdlen))
		if (iter_add_answer(st, cache_entry_owner(e), e->type, cache_entry_ttl(e, now),
		                    rdata, rdlen) < 0)
			return -1;
	return 0;
}

static void iter_set_cur(struct iter_state *st, const uint8_t *name)
{
	st->cur = rmem_memdup(st->mem, name, dname_len(name));
	st->has_cut = false;
}

void iterator_init(struct iter_state *st, struct resolver *r, struct rmem *mem,
                   const uint8_t *qname, uint16_t qtype, int depth, int budget)
{
	memset(st, 0, sizeof(*st));
	st->r = r;
	st->mem = mem;
	st->qname = qname;
	st->qtype = qtype;
	st->cur = qname;
	st->depth = depth;
	st->budget = budget;
	st->cut.current = -1;
	infra_deadline_start(&st->deadline, resolver_now_ms(), INFRA_REQUEST_DEADLINE_MS);
}

void iterator_share_deadline(struct iter_state *st, const struct iter_state *parent)
{
	st->deadline = parent->deadline;
}

bool iterator_from_cache(struct iter_state *st, int *rcode)
{
	struct cache *c = st->r->cache;
	uint32_t now = resolver_now();
	for (;;) {
		if (!st->cur) {
			*rcode = RCODE_SERVFAIL;
			return true;
		}
		struct cache_entry *e = cache_get(c, now, st->cur, st->qtype);
		if (e && e->rank >= RANK_AUTH) {
			if (e->kind == CACHE_POSITIVE) {
				*rcode =
				    iter_add_entry(st, e, now) < 0 ? RCODE_SERVFAIL : RCODE_NOERROR;
				return true;
			}
			iter_soa_from_entry(st, e, now);
			*rcode = RCODE_NOERROR;
			return true;
		}
		if (st->qtype != TYPE_CNAME) {
			e = cache_get(c, now, st->cur, TYPE_CNAME);
			if (e && e->rank >= RANK_AUTH && e->kind == CACHE_POSITIVE) {
				size_t cursor = 0;
				const uint8_t *rdata, *target;
				uint16_t rdlen;
				if (!cache_entry_next(e, &cursor, &rdata, &rdlen) ||
				    !(target = msg_rdata_name(TYPE_CNAME, rdata, rdlen)))
					return false;
				if (iter_add_answer(st, st->cur, TYPE_CNAME,
				                    cache_entry_ttl(e, now), rdata, rdlen) < 0 ||
				    ++st->cnames > ITER_MAX_CNAMES) {
					*rcode = RCODE_SERVFAIL;
					return true;
				}
				iter_set_cur(st, target);
				continue;
			}
		}
		e = cache_get(c, now, st->cur, CACHE_TYPE_NXDOMAIN);
		if (e) {
			iter_soa_from_entry(st, e, now);
			*rcode = RCODE_NXDOMAIN;
			return true;
		}
		return false;
	}
}

int iterator_answer_any(struct iter_state *st)
{
	static const uint8_t hinfo[] = {7, 'R', 'F', 'C', '8', '4', '8', '2', 0};
	if (iter_add_answer(st, st->qname, TYPE_HINFO, ITER_ANY_TTL, hinfo, sizeof(hinfo)) < 0)
		return RCODE_SERVFAIL;
	return RCODE_NOERROR;
}

static void iter_cut_reset(struct iter_state *st)
{
	struct iter_cut *cut = &st->cut;
	if (cut->zone != iter_root)
		rmem_free(st->mem, (void *)cut->zone);
	for (int i = 0; i < cut->n_names; i++)
		rmem_free(st->mem, (void *)cut->names[i]);
	rmem_free(st->mem, cut->names);
	rmem_free(st->mem, cut->servers);
	memset(cut, 0, sizeof(*cut));
	cut->current = -1;
	st->has_cut = false;
}

static int iter_cut_init(struct iter_state *st, const uint8_t *zone, int names)
{
	struct iter_cut *cut = &st->cut;
	iter_cut_reset(st);
	cut->zone = zone[0] == 0 ? iter_root : rmem_memdup(st->mem, zone, dname_len(zone));
	cut->cap_servers = 8 + 2 * names;
	cut->servers = rmem_alloc(st->mem, (size_t)cut->cap_servers * sizeof(*cut->servers));
	cut->names = names ? rmem_alloc(st->mem, (size_t)names * sizeof(*cut->names)) : NULL;
	if (!cut->zone || !cut->servers || (names && !cut->names))
		return -1;
	st->has_cut = true;
	return 0;
}

/* A server address from an A or AAAA record: the type says the family, and the length must
 * match it (a 16-byte "A" record is malformed, not an IPv6 address). */
static void iter_cut_add_server(struct iter_state *st, uint16_t type, const uint8_t *rdata,
                                uint16_t rdlen)
{
	struct iter_cut *cut = &st->cut;
	if (cut->n_servers >= cut->cap_servers || !msg_rdata_fits_type(type, rdlen))
		return;
	struct iter_server *s = &cut->servers[cut->n_servers];
	memset(s, 0, sizeof(*s));
	uint16_t port = (uint16_t)st->r->cfg.upstream_port;
	if (type != TYPE_A && type != TYPE_AAAA)
		return;
	s->len = sockaddr_from_bytes(rdata, type == TYPE_A ? 4 : 16, port, &s->sa);
	/* The same address under two NS names is still one server. */
	for (int i = 0; i < cut->n_servers; i++)
		if (cut->servers[i].len == s->len &&
		    memcmp(&cut->servers[i].sa, &s->sa, s->len) == 0)
			return;
	cut->n_servers++;
}

/* Addresses of name server `name` known to the cache (glue included); returns how many. */
static int iter_cut_add_cached(struct iter_state *st, const uint8_t *name)
{
	static const uint16_t types[2] = {TYPE_A, TYPE_AAAA};
	int before = st->cut.n_servers;
	uint32_t now = resolver_now();
	for (int t = 0; t < 2; t++) {
		struct cache_entry *e = cache_get(st->r->cache, now, name, types[t]);
		if (!e || e->kind != CACHE_POSITIVE)
			continue;
		size_t cursor = 0;
		const uint8_t *rdata;
		uint16_t rdlen;
		while (cache_entry_next(e, &cursor, &rdata, &rdlen))
			iter_cut_add_server(st, types[t], rdata, rdlen);
	}
	return st->cut.n_servers - before;
}

static void iter_cut_add_name(struct iter_state *st, const uint8_t *name)
{
	/* A server named inside its own zone with no glue cannot be reached: skip it. Past a few
	 * names per zone cut, the rest are not looked up at all: a referral listing many glueless
	 * names must not turn into as many lookups (NXNS, CVE-2020-12662). */
	if (iterator_in_bailiwick(name, st->cut.zone) || st->cut.n_names >= ITER_MAX_GLUELESS)
		return;
	const uint8_t *copy = rmem_memdup(st->mem, name, dname_len(name));
	if (copy)
		st->cut.names[st->cut.n_names++] = copy;
}

static bool iter_cut_from_roots(struct iter_state *st)
{
	const struct resolver_config *cfg = &st->r->cfg;
	if (iter_cut_init(st, iter_root, 0) < 0)
		return false;
	for (int i = 0; i < cfg->n_roots && i < st->cut.cap_servers; i++) {
		struct iter_server *s = &st->cut.servers[st->cut.n_servers++];
		memset(s, 0, sizeof(*s));
		memcpy(&s->sa, &cfg->roots[i].sa, cfg->roots[i].len);
		s->len = cfg->roots[i].len;
	}
	return st->cut.n_servers > 0;
}

/* The closest enclosing zone whose NS set the cache holds: where iteration starts. */
static bool iter_find_cut(struct iter_state *st)
{
	uint32_t now = resolver_now();
	for (const uint8_t *name = st->cur; name && name[0]; name = dname_parent(name)) {
		struct cache_entry *e = cache_get(st->r->cache, now, name, TYPE_NS);
		if (!e || e->kind != CACHE_POSITIVE)
			continue;
		/* Copy the NS names out first: address lookups below may evict entries. */
		const uint8_t *names[64];
		int n = 0;
		size_t cursor = 0;
		const uint8_t *rdata;
		uint16_t rdlen;
		while (n < 64 && cache_entry_next(e, &cursor, &rdata, &rdlen)) {
			const uint8_t *ns = msg_rdata_name(TYPE_NS, rdata, rdlen);
			if (ns && (names[n] = rmem_memdup(st->mem, ns, dname_len(ns))))
				n++;
		}
		if (iter_cut_init(st, cache_entry_owner(e), n) < 0)
			return false;
		for (int i = 0; i < n; i++) {
			if (iter_cut_add_cached(st, names[i]) == 0)
				iter_cut_add_name(st, names[i]);
			rmem_free(st->mem, (void *)names[i]);
		}
		if (st->cut.n_servers > 0 || st->cut.n_names > 0)
			return true;
	}
	return iter_cut_from_roots(st);
}

/* The server to ask: infra's choice among this cut's servers not failed and not yet tried
 * ITER_MAX_TRIES times, and how long to wait for it. -1 when there is none, or every one is held
 * down (the caller goes on with glueless names, or fails). */
static int iter_pick_server(struct iter_state *st, uint64_t now_ms, struct infra_choice *choice)
{
	struct iter_cut *cut = &st->cut;
	struct infra_candidate cands[INFRA_MAX_CANDIDATES];
	int index[INFRA_MAX_CANDIDATES], n = 0;
	for (int i = 0; i < cut->n_servers && n < INFRA_MAX_CANDIDATES; i++) {
		const struct iter_server *s = &cut->servers[i];
		if (s->failed || s->tries >= ITER_MAX_TRIES)
			continue;
		cands[n].sa = (const struct sockaddr *)&s->sa;
		cands[n].len = s->len;
		index[n++] = i;
	}
	if (!infra_choose(st->r->infra, cands, n, now_ms, &st->r->rng, choice))
		return -1;
	/* The configured bounds are real limits (a server slower than the cap times out and is
	 * backed off); the deadline shortens the wait without saying anything of the server, so
	 * such a timeout is not held against it. */
	const struct resolver_config *cfg = &st->r->cfg;
	if (choice->timeout_ms < cfg->upstream_timeout_min_ms)
		choice->timeout_ms = cfg->upstream_timeout_min_ms;
	if (choice->timeout_ms > cfg->upstream_timeout_ms)
		choice->timeout_ms = cfg->upstream_timeout_ms;
	int left = infra_deadline_clamp(&st->deadline, now_ms, choice->timeout_ms);
	if (left < choice->timeout_ms) {
		choice->timeout_ms = left;
		choice->capped = true;
	}
	return index[choice->index];
}

static struct iter_step iter_done(int rcode)
{
	struct iter_step step = {.kind = ITER_STEP_DONE, .rcode = rcode};
	return step;
}

struct iter_step iterator_next(struct iter_state *st)
{
	uint64_t now_ms = resolver_now_ms();
	if (st->queries >= st->budget || infra_deadline_left_ms(&st->deadline, now_ms) == 0)
		return iter_done(RCODE_SERVFAIL);
	if (!st->has_cut && !iter_find_cut(st))
		return iter_done(RCODE_SERVFAIL);
	struct iter_step step = {.name = st->cur, .type = st->qtype};
	int i = iter_pick_server(st, now_ms, &step.choice);
	if (i >= 0) {
		struct iter_server *s = &st->cut.servers[i];
		s->tries++;
		st->cut.current = i;
		step.kind = ITER_STEP_SEND;
		step.server = (const struct sockaddr *)&s->sa;
		step.server_len = s->len;
		return step;
	}
	if (st->cut.next_name < st->cut.n_names && st->depth < ITER_MAX_DEPTH) {
		step.kind = ITER_STEP_SPAWN;
		step.name = st->cut.names[st->cut.next_name++];
		step.type = TYPE_A;
		return step;
	}
	return iter_done(RCODE_SERVFAIL);
}

struct iter_step iterator_on_timeout(struct iter_state *st)
{
	return iterator_next(st);
}

struct iter_step iterator_on_spawn_failed(struct iter_state *st)
{
	return iterator_next(st);
}

struct iter_step iterator_on_subrequest(struct iter_state *st)
{
	if (st->cut.next_name > 0)
		iter_cut_add_cached(st, st->cut.names[st->cut.next_name - 1]);
	return iterator_next(st);
}

void iterator_count_query(struct iter_state *st)
{
	st->queries++;
}

void iterator_add_queries(struct iter_state *st, int queries)
{
	st->queries += queries;
}

int iterator_budget_left(const struct iter_state *st)
{
	return st->budget - st->queries;
}

/* The server asked last is not asked again at this zone cut. */
static void iter_mark_lame(struct iter_state *st)
{
	if (st->cut.current >= 0 && st->cut.current < st->cut.n_servers)
		st->cut.servers[st->cut.current].failed = true;
}

struct iter_step iterator_on_send_failed(struct iter_state *st)
{
	iter_mark_lame(st);
	return iterator_next(st);
}

/* Copies the RRset (cur, type) from the answer into the reply and the cache. */
static int iter_take_rrset(struct iter_state *st, const struct msg *m, const uint8_t *zone,
                           const uint8_t *cur, uint16_t type)
{
	const struct msg_rr *rrs[ITER_MAX_RRSET];
	int n = iter_collect(m, MSG_ANSWER, cur, type, zone, rrs, ITER_MAX_RRSET);
	for (int i = 0; i < n; i++)
		if (iter_add_answer(st, rrs[i]->owner, type, rrs[i]->ttl, rrs[i]->rdata,
		                    rrs[i]->rdlen) < 0)
			return -1;
	if (n > 0)
		cache_put_rrset(st->r->cache, resolver_now(), cur, type, RANK_AUTH, rrs, n);
	return n;
}

/* Walks the in-zone CNAME chain from st->cur as iterator_classify did, collecting it (and the
 * final RRset when there is one); returns the last name, or NULL when over the limits. */
static const uint8_t *iter_take_chain(struct iter_state *st, const struct msg *m,
                                      const uint8_t *zone)
{
	const uint8_t *cur = st->cur;
	for (;;) {
		int n = iter_take_rrset(st, m, zone, cur, st->qtype);
		if (n != 0)
			return n < 0 ? NULL : cur;
		if (st->qtype == TYPE_CNAME)
			return cur;
		const struct msg_rr *rr;
		const uint8_t *target = iter_cname_step(m, zone, cur, &rr);
		if (!target)
			return cur;
		if (iter_take_rrset(st, m, zone, cur, TYPE_CNAME) < 0 ||
		    ++st->cnames > ITER_MAX_CNAMES)
			return NULL;
		cur = target;
		if (!iterator_in_bailiwick(cur, zone))
			return cur;
	}
}

/* Caches a referral's NS set and in-bailiwick glue, and makes it the new zone cut. */
static int iter_take_referral(struct iter_state *st, const struct msg *m, const uint8_t *zone)
{
	const struct msg_rr *ref = iter_find_referral(m, zone, st->cur);
	const struct msg_rr *ns[64];
	uint32_t now = resolver_now();
	int n = iter_collect(m, MSG_AUTHORITY, ref->owner, TYPE_NS, zone, ns, 64);
	cache_put_rrset(st->r->cache, now, ref->owner, TYPE_NS, RANK_GLUE, ns, n);
	/* The old cut's zone is freed by iter_cut_init: keep what is needed from it. */
	uint8_t old_zone[DNAME_MAXLEN + 1];
	memcpy(old_zone, zone, dname_len(zone));
	if (iter_cut_init(st, ref->owner, n) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		const uint8_t *name = msg_rdata_name(TYPE_NS, ns[i]->rdata, ns[i]->rdlen);
		if (!name)
			continue;
		static const uint16_t types[2] = {TYPE_A, TYPE_AAAA};
		int added = 0;
		for (int t = 0; t < 2; t++) {
			const struct msg_rr *glue[16];
			int g = iter_collect(m, MSG_ADDITIONAL, name, types[t], old_zone, glue, 16);
			if (g == 0)
				continue;
			cache_put_rrset(st->r->cache, now, name, types[t], RANK_GLUE, glue, g);
			for (int j = 0; j < g; j++)
				iter_cut_add_server(st, types[t], glue[j]->rdata, glue[j]->rdlen);
			added += g;
		}
		if (added == 0 && iter_cut_add_cached(st, name) == 0)
			iter_cut_add_name(st, name);
	}
	return 0;
}

static void iter_take_negative(struct iter_state *st, const struct msg *m, const uint8_t *zone,
                               const uint8_t *final, enum cache_kind kind)
{
	const struct msg_rr *soa = iter_find_soa(m, zone, final);
	if (!soa)
		return;
	iter_set_soa(st, soa->owner, msg_negative_ttl(soa), soa->rdata, soa->rdlen);
	cache_put_negative(st->r->cache, resolver_now(), final, st->qtype, kind, soa);
}

enum iter_next { NEXT_FINISH, NEXT_RUN, NEXT_FROM_CACHE };

struct iter_step iterator_on_reply(struct iter_state *st, struct msg *m, void *ldns)
{
	const uint8_t *zone = st->cut.zone ? st->cut.zone : iter_root;
	const uint8_t *final;
	enum iter_next next = NEXT_FINISH;
	int rcode = RCODE_SERVFAIL;
	switch (iterator_classify(m, zone, st->cur, st->qtype, &final)) {
	case ITER_ANSWER:
		if (iter_take_chain(st, m, zone))
			rcode = RCODE_NOERROR;
		break;
	case ITER_CNAME:
		final = iter_take_chain(st, m, zone);
		if (final) {
			iter_set_cur(st, final);
			next = NEXT_FROM_CACHE;
		}
		break;
	case ITER_NXDOMAIN:
		final = iter_take_chain(st, m, zone);
		if (final) {
			iter_take_negative(st, m, zone, final, CACHE_NXDOMAIN);
			rcode = RCODE_NXDOMAIN;
		}
		break;
	case ITER_NODATA:
		final = iter_take_chain(st, m, zone);
		if (final) {
			iter_take_negative(st, m, zone, final, CACHE_NODATA);
			rcode = RCODE_NOERROR;
		}
		break;
	case ITER_REFERRAL:
		if (++st->referrals <= ITER_MAX_REFERRALS && iter_take_referral(st, m, zone) == 0)
			next = NEXT_RUN;
		break;
	case ITER_LAME:
		iter_mark_lame(st);
		next = NEXT_RUN;
		break;
	}
	/* Everything needed was copied out of the reply: give its memory back before going on. */
	msg_release(st->mem, m, ldns);
	if (next == NEXT_RUN)
		return iterator_next(st);
	if (next == NEXT_FROM_CACHE && !iterator_from_cache(st, &rcode))
		return iterator_next(st);
	return iter_done(rcode);
}
