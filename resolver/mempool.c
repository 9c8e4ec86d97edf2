/* resolver/mempool.c - chunked bump pool for request memory (see mempool.h). */
#include "mempool.h"

#include <stdint.h>
#include <stdlib.h>

struct mempool_chunk {
	struct mempool_chunk *next;
	size_t size; /* usable bytes after this header */
	size_t used;
};

struct mempool {
	struct mempool_chunk *chunks; /* newest first; the pool header lives in the first chunk */
	const struct mempool_shape *shape;
	size_t footprint;
};

const struct mempool_shape mempool_kresd = {16 * 1024, 16 * 1024, 8 * 1024};
const struct mempool_shape mempool_unbound_region = {16384, 8192, 2048};

#define MEMPOOL_ALIGN 16
#define MEMPOOL_HDR                                                                                \
	((sizeof(struct mempool_chunk) + MEMPOOL_ALIGN - 1) & ~(size_t)(MEMPOOL_ALIGN - 1))

static struct mempool_chunk *mempool_chunk_new(size_t usable)
{
	struct mempool_chunk *c = malloc(MEMPOOL_HDR + usable);
	if (!c)
		return NULL;
	c->next = NULL;
	c->size = usable;
	c->used = 0;
	return c;
}

struct mempool *mempool_create(const struct mempool_shape *shape)
{
	struct mempool_chunk *c = mempool_chunk_new(shape->first_chunk - MEMPOOL_HDR);
	if (!c)
		return NULL;
	struct mempool *pool = (struct mempool *)((uint8_t *)c + MEMPOOL_HDR);
	c->used = (sizeof(*pool) + MEMPOOL_ALIGN - 1) & ~(size_t)(MEMPOOL_ALIGN - 1);
	pool->chunks = c;
	pool->shape = shape;
	pool->footprint = shape->first_chunk;
	return pool;
}

void *mempool_alloc(struct mempool *pool, size_t size)
{
	size = (size + MEMPOOL_ALIGN - 1) & ~(size_t)(MEMPOOL_ALIGN - 1);
	struct mempool_chunk *c = pool->chunks;
	if (size > pool->shape->own_chunk_over) {
		/* A big object gets a chunk of its own behind the current one, so the current
		 * chunk's free tail stays usable. */
		struct mempool_chunk *n = mempool_chunk_new(size);
		if (!n)
			return NULL;
		pool->footprint += MEMPOOL_HDR + size;
		n->next = c->next;
		c->next = n;
		n->used = size;
		return (uint8_t *)n + MEMPOOL_HDR;
	}
	if (c->size - c->used < size) {
		struct mempool_chunk *n = mempool_chunk_new(pool->shape->next_chunk - MEMPOOL_HDR);
		if (!n)
			return NULL;
		pool->footprint += pool->shape->next_chunk;
		n->next = c;
		pool->chunks = n;
		c = n;
	}
	void *p = (uint8_t *)c + MEMPOOL_HDR + c->used;
	c->used += size;
	return p;
}

bool mempool_contains(const struct mempool *pool, const void *p)
{
	for (const struct mempool_chunk *c = pool->chunks; c; c = c->next) {
		const uint8_t *start = (const uint8_t *)c + MEMPOOL_HDR;
		if ((const uint8_t *)p >= start && (const uint8_t *)p < start + c->size)
			return true;
	}
	return false;
}

size_t mempool_footprint(const struct mempool *pool)
{
	return pool->footprint;
}

void mempool_destroy(struct mempool *pool)
{
	if (!pool)
		return;
	struct mempool_chunk *c = pool->chunks;
	/* The pool header sits in the oldest chunk, so read the list before freeing it. */
	while (c) {
		struct mempool_chunk *next = c->next;
		free(c);
		c = next;
	}
}
