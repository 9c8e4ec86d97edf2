/* resolver/memory.h - request-scoped memory in either layout: heap (one malloc per object) or kresd
 * (pool). */
#ifndef ALLOCSPIKE_RESOLVER_MEMORY_H
#define ALLOCSPIKE_RESOLVER_MEMORY_H

#include <stddef.h>

#include "mempool.h"

enum memory_layout {
	LAYOUT_HEAP = 0, /* unbound-like: every object its own malloc, freed when done with */
	LAYOUT_KRESD = 1 /* kresd-like: a mempool per request, freed whole at its end */
};

struct rmem_block;

/* One request's allocator. In the heap layout each allocation is a separate malloc
 * (tracked on a list so rmem_release can free what the code did not free early). */
struct rmem {
	enum memory_layout layout;
	struct mempool *pool;
	struct rmem_block *blocks;
};

int rmem_init(struct rmem *m, enum memory_layout layout);
void *rmem_alloc(struct rmem *m, size_t size);
void *rmem_calloc(struct rmem *m, size_t size);
void *rmem_memdup(struct rmem *m, const void *src, size_t size);
/* Frees now in the heap layout; a no-op in the pool (it dies with the request). */
void rmem_free(struct rmem *m, void *p);
void rmem_release(struct rmem *m);

const char *memory_layout_name(enum memory_layout layout);
int memory_layout_parse(const char *text, enum memory_layout *out);

#endif
