/* querydata/hashcount.h - counts per 64-bit key (a name's hash), open addressing, grows as needed.
 */
#ifndef ALLOCSPIKE_QUERYDATA_HASHCOUNT_H
#define ALLOCSPIKE_QUERYDATA_HASHCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Keys are hashes, not the names: a 64-bit hash collides with odds of about n^2 / 2^65
 * (1 in 10^6 for 6 million names), and storing hashes keeps millions of names in a few
 * tens of MB. Key 0 is reserved (mapped to 1).
 */
struct hashcount {
	uint64_t *keys;
	uint32_t *counts;
	size_t size; /* slots, a power of two */
	size_t used;
};

bool hashcount_init(struct hashcount *h, size_t expected);
void hashcount_free(struct hashcount *h);
/* Adds one to key's count; returns the new count, or 0 when out of memory. */
uint32_t hashcount_add(struct hashcount *h, uint64_t key);
/* The count of key (0 if absent). */
uint32_t hashcount_get(const struct hashcount *h, uint64_t key);

/* Hash of a name as a cache sees it: ASCII case folded, trailing dot dropped ("." stays). */
uint64_t hashcount_name_key(const char *name, size_t len);
/* Hash of (name, qtype). */
uint64_t hashcount_pair_key(uint64_t name_key, uint16_t qtype);

#endif
