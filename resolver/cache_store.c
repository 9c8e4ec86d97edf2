/* resolver/cache_store.c - cache entry memory: malloc per entry, or size classes in an mmap'd file.
 */
#include "cache_store.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define STORE_MIN_SHIFT 6  /* 64-byte smallest class */
#define STORE_MAX_SHIFT 17 /* 128 KiB: any RRset fits */
#define STORE_CLASSES (STORE_MAX_SHIFT - STORE_MIN_SHIFT + 1)

struct store_free {
	struct store_free *next;
};

struct cache_store {
	bool in_file;
	uint8_t *base;
	size_t map_size, top; /* bump pointer over the file; freed blocks go to per-class lists */
	struct store_free *free_list[STORE_CLASSES];
	void *heap_table;
};

struct cache_store *cache_store_create(bool in_file, size_t max_bytes, char *err, size_t err_size)
{
	struct cache_store *st = calloc(1, sizeof(*st));
	if (!st) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	st->in_file = in_file;
	if (!in_file)
		return st;
	/* Room for the table, the cap, and one block per class of slack. */
	st->map_size = max_bytes + max_bytes / 8 + ((size_t)2 << STORE_MAX_SHIFT) + (1 << 20);
	st->map_size = (st->map_size + 4095) & ~(size_t)4095;
	const char *dir = getenv("TMPDIR");
	char path[512];
	snprintf(path, sizeof(path), "%s/allocspike-cache.XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	if (fd < 0) {
		snprintf(err, err_size, "cache file %s: %s", path, strerror(errno));
		free(st);
		return NULL;
	}
	unlink(path);
	if (ftruncate(fd, (off_t)st->map_size) < 0) {
		snprintf(err, err_size, "cache file %s: %s", path, strerror(errno));
		close(fd);
		free(st);
		return NULL;
	}
	st->base = mmap(NULL, st->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (st->base == MAP_FAILED) {
		snprintf(err, err_size, "mmap cache file: %s", strerror(errno));
		free(st);
		return NULL;
	}
	return st;
}

void cache_store_destroy(struct cache_store *st)
{
	if (!st)
		return;
	if (st->in_file)
		munmap(st->base, st->map_size);
	else
		free(st->heap_table);
	free(st);
}

bool cache_store_in_file(const struct cache_store *st)
{
	return st->in_file;
}

static int store_class(size_t size)
{
	int c = 0;
	while (((size_t)1 << (STORE_MIN_SHIFT + c)) < size)
		c++;
	return c;
}

void *cache_store_alloc(struct cache_store *st, size_t size, size_t *charged)
{
	if (!st->in_file) {
		*charged = size;
		return malloc(size);
	}
	int c = store_class(size);
	if (c >= STORE_CLASSES) {
		*charged = 0;
		return NULL;
	}
	size_t block = (size_t)1 << (STORE_MIN_SHIFT + c);
	*charged = block; /* also on failure: the caller evicts an entry of this class */
	if (st->free_list[c]) {
		struct store_free *f = st->free_list[c];
		st->free_list[c] = f->next;
		return f;
	}
	if (st->top + block > st->map_size)
		return NULL;
	void *p = st->base + st->top;
	st->top += block;
	return p;
}

void cache_store_free(struct cache_store *st, void *p, size_t charged)
{
	if (!st->in_file) {
		free(p);
		return;
	}
	int c = store_class(charged);
	struct store_free *f = p;
	f->next = st->free_list[c];
	st->free_list[c] = f;
}

void *cache_store_table(struct cache_store *st, size_t size)
{
	if (!st->in_file) {
		st->heap_table = calloc(1, size);
		return st->heap_table;
	}
	size = (size + 63) & ~(size_t)63;
	if (st->top + size > st->map_size)
		return NULL;
	void *p = st->base + st->top; /* a fresh file reads as zeros */
	st->top += size;
	return p;
}
