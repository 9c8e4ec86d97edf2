/* resolver/memory.c - request-scoped allocation for the two memory layouts (see memory.h). */
#include "memory.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct rmem_block {
	struct rmem_block *prev, *next;
	size_t size;
};

/* Keeps the user pointer 16-byte aligned like malloc's own. */
#define RMEM_HDR ((sizeof(struct rmem_block) + 15) & ~(size_t)15)

int rmem_init(struct rmem *m, enum memory_layout layout)
{
	m->layout = layout;
	m->blocks = NULL;
	m->pool = mempool_create(layout == LAYOUT_KRESD ? &mempool_kresd : &mempool_unbound_region);
	return m->pool ? 0 : -1;
}

void *rmem_alloc(struct rmem *m, size_t size)
{
	return mempool_alloc(m->pool, size);
}

void *rmem_calloc(struct rmem *m, size_t size)
{
	void *p = rmem_alloc(m, size);
	if (p)
		memset(p, 0, size);
	return p;
}

void *rmem_memdup(struct rmem *m, const void *src, size_t size)
{
	void *p = rmem_alloc(m, size);
	if (p)
		memcpy(p, src, size);
	return p;
}

void *rmem_alloc_loose(struct rmem *m, size_t size)
{
	struct rmem_block *b = malloc(RMEM_HDR + size);
	if (!b)
		return NULL;
	b->size = size;
	b->prev = NULL;
	b->next = m->blocks;
	if (m->blocks)
		m->blocks->prev = b;
	m->blocks = b;
	return (uint8_t *)b + RMEM_HDR;
}

void *rmem_calloc_loose(struct rmem *m, size_t size)
{
	void *p = rmem_alloc_loose(m, size);
	if (p)
		memset(p, 0, size);
	return p;
}

void rmem_free(struct rmem *m, void *p)
{
	if (!p || mempool_contains(m->pool, p))
		return;
	struct rmem_block *b = (struct rmem_block *)((uint8_t *)p - RMEM_HDR);
	if (b->prev)
		b->prev->next = b->next;
	else
		m->blocks = b->next;
	if (b->next)
		b->next->prev = b->prev;
	free(b);
}

size_t rmem_footprint(const struct rmem *m)
{
	size_t bytes = m->pool ? mempool_footprint(m->pool) : 0;
	for (const struct rmem_block *b = m->blocks; b; b = b->next)
		bytes += RMEM_HDR + b->size;
	return bytes;
}

void rmem_release(struct rmem *m)
{
	mempool_destroy(m->pool);
	m->pool = NULL;
	struct rmem_block *b = m->blocks;
	while (b) {
		struct rmem_block *next = b->next;
		free(b);
		b = next;
	}
	m->blocks = NULL;
}

const char *memory_layout_name(enum memory_layout layout)
{
	return layout == LAYOUT_KRESD ? "kresd" : "heap";
}

int memory_layout_parse(const char *text, enum memory_layout *out)
{
	if (strcmp(text, "heap") == 0)
		*out = LAYOUT_HEAP;
	else if (strcmp(text, "kresd") == 0)
		*out = LAYOUT_KRESD;
	else
		return -1;
	return 0;
}
