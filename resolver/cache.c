/* resolver/cache.c - the RRset cache: hash table + LRU list, TTL countdown, negative entries, byte
 * cap. */
#include "cache.h"

#include <stdlib.h>
#include <string.h>

#include "cache_store.h"
#include "dname.h"

struct cache {
	struct cache_store *store;
	struct cache_entry **table;
	size_t mask;
	struct cache_entry *lru_head, *lru_tail; /* head: most recently used */
	size_t bytes, entries, max_bytes, sweep_cursor;
	uint32_t max_ttl, max_negative_ttl;
};

struct cache *cache_create(size_t max_bytes, uint32_t max_ttl, uint32_t max_negative_ttl,
                           bool in_file, char *err, size_t err_size)
{
	struct cache *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->max_bytes = max_bytes;
	c->max_ttl = max_ttl;
	c->max_negative_ttl = max_negative_ttl;
	size_t buckets = 1024;
	while (buckets < max_bytes / 256 && buckets < ((size_t)1 << 22))
		buckets <<= 1;
	c->mask = buckets - 1;
	c->store = cache_store_create(in_file, max_bytes, err, err_size);
	if (!c->store) {
		free(c);
		return NULL;
	}
	c->table = cache_store_table(c->store, buckets * sizeof(*c->table));
	if (!c->table) {
		cache_store_destroy(c->store);
		free(c);
		return NULL;
	}
	return c;
}

void cache_destroy(struct cache *c)
{
	if (!c)
		return;
	if (!cache_store_in_file(c->store)) {
		struct cache_entry *e = c->lru_head;
		while (e) {
			struct cache_entry *next = e->lnext;
			cache_store_free(c->store, e, e->charged);
			e = next;
		}
	}
	cache_store_destroy(c->store);
	free(c);
}

static uint32_t cache_hash(const uint8_t *owner, uint16_t type)
{
	return dname_hash(owner, type * 0x9E3779B1u);
}

static void cache_lru_unlink(struct cache *c, struct cache_entry *e)
{
	if (e->lprev)
		e->lprev->lnext = e->lnext;
	else
		c->lru_head = e->lnext;
	if (e->lnext)
		e->lnext->lprev = e->lprev;
	else
		c->lru_tail = e->lprev;
	e->lprev = e->lnext = NULL;
}

static void cache_lru_push(struct cache *c, struct cache_entry *e)
{
	e->lprev = NULL;
	e->lnext = c->lru_head;
	if (c->lru_head)
		c->lru_head->lprev = e;
	c->lru_head = e;
	if (!c->lru_tail)
		c->lru_tail = e;
}

static void cache_remove(struct cache *c, struct cache_entry *e)
{
	struct cache_entry **pp = &c->table[e->hash & c->mask];
	while (*pp && *pp != e)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = e->hnext;
	cache_lru_unlink(c, e);
	c->bytes -= e->charged;
	c->entries--;
	cache_store_free(c->store, e, e->charged);
}

static struct cache_entry *cache_find(struct cache *c, uint32_t hash, const uint8_t *owner,
                                      uint16_t type)
{
	for (struct cache_entry *e = c->table[hash & c->mask]; e; e = e->hnext)
		if (e->hash == hash && e->type == type && dname_equal(e->data, owner))
			return e;
	return NULL;
}

struct cache_entry *cache_get(struct cache *c, uint32_t now, const uint8_t *owner, uint16_t type)
{
	uint32_t hash = cache_hash(owner, type);
	struct cache_entry *e = cache_find(c, hash, owner, type);
	if (!e)
		return NULL;
	if (e->expire <= now) {
		cache_remove(c, e);
		return NULL;
	}
	if (c->lru_head != e) {
		cache_lru_unlink(c, e);
		cache_lru_push(c, e);
	}
	return e;
}

/* Allocates an entry of `size` bytes, evicting least recently used entries to stay under the
 * cap (and, in the file, until a block of the right class is free). */
static struct cache_entry *cache_entry_alloc(struct cache *c, size_t size)
{
	if (size > c->max_bytes)
		return NULL;
	while (c->bytes + size > c->max_bytes && c->lru_tail)
		cache_remove(c, c->lru_tail);
	size_t charged = 0;
	struct cache_entry *e = cache_store_alloc(c->store, size, &charged);
	if (!e) {
		/* The file is carved up and no block of this size class is free: evict the least
		 * recently used entry of that class (evicting others would not free one). */
		struct cache_entry *victim = c->lru_tail;
		for (int steps = 0; victim && victim->charged != charged && steps < 65536; steps++)
			victim = victim->lprev;
		if (!victim || victim->charged != charged)
			return NULL;
		cache_remove(c, victim);
		e = cache_store_alloc(c->store, size, &charged);
		if (!e)
			return NULL;
	}
	while (c->bytes + charged > c->max_bytes && c->lru_tail)
		cache_remove(c, c->lru_tail);
	memset(e, 0, sizeof(*e));
	e->charged = (uint32_t)charged;
	return e;
}

/* Replaces any existing entry for the key unless it is alive and better ranked. */
static struct cache_entry *cache_prepare(struct cache *c, uint32_t now, const uint8_t *owner,
                                         uint16_t type, uint8_t rank, size_t data_len,
                                         uint32_t *hash_out)
{
	uint32_t hash = cache_hash(owner, type);
	struct cache_entry *old = cache_find(c, hash, owner, type);
	if (old) {
		if (old->expire > now && old->rank > rank)
			return NULL;
		cache_remove(c, old);
	}
	struct cache_entry *e = cache_entry_alloc(c, sizeof(struct cache_entry) + data_len);
	if (!e)
		return NULL;
	e->hash = hash;
	e->type = type;
	e->rank = rank;
	e->data_len = (uint32_t)data_len;
	*hash_out = hash;
	return e;
}

static void cache_link(struct cache *c, struct cache_entry *e)
{
	struct cache_entry **bucket = &c->table[e->hash & c->mask];
	e->hnext = *bucket;
	*bucket = e;
	cache_lru_push(c, e);
	c->bytes += e->charged;
	c->entries++;
}

int cache_put_rrset(struct cache *c, uint32_t now, const uint8_t *owner, uint16_t type,
                    uint8_t rank, const struct msg_rr *const *rrs, int n)
{
	if (n <= 0 || n > 0xFFFF)
		return 0;
	uint32_t ttl = rrs[0]->ttl;
	size_t olen = dname_len(owner), data_len = olen;
	for (int i = 0; i < n; i++) {
		if (rrs[i]->ttl < ttl)
			ttl = rrs[i]->ttl;
		data_len += 2 + rrs[i]->rdlen;
	}
	ttl = msg_ttl_cap(ttl, c->max_ttl);
	if (ttl == 0)
		return 0;
	uint32_t hash;
	struct cache_entry *e = cache_prepare(c, now, owner, type, rank, data_len, &hash);
	if (!e)
		return (cache_find(c, cache_hash(owner, type), owner, type)) ? 0 : -1;
	e->kind = CACHE_POSITIVE;
	e->count = (uint16_t)n;
	e->expire = now + ttl;
	dname_copy_lower(e->data, owner);
	uint8_t *p = e->data + olen;
	for (int i = 0; i < n; i++) {
		p[0] = (uint8_t)(rrs[i]->rdlen >> 8);
		p[1] = (uint8_t)rrs[i]->rdlen;
		memcpy(p + 2, rrs[i]->rdata, rrs[i]->rdlen);
		p += 2 + rrs[i]->rdlen;
	}
	cache_link(c, e);
	return 1;
}

int cache_put_negative(struct cache *c, uint32_t now, const uint8_t *owner, uint16_t type,
                       enum cache_kind kind, const struct msg_rr *soa)
{
	uint32_t ttl = msg_ttl_cap(msg_negative_ttl(soa), c->max_negative_ttl);
	if (ttl == 0)
		return 0;
	size_t olen = dname_len(owner), solen = dname_len(soa->owner);
	size_t data_len = olen + solen + 2 + soa->rdlen;
	uint32_t hash;
	if (kind == CACHE_NXDOMAIN)
		type = CACHE_TYPE_NXDOMAIN;
	struct cache_entry *e = cache_prepare(c, now, owner, type, RANK_AUTH, data_len, &hash);
	if (!e)
		return -1;
	e->kind = (uint8_t)kind;
	e->count = 1;
	e->expire = now + ttl;
	dname_copy_lower(e->data, owner);
	uint8_t *p = e->data + olen;
	dname_copy_lower(p, soa->owner);
	p += solen;
	p[0] = (uint8_t)(soa->rdlen >> 8);
	p[1] = (uint8_t)soa->rdlen;
	memcpy(p + 2, soa->rdata, soa->rdlen);
	cache_link(c, e);
	return 1;
}

bool cache_entry_next(const struct cache_entry *e, size_t *cursor, const uint8_t **rdata,
                      uint16_t *rdlen)
{
	size_t off = *cursor ? *cursor : dname_len(e->data);
	if (off + 2 > e->data_len)
		return false;
	*rdlen = (uint16_t)((e->data[off] << 8) | e->data[off + 1]);
	*rdata = e->data + off + 2;
	*cursor = off + 2 + *rdlen;
	return true;
}

void cache_entry_soa(const struct cache_entry *e, const uint8_t **owner, const uint8_t **rdata,
                     uint16_t *rdlen)
{
	const uint8_t *p = e->data + dname_len(e->data);
	*owner = p;
	p += dname_len(p);
	*rdlen = (uint16_t)((p[0] << 8) | p[1]);
	*rdata = p + 2;
}

void cache_sweep(struct cache *c, uint32_t now, size_t buckets)
{
	for (size_t i = 0; i < buckets && c->entries > 0; i++) {
		size_t b = c->sweep_cursor++ & c->mask;
		struct cache_entry *e = c->table[b];
		while (e) {
			struct cache_entry *next = e->hnext;
			if (e->expire <= now)
				cache_remove(c, e);
			e = next;
		}
	}
}

void cache_sweep_step(struct cache *c, uint32_t now)
{
	cache_sweep(c, now, (c->mask + 1) / 16);
}

size_t cache_bytes(const struct cache *c)
{
	return c->bytes;
}

size_t cache_entries(const struct cache *c)
{
	return c->entries;
}

size_t cache_entry_overhead(void)
{
	return sizeof(struct cache_entry);
}
