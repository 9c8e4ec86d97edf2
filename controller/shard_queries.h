/* controller/shard_queries.h - the run's query file as allocspike-run shards carries it to each
 * generator host's agent (PUT /queries, docs/agent.md "A generator shard"): mapped whole, its
 * SHA-256 taken once, so that every agent is sent the same bytes and checks them, and each shard
 * plan names the file by that digest rather than by a path the host would need to have. */
#ifndef ALLOCSPIKE_CONTROLLER_SHARD_QUERIES_H
#define ALLOCSPIKE_CONTROLLER_SHARD_QUERIES_H

#include <stdbool.h>
#include <stddef.h>

#include "sha256_hex.h"

struct shard_queries {
	void *data; /* the file, mapped read-only (NULL for an empty file) */
	size_t len;
	char sha256[SHA256_HEX_LEN + 1];
	char named[SHA256_HEX_LEN + 16]; /* "sha256:HEX", what a shard plan's "queries" says */
};

/* Maps the file at path and takes its digest; false with the reason in err. */
bool shard_queries_open(struct shard_queries *q, const char *path, char *err, size_t err_size);

void shard_queries_close(struct shard_queries *q);

#endif
