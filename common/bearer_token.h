/* common/bearer_token.h - the shared secret between a controller and its agents: read from a file
 * only its owner can read, sent and checked as an HTTP bearer token (docs/agent.md, "Token"). */
#ifndef ALLOCSPIKE_BEARER_TOKEN_H
#define ALLOCSPIKE_BEARER_TOKEN_H

#include <stdbool.h>
#include <stddef.h>

/* A token is 1 to BEARER_TOKEN_MAX visible ASCII characters (no space or control character, so it
 * cannot break a header line). */
#define BEARER_TOKEN_MAX 256

/* Reads the token from path into token (at least BEARER_TOKEN_MAX + 1 bytes): the file's first
 * line. Refused with the reason in err unless path is a regular file (not through a link) whose
 * mode gives group and others nothing (0600 or stricter), holding a valid token. */
bool bearer_token_load(const char *path, char *token, size_t size, char *err, size_t err_size);

/* True when an Authorization header value is "Bearer TOKEN"; the comparison takes as long
 * whatever the bytes, so a client cannot find the token byte by byte. header may be NULL. */
bool bearer_token_matches(const char *header, const char *token);

#endif
