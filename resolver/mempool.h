/* resolver/mempool.h - the kresd layout's per-request pool: malloc'd chunks, bump allocation, freed
 * whole. */
#ifndef ALLOCSPIKE_RESOLVER_MEMPOOL_H
#define ALLOCSPIKE_RESOLVER_MEMPOOL_H

#include <stddef.h>

/* Like kresd 5 (knot's mempool under kr_request.pool): each chunk is one malloc() of
 * MEMPOOL_CHUNK bytes (larger requests get a chunk of their own size); nothing is freed
 * before mempool_destroy(), which frees every chunk. */
#define MEMPOOL_CHUNK (16 * 1024)

struct mempool;

struct mempool *mempool_create(void);
void *mempool_alloc(struct mempool *pool, size_t size);
void mempool_destroy(struct mempool *pool);
/* Bytes obtained from malloc for this pool so far (chunk sizes). */
size_t mempool_footprint(const struct mempool *pool);

#endif
