/* common/sha256_hex.h - SHA-256 digests as lowercase hex (GnuTLS): the query file's name in the
 * cache (controller/query_file.c) and a query file carried to a shard's agent, checked there
 * against the digest its sender named (PUT /queries, docs/agent.md). */
#ifndef ALLOCSPIKE_SHA256_HEX_H
#define ALLOCSPIKE_SHA256_HEX_H

#include <stdbool.h>
#include <stddef.h>

#define SHA256_HEX_LEN 64
/* The HTTP header a request's body's digest travels in (PUT /queries), checked by the receiver. */
#define SHA256_HEX_HEADER "X-Content-SHA256"

/* len bytes of data's digest into hex (SHA256_HEX_LEN digits and a NUL); false when GnuTLS
 * fails. */
bool sha256_hex_of(const void *data, size_t len, char hex[SHA256_HEX_LEN + 1]);

/* The digest of the file at path, read in blocks; false when it cannot be read. */
bool sha256_hex_file(const char *path, char hex[SHA256_HEX_LEN + 1]);

/* Whether text is a digest as these write it: SHA256_HEX_LEN lowercase hex digits, nothing
 * else (so that it can name a file). */
bool sha256_hex_valid(const char *text);

#endif
