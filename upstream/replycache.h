/* upstream/replycache.h - recent replies by question, so the variants asking the same questions
 * cost one answer build, not one per variant. */
#ifndef ALLOCSPIKE_UPSTREAM_REPLYCACHE_H
#define ALLOCSPIKE_UPSTREAM_REPLYCACHE_H

#include "answer.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Everything a reply depends on besides the ID and the letter case of the question. */
struct replycache_key {
	const char *qname; /* lower case */
	int server;
	uint16_t qtype, qclass;
	uint16_t limit; /* the size the reply had to fit */
	uint8_t flags;  /* rd, cd, edns bits */
};

struct replycache_value {
	uint8_t *wire;
	size_t len;
	int rcode;
	enum answer_kind kind;
	bool truncated;
};

struct replycache;

/* The hash of every field of k (the reply templates key on it too). */
uint64_t replycache_key_hash(const struct replycache_key *k);

/* slots is rounded up to a power of two; 0 disables the cache. */
struct replycache *replycache_new(size_t slots);

/* The cached reply for key, or NULL; valid until the next replycache_store. */
const struct replycache_value *replycache_find(struct replycache *c,
                                               const struct replycache_key *k);

/* Keeps a copy of v under key (replacing what the slot held). */
void replycache_store(struct replycache *c, const struct replycache_key *k,
                      const struct replycache_value *v);

void replycache_stats(const struct replycache *c, uint64_t *hits, uint64_t *misses);

void replycache_free(struct replycache *c);

#endif
