/* resolver/mempool.h - request memory carved from malloc'd chunks by bump allocation, freed
 * whole: kresd's per-request mempool and unbound's per-query region, told apart by their shape. */
#ifndef ALLOCSPIKE_RESOLVER_MEMPOOL_H
#define ALLOCSPIKE_RESOLVER_MEMPOOL_H

#include <stdbool.h>
#include <stddef.h>

/* How a pool takes memory from malloc: its first chunk, each later chunk, and the size past which
 * an object gets a chunk of its own (sizes are whole malloc requests, headers included). */
struct mempool_shape {
	size_t first_chunk;
	size_t next_chunk;
	size_t own_chunk_over;
};

/* kresd 5: mp_new(4 * CPU_PAGE_SIZE) per request (daemon/worker.c pool_borrow), 16 KiB chunks,
 * objects over half a chunk in a chunk of their own. */
extern const struct mempool_shape mempool_kresd;
/* unbound: a query state's region comes from alloc_reg_obtain, regional_create_custom of
 * ALLOC_REG_SIZE 16384 (util/alloc.c); it grows by REGIONAL_CHUNK_SIZE 8192 chunks and objects
 * over REGIONAL_LARGE_OBJECT_SIZE 2048 are malloc'd apart (util/regional.c). */
extern const struct mempool_shape mempool_unbound_region;

struct mempool;

struct mempool *mempool_create(const struct mempool_shape *shape);
void *mempool_alloc(struct mempool *pool, size_t size);
/* Whether p points into one of the pool's chunks. */
bool mempool_contains(const struct mempool *pool, const void *p);
void mempool_destroy(struct mempool *pool);
/* Bytes obtained from malloc for this pool so far (chunk sizes). */
size_t mempool_footprint(const struct mempool *pool);

#endif
