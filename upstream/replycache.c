/* upstream/replycache.c - a direct-mapped table of reply bytes keyed by the full question. */
#include "replycache.h"

#include "hash.h"

#include <stdlib.h>
#include <string.h>

struct replycache_slot {
	uint64_t hash;
	char *qname;
	int server;
	uint16_t qtype, qclass, limit;
	uint8_t flags;
	struct replycache_value v;
};

struct replycache {
	struct replycache_slot *slots;
	size_t mask;
	uint64_t hits, misses;
};

struct replycache *replycache_new(size_t slots)
{
	if (slots == 0)
		return NULL;
	size_t n = 1;
	while (n < slots)
		n *= 2;
	struct replycache *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->slots = calloc(n, sizeof(*c->slots));
	if (!c->slots) {
		free(c);
		return NULL;
	}
	c->mask = n - 1;
	return c;
}

uint64_t replycache_key_hash(const struct replycache_key *k)
{
	uint64_t h = hash_bytes(0x7265706c79ULL, k->qname, strlen(k->qname));
	h = hash_combine(h, (uint64_t)k->server);
	h = hash_combine(h, (uint64_t)k->qtype << 32 | (uint64_t)k->qclass << 16 | k->limit);
	return hash_combine(h, k->flags);
}

static bool replycache_same(const struct replycache_slot *s, uint64_t h,
                            const struct replycache_key *k)
{
	return s->qname && s->hash == h && s->server == k->server && s->qtype == k->qtype &&
	       s->qclass == k->qclass && s->limit == k->limit && s->flags == k->flags &&
	       strcmp(s->qname, k->qname) == 0;
}

const struct replycache_value *replycache_find(struct replycache *c, const struct replycache_key *k)
{
	if (!c)
		return NULL;
	uint64_t h = replycache_key_hash(k);
	struct replycache_slot *s = &c->slots[h & c->mask];
	if (replycache_same(s, h, k)) {
		c->hits++;
		return &s->v;
	}
	c->misses++;
	return NULL;
}

void replycache_store(struct replycache *c, const struct replycache_key *k,
                      const struct replycache_value *v)
{
	if (!c)
		return;
	uint64_t h = replycache_key_hash(k);
	struct replycache_slot *s = &c->slots[h & c->mask];
	char *qname = strdup(k->qname);
	uint8_t *wire = malloc(v->len ? v->len : 1);
	if (!qname || !wire) {
		free(qname);
		free(wire);
		return;
	}
	free(s->qname);
	free(s->v.wire);
	memcpy(wire, v->wire, v->len);
	s->hash = h;
	s->qname = qname;
	s->server = k->server;
	s->qtype = k->qtype;
	s->qclass = k->qclass;
	s->limit = k->limit;
	s->flags = k->flags;
	s->v = *v;
	s->v.wire = wire;
}

void replycache_stats(const struct replycache *c, uint64_t *hits, uint64_t *misses)
{
	*hits = c ? c->hits : 0;
	*misses = c ? c->misses : 0;
}

void replycache_free(struct replycache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i <= c->mask; i++) {
		free(c->slots[i].qname);
		free(c->slots[i].v.wire);
	}
	free(c->slots);
	free(c);
}
