/* resolver/memory.h - request-scoped memory in either layout: heap (unbound's per-query region)
 * or kresd (kresd's per-request pool), plus loose objects that are each their own malloc. */
#ifndef ALLOCSPIKE_RESOLVER_MEMORY_H
#define ALLOCSPIKE_RESOLVER_MEMORY_H

#include <stddef.h>

#include "mempool.h"

enum memory_layout {
	LAYOUT_HEAP =
	    0, /* unbound-like: a region per query state, reply parsing in loose mallocs */
	LAYOUT_KRESD = 1 /* kresd-like: a mempool per request, socket state in loose mallocs */
};

struct rmem_block;

/* One request's allocator: its pool (shaped like the daemon's, mempool.h) and its loose objects
 * (tracked on a list so rmem_release can free what the code did not free early). */
struct rmem {
	enum memory_layout layout;
	struct mempool *pool;
	struct rmem_block *blocks;
};

int rmem_init(struct rmem *m, enum memory_layout layout);
/* Request memory: from the pool, lives until rmem_release. */
void *rmem_alloc(struct rmem *m, size_t size);
void *rmem_calloc(struct rmem *m, size_t size);
void *rmem_memdup(struct rmem *m, const void *src, size_t size);
/* A loose object, its own malloc in either layout: what the daemon keeps outside request memory
 * (unbound's reply parsing; kresd's and unbound's per-socket upstream state). */
void *rmem_alloc_loose(struct rmem *m, size_t size);
void *rmem_calloc_loose(struct rmem *m, size_t size);
/* Frees a loose object now; a no-op for pool memory (it dies with the request). */
void rmem_free(struct rmem *m, void *p);
/* Bytes the request holds: pool chunks plus loose objects (headers included). */
size_t rmem_footprint(const struct rmem *m);
void rmem_release(struct rmem *m);

const char *memory_layout_name(enum memory_layout layout);
int memory_layout_parse(const char *text, enum memory_layout *out);

#endif
