/* resolver/iterator.c - iterative resolution: cache, closest zone cut, referrals, glue, CNAMEs,
 * negative answers. */
#include "iterator.h"

#include <netinet/in.h>
#include <string.h>

#include "cache.h"
#include "dname.h"
#include "request.h"
#include "resolver.h"
#include "sockaddr_parse.h"
#include "upstream.h"

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
static int iter_add_answer(struct request *q, const uint8_t *owner, uint16_t type, uint32_t ttl,
                           const uint8_t *rdata, uint16_t rdlen)
{
	ttl = msg_ttl_cap(ttl, q->r->cfg.max_ttl);
	if (q->n_answer == q->cap_answer) {
		int cap = q->cap_answer ? 2 * q->cap_answer : 8;
		if (cap > 4096)
			return -1;
		struct msg_rr *n = rmem_alloc(&q->mem, (size_t)cap * sizeof(*n));
		if (!n)
			return -1;
		if (q->n_answer)
			memcpy(n, q->answer, (size_t)q->n_answer * sizeof(*n));
		rmem_free(&q->mem, q->answer);
		q->answer = n;
		q->cap_answer = cap;
	}
	size_t olen = dname_len(owner);
	uint8_t *obj = rmem_alloc(&q->mem, olen + rdlen + 1);
	if (!obj)
		return -1;
	memcpy(obj, owner, olen);
	memcpy(obj + olen, rdata, rdlen);
	struct msg_rr *rr = &q->answer[q->n_answer++];
	rr->owner = obj;
	rr->rdata = obj + olen;
	rr->rdlen = rdlen;
	rr->type = type;
	rr->rclass = CLASS_IN;
	rr->ttl = ttl;
	return 0;
}

static int iter_set_soa(struct request *q, const uint8_t *owner, uint32_t ttl, const uint8_t *rdata,
                        uint16_t rdlen)
{
	size_t olen = dname_len(owner);
	uint8_t *obj = rmem_alloc(&q->mem, olen + rdlen + 1);
	if (!obj)
		return -1;
	memcpy(obj, owner, olen);
	memcpy(obj + olen, rdata, rdlen);
	q->soa.owner = obj;
	q->soa.rdata = obj + olen;
	q->soa.rdlen = rdlen;
	q->soa.type = TYPE_SOA;
	q->soa.rclass = CLASS_IN;
	q->soa.ttl = msg_ttl_cap(ttl, q->r->cfg.max_negative_ttl);
	q->has_soa = true;
	return 0;
}

static void iter_soa_from_entry(struct request *q, const struct cache_entry *e, uint32_t now)
{
	const uint8_t *owner, *rdata;
	uint16_t rdlen;
	cache_entry_soa(e, &owner, &rdata, &rdlen);
	iter_set_soa(q, owner, cache_entry_ttl(e, now), rdata, rdlen);
}

static int iter_add_entry(struct request *q, const struct cache_entry *e, uint32_t now)
{
	size_t cursor = 0;
	const uint8_t *rdata;
	uint16_t rdlen;
	while (cache_entry_next(e, &cursor, &rdata, &rdlen))
		if (iter_add_answer(q, cache_entry_owner(e), e->type, cache_entry_ttl(e, now),
		                    rdata, rdlen) < 0)
			return -1;
	return 0;
}

static void iter_set_cur(struct request *q, const uint8_t *name)
{
	q->cur = rmem_memdup(&q->mem, name, dname_len(name));
	q->has_cut = false;
}

bool iterator_from_cache(struct request *q)
{
	struct cache *c = q->r->cache;
	uint32_t now = resolver_now();
	if (!q->cur)
		q->cur = q->qname;
	for (;;) {
		if (!q->cur) {
			q->rcode = RCODE_SERVFAIL;
			return true;
		}
		struct cache_entry *e = cache_get(c, now, q->cur, q->qtype);
		if (e && e->rank >= RANK_AUTH) {
			if (e->kind == CACHE_POSITIVE) {
				q->rcode =
				    iter_add_entry(q, e, now) < 0 ? RCODE_SERVFAIL : RCODE_NOERROR;
				return true;
			}
			iter_soa_from_entry(q, e, now);
			q->rcode = RCODE_NOERROR;
			return true;
		}
		if (q->qtype != TYPE_CNAME) {
			e = cache_get(c, now, q->cur, TYPE_CNAME);
			if (e && e->rank >= RANK_AUTH && e->kind == CACHE_POSITIVE) {
				size_t cursor = 0;
				const uint8_t *rdata, *target;
				uint16_t rdlen;
				if (!cache_entry_next(e, &cursor, &rdata, &rdlen) ||
				    !(target = msg_rdata_name(TYPE_CNAME, rdata, rdlen)))
					return false;
				if (iter_add_answer(q, q->cur, TYPE_CNAME, cache_entry_ttl(e, now),
				                    rdata, rdlen) < 0 ||
				    ++q->cnames > ITER_MAX_CNAMES) {
					q->rcode = RCODE_SERVFAIL;
					return true;
				}
				iter_set_cur(q, target);
				continue;
			}
		}
		e = cache_get(c, now, q->cur, CACHE_TYPE_NXDOMAIN);
		if (e) {
			iter_soa_from_entry(q, e, now);
			q->rcode = RCODE_NXDOMAIN;
			return true;
		}
		return false;
	}
}

int iterator_answer_any(struct request *q)
{
	static const uint8_t hinfo[] = {7, 'R', 'F', 'C', '8', '4', '8', '2', 0};
	if (iter_add_answer(q, q->qname, TYPE_HINFO, ITER_ANY_TTL, hinfo, sizeof(hinfo)) < 0)
		return RCODE_SERVFAIL;
	return RCODE_NOERROR;
}

static void iter_cut_reset(struct request *q)
{
	struct iter_cut *cut = &q->cut;
	if (cut->zone != iter_root)
		rmem_free(&q->mem, (void *)cut->zone);
	for (int i = 0; i < cut->n_names; i++)
		rmem_free(&q->mem, (void *)cut->names[i]);
	rmem_free(&q->mem, cut->names);
	rmem_free(&q->mem, cut->servers);
	memset(cut, 0, sizeof(*cut));
	cut->current = -1;
	q->has_cut = false;
}

static int iter_cut_init(struct request *q, const uint8_t *zone, int names)
{
	struct iter_cut *cut = &q->cut;
	iter_cut_reset(q);
	cut->zone = zone[0] == 0 ? iter_root : rmem_memdup(&q->mem, zone, dname_len(zone));
	cut->cap_servers = 8 + 2 * names;
	cut->servers = rmem_alloc(&q->mem, (size_t)cut->cap_servers * sizeof(*cut->servers));
	cut->names = names ? rmem_alloc(&q->mem, (size_t)names * sizeof(*cut->names)) : NULL;
	if (!cut->zone || !cut->servers || (names && !cut->names))
		return -1;
	q->has_cut = true;
	return 0;
}

/* A server address from an A or AAAA record: the type says the family, and the length must
 * match it (a 16-byte "A" record is malformed, not an IPv6 address). */
static void iter_cut_add_server(struct request *q, uint16_t type, const uint8_t *rdata,
                                uint16_t rdlen)
{
	struct iter_cut *cut = &q->cut;
	if (cut->n_servers >= cut->cap_servers || !msg_rdata_fits_type(type, rdlen))
		return;
	struct iter_server *s = &cut->servers[cut->n_servers];
	memset(s, 0, sizeof(*s));
	uint16_t port = (uint16_t)q->r->cfg.upstream_port;
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
static int iter_cut_add_cached(struct request *q, const uint8_t *name)
{
	static const uint16_t types[2] = {TYPE_A, TYPE_AAAA};
	int before = q->cut.n_servers;
	uint32_t now = resolver_now();
	for (int t = 0; t < 2; t++) {
		struct cache_entry *e = cache_get(q->r->cache, now, name, types[t]);
		if (!e || e->kind != CACHE_POSITIVE)
			continue;
		size_t cursor = 0;
		const uint8_t *rdata;
		uint16_t rdlen;
		while (cache_entry_next(e, &cursor, &rdata, &rdlen))
			iter_cut_add_server(q, types[t], rdata, rdlen);
	}
	return q->cut.n_servers - before;
}

static void iter_cut_add_name(struct request *q, const uint8_t *name)
{
	/* A server named inside its own zone with no glue cannot be reached: skip it. Past a few
	 * names per zone cut, the rest are not looked up at all: a referral listing many glueless
	 * names must not turn into as many lookups (NXNS, CVE-2020-12662). */
	if (iterator_in_bailiwick(name, q->cut.zone) || q->cut.n_names >= ITER_MAX_GLUELESS)
		return;
	const uint8_t *copy = rmem_memdup(&q->mem, name, dname_len(name));
	if (copy)
		q->cut.names[q->cut.n_names++] = copy;
}

static bool iter_cut_from_roots(struct request *q)
{
	const struct resolver_config *cfg = &q->r->cfg;
	if (iter_cut_init(q, iter_root, 0) < 0)
		return false;
	for (int i = 0; i < cfg->n_roots && i < q->cut.cap_servers; i++) {
		struct iter_server *s = &q->cut.servers[q->cut.n_servers++];
		memset(s, 0, sizeof(*s));
		memcpy(&s->sa, &cfg->roots[i].sa, cfg->roots[i].len);
		s->len = cfg->roots[i].len;
	}
	return q->cut.n_servers > 0;
}

/* The closest enclosing zone whose NS set the cache holds: where iteration starts. */
static bool iter_find_cut(struct request *q)
{
	uint32_t now = resolver_now();
	for (const uint8_t *name = q->cur; name && name[0]; name = dname_parent(name)) {
		struct cache_entry *e = cache_get(q->r->cache, now, name, TYPE_NS);
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
			if (ns && (names[n] = rmem_memdup(&q->mem, ns, dname_len(ns))))
				n++;
		}
		if (iter_cut_init(q, cache_entry_owner(e), n) < 0)
			return false;
		for (int i = 0; i < n; i++) {
			if (iter_cut_add_cached(q, names[i]) == 0)
				iter_cut_add_name(q, names[i]);
			rmem_free(&q->mem, (void *)names[i]);
		}
		if (q->cut.n_servers > 0 || q->cut.n_names > 0)
			return true;
	}
	return iter_cut_from_roots(q);
}

static int iter_pick_server(struct request *q)
{
	struct iter_cut *cut = &q->cut;
	int best_tries = ITER_MAX_TRIES, n_best = 0;
	for (int i = 0; i < cut->n_servers; i++) {
		const struct iter_server *s = &cut->servers[i];
		if (s->failed || s->tries >= ITER_MAX_TRIES)
			continue;
		if (s->tries < best_tries) {
			best_tries = s->tries;
			n_best = 0;
		}
		if (s->tries == best_tries)
			n_best++;
	}
	if (n_best == 0)
		return -1;
	int pick = (int)chacha_rng_below(&q->r->rng, (uint32_t)n_best);
	for (int i = 0; i < cut->n_servers; i++) {
		const struct iter_server *s = &cut->servers[i];
		if (!s->failed && s->tries == best_tries && pick-- == 0)
			return i;
	}
	return -1;
}

void iterator_run(struct request *q)
{
	for (;;) {
		if (q->queries >= q->budget) {
			request_finish(q, RCODE_SERVFAIL);
			return;
		}
		if (!q->has_cut && !iter_find_cut(q)) {
			request_finish(q, RCODE_SERVFAIL);
			return;
		}
		int i = iter_pick_server(q);
		if (i >= 0) {
			struct iter_server *s = &q->cut.servers[i];
			s->tries++;
			q->cut.current = i;
			if (upstream_send(q, (struct sockaddr *)&s->sa, s->len) == 0)
				return;
			s->failed = true;
			continue;
		}
		if (q->cut.next_name < q->cut.n_names && q->depth < ITER_MAX_DEPTH) {
			const uint8_t *name = q->cut.names[q->cut.next_name++];
			q->waiting_sub = true;
			if (request_spawn(q, name, TYPE_A))
				return;
			q->waiting_sub = false;
			continue;
		}
		request_finish(q, RCODE_SERVFAIL);
		return;
	}
}

void iterator_on_timeout(struct request *q)
{
	iterator_run(q);
}

void iterator_on_subrequest(struct request *q)
{
	q->waiting_sub = false;
	if (q->cut.next_name > 0)
		iter_cut_add_cached(q, q->cut.names[q->cut.next_name - 1]);
	iterator_run(q);
}

static void iter_mark_lame(struct request *q)
{
	if (q->cut.current >= 0 && q->cut.current < q->cut.n_servers)
		q->cut.servers[q->cut.current].failed = true;
}

/* Copies the RRset (cur, type) from the answer into the reply and the cache. */
static int iter_take_rrset(struct request *q, const struct msg *m, const uint8_t *zone,
                           const uint8_t *cur, uint16_t type)
{
	const struct msg_rr *rrs[ITER_MAX_RRSET];
	int n = iter_collect(m, MSG_ANSWER, cur, type, zone, rrs, ITER_MAX_RRSET);
	for (int i = 0; i < n; i++)
		if (iter_add_answer(q, rrs[i]->owner, type, rrs[i]->ttl, rrs[i]->rdata,
		                    rrs[i]->rdlen) < 0)
			return -1;
	if (n > 0)
		cache_put_rrset(q->r->cache, resolver_now(), cur, type, RANK_AUTH, rrs, n);
	return n;
}

/* Walks the in-zone CNAME chain from q->cur as iterator_classify did, collecting it (and the
 * final RRset when there is one); returns the last name, or NULL when over the limits. */
static const uint8_t *iter_take_chain(struct request *q, const struct msg *m, const uint8_t *zone)
{
	const uint8_t *cur = q->cur;
	for (;;) {
		int n = iter_take_rrset(q, m, zone, cur, q->qtype);
		if (n != 0)
			return n < 0 ? NULL : cur;
		if (q->qtype == TYPE_CNAME)
			return cur;
		const struct msg_rr *rr;
		const uint8_t *target = iter_cname_step(m, zone, cur, &rr);
		if (!target)
			return cur;
		if (iter_take_rrset(q, m, zone, cur, TYPE_CNAME) < 0 ||
		    ++q->cnames > ITER_MAX_CNAMES)
			return NULL;
		cur = target;
		if (!iterator_in_bailiwick(cur, zone))
			return cur;
	}
}

/* Caches a referral's NS set and in-bailiwick glue, and makes it the new zone cut. */
static int iter_take_referral(struct request *q, const struct msg *m, const uint8_t *zone)
{
	const struct msg_rr *ref = iter_find_referral(m, zone, q->cur);
	const struct msg_rr *ns[64];
	uint32_t now = resolver_now();
	int n = iter_collect(m, MSG_AUTHORITY, ref->owner, TYPE_NS, zone, ns, 64);
	cache_put_rrset(q->r->cache, now, ref->owner, TYPE_NS, RANK_GLUE, ns, n);
	/* The old cut's zone is freed by iter_cut_init: keep what is needed from it. */
	uint8_t old_zone[DNAME_MAXLEN + 1];
	memcpy(old_zone, zone, dname_len(zone));
	if (iter_cut_init(q, ref->owner, n) < 0)
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
			cache_put_rrset(q->r->cache, now, name, types[t], RANK_GLUE, glue, g);
			for (int j = 0; j < g; j++)
				iter_cut_add_server(q, types[t], glue[j]->rdata, glue[j]->rdlen);
			added += g;
		}
		if (added == 0 && iter_cut_add_cached(q, name) == 0)
			iter_cut_add_name(q, name);
	}
	return 0;
}

static void iter_take_negative(struct request *q, const struct msg *m, const uint8_t *zone,
                               const uint8_t *final, enum cache_kind kind)
{
	const struct msg_rr *soa = iter_find_soa(m, zone, final);
	if (!soa)
		return;
	iter_set_soa(q, soa->owner, msg_negative_ttl(soa), soa->rdata, soa->rdlen);
	cache_put_negative(q->r->cache, resolver_now(), final, q->qtype, kind, soa);
}

enum iter_next { NEXT_FINISH, NEXT_RUN, NEXT_FROM_CACHE };

void iterator_on_answer(struct request *q, struct msg *m, void *ldns)
{
	const uint8_t *zone = q->cut.zone ? q->cut.zone : iter_root;
	const uint8_t *final;
	enum iter_next next = NEXT_FINISH;
	int rcode = RCODE_SERVFAIL;
	switch (iterator_classify(m, zone, q->cur, q->qtype, &final)) {
	case ITER_ANSWER:
		if (iter_take_chain(q, m, zone))
			rcode = RCODE_NOERROR;
		break;
	case ITER_CNAME:
		final = iter_take_chain(q, m, zone);
		if (final) {
			iter_set_cur(q, final);
			next = NEXT_FROM_CACHE;
		}
		break;
	case ITER_NXDOMAIN:
		final = iter_take_chain(q, m, zone);
		if (final) {
			iter_take_negative(q, m, zone, final, CACHE_NXDOMAIN);
			rcode = RCODE_NXDOMAIN;
		}
		break;
	case ITER_NODATA:
		final = iter_take_chain(q, m, zone);
		if (final) {
			iter_take_negative(q, m, zone, final, CACHE_NODATA);
			rcode = RCODE_NOERROR;
		}
		break;
	case ITER_REFERRAL:
		if (++q->referrals <= ITER_MAX_REFERRALS && iter_take_referral(q, m, zone) == 0)
			next = NEXT_RUN;
		break;
	case ITER_LAME:
		iter_mark_lame(q);
		next = NEXT_RUN;
		break;
	}
	/* Everything needed was copied out of the reply: give its memory back before going on. */
	msg_release(&q->mem, m, ldns);
	if (next == NEXT_RUN) {
		iterator_run(q);
	} else if (next == NEXT_FROM_CACHE) {
		if (iterator_from_cache(q))
			request_finish(q, q->rcode);
		else
			iterator_run(q);
	} else {
		request_finish(q, rcode);
	}
}
