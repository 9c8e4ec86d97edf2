/* agent/queries_upload.h - the query file a controller carries to a shard's agent (PUT /queries,
 * docs/agent.md "A generator shard"): the body checked against the SHA-256 the request names,
 * kept in the agent's --shard-dir under a name the agent makes of that digest (never a path the
 * client gives), and named by a shard plan as "sha256:HEX" in place of a path on the host. */
#ifndef ALLOCSPIKE_AGENT_QUERIES_UPLOAD_H
#define ALLOCSPIKE_AGENT_QUERIES_UPLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "sha256_hex.h"

/* The largest query file taken: five times the default file (1,000,000 queries, 24.8 MB), held
 * in memory while it arrives. */
#define QUERIES_UPLOAD_MAX_BYTES (128u << 20)
/* How a plan names an upload: this prefix and the digest. */
#define QUERIES_UPLOAD_PREFIX "sha256:"

/* len bytes of body, said to have the digest named (the header's value, NULL: missing), kept as
 * dir/queries-DIGEST.txt (dir made when missing). The HTTP status into *status: 201 kept, 200 kept
 * already, 400 no digest or not the body's, 500 it could not be written; false with the reason in
 * err unless kept. */
bool queries_upload_take(const char *dir, const char *named, const void *body, size_t len,
                         int *status, char *err, size_t err_size);

/* A shard plan's "queries" as the agent runs it: an absolute path as it is; QUERIES_UPLOAD_PREFIX
 * and a digest, the file kept for it in dir (into path). False, with the reason in err, when
 * nothing was uploaded with that digest. */
bool queries_upload_resolve(const char *dir, const char *queries, char *path, size_t path_size,
                            char *err, size_t err_size);

/* Whether a plan's "queries" names an upload (its prefix and a valid digest). */
bool queries_upload_named(const char *queries);

#endif
