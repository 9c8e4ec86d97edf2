/* resolver/cache.h - RRset cache keyed by (owner, type): TTLs, negative entries, LRU under a byte
 * cap. */
#ifndef ALLOCSPIKE_RESOLVER_CACHE_H
#define ALLOCSPIKE_RESOLVER_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msg.h"

enum cache_kind {
	CACHE_POSITIVE = 0,
	CACHE_NXDOMAIN = 1, /* stored under type CACHE_TYPE_NXDOMAIN: the name has no type at all */
	CACHE_NODATA = 2    /* stored under the queried type */
};
#define CACHE_TYPE_NXDOMAIN 0

/* How much a record is trusted: referral NS sets and glue are below authoritative data
 * (RFC 2181 §5.4.1), and never replace it while it is alive, nor answer clients. */
enum cache_rank { RANK_GLUE = 1, RANK_AUTH = 2 };

/* One RRset (or negative answer): a single allocation holding header, owner and rdata. */
struct cache_entry {
	struct cache_entry *hnext, *lprev, *lnext;
	uint32_t hash, expire; /* expire: absolute time in the cache's seconds */
	uint32_t charged;      /* bytes counted against the cap */
	uint32_t data_len;
	uint16_t type, count;
	uint8_t kind, rank;
	/* data: owner name, then per record u16 rdlen + rdata; a negative entry holds the
	 * SOA owner, u16 rdlen, SOA rdata. */
	uint8_t data[];
};

struct cache;

/* max_ttl caps positive entries, max_negative_ttl negative ones (RFC 2308). */
struct cache *cache_create(size_t max_bytes, uint32_t max_ttl, uint32_t max_negative_ttl,
                           bool in_file, char *err, size_t err_size);
void cache_destroy(struct cache *c);

/* Stores the n records of rrs (same owner, type, class) with the smallest TTL among them,
 * capped by max_ttl. Returns 1 stored, 0 kept the existing better entry or TTL 0, -1 no room. */
int cache_put_rrset(struct cache *c, uint32_t now, const uint8_t *owner, uint16_t type,
                    uint8_t rank, const struct msg_rr *const *rrs, int n);
/* RFC 2308: a negative answer for (owner, type), or for owner alone with kind NXDOMAIN, lives
 * min(SOA TTL, SOA MINIMUM) seconds (capped by max_negative_ttl), and is answered with its SOA. */
int cache_put_negative(struct cache *c, uint32_t now, const uint8_t *owner, uint16_t type,
                       enum cache_kind kind, const struct msg_rr *soa);
/* A live entry (it becomes the most recently used), or NULL; an expired one is removed. */
struct cache_entry *cache_get(struct cache *c, uint32_t now, const uint8_t *owner, uint16_t type);

static inline uint32_t cache_entry_ttl(const struct cache_entry *e, uint32_t now)
{
	return e->expire > now ? e->expire - now : 0;
}
static inline const uint8_t *cache_entry_owner(const struct cache_entry *e)
{
	return e->data;
}
/* Walks a positive entry's records: start with *cursor = 0; false after the last. */
bool cache_entry_next(const struct cache_entry *e, size_t *cursor, const uint8_t **rdata,
                      uint16_t *rdlen);
void cache_entry_soa(const struct cache_entry *e, const uint8_t **owner, const uint8_t **rdata,
                     uint16_t *rdlen);

/* Removes expired entries from the next `buckets` hash buckets (a slow background sweep, so
 * expired RRsets are freed at scattered times as in a real resolver's cache cleaner). */
void cache_sweep(struct cache *c, uint32_t now, size_t buckets);
/* One sixteenth of the table: called every second, the whole cache is swept every 16 s. */
void cache_sweep_step(struct cache *c, uint32_t now);
size_t cache_bytes(const struct cache *c);
size_t cache_entries(const struct cache *c);
/* Bytes of one entry's header, for documentation and tests. */
size_t cache_entry_overhead(void);

#endif
