/* resolver/cache_store.h - where cache entries live: the heap (heap layout) or an mmap'd file
 * (kresd layout). */
#ifndef ALLOCSPIKE_RESOLVER_CACHE_STORE_H
#define ALLOCSPIKE_RESOLVER_CACHE_STORE_H

#include <stdbool.h>
#include <stddef.h>

struct cache_store;

/* in_file: entries are carved out of one unlinked temporary file mapped MAP_SHARED (like
 * kresd's LMDB cache file: outside the heap, counted as file-backed RSS), sized from
 * max_bytes; otherwise every entry is one malloc(). */
struct cache_store *cache_store_create(bool in_file, size_t max_bytes, char *err, size_t err_size);
void cache_store_destroy(struct cache_store *st);
/* Memory for an entry of size bytes; *charged receives what it costs against the cap (the
 * size class in the file), even when NULL is returned because the file has no free block of
 * that class left (0 when the size is beyond every class). */
void *cache_store_alloc(struct cache_store *st, size_t size, size_t *charged);
void cache_store_free(struct cache_store *st, void *p, size_t charged);
/* Zeroed memory for the hash table (in the file too, for the kresd layout). */
void *cache_store_table(struct cache_store *st, size_t size);
bool cache_store_in_file(const struct cache_store *st);

#endif
