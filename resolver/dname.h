/* resolver/dname.h - domain names in uncompressed wire form: compare, hash, walk, decompress. */
#ifndef ALLOCSPIKE_RESOLVER_DNAME_H
#define ALLOCSPIKE_RESOLVER_DNAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DNAME_MAXLEN 255

/* Wire length of a well-formed uncompressed name, root label included. */
size_t dname_len(const uint8_t *name);
/* Case-insensitive equality (DNS names compare ASCII case-insensitively). */
bool dname_equal(const uint8_t *a, const uint8_t *b);
/* True when child equals parent or lies below it. */
bool dname_is_sub(const uint8_t *child, const uint8_t *parent);
/* The name with its first label removed; NULL for the root. */
const uint8_t *dname_parent(const uint8_t *name);
int dname_labels(const uint8_t *name);
/* Case-insensitive FNV-1a, so names differing only in case share a hash bucket. */
uint32_t dname_hash(const uint8_t *name, uint32_t seed);
/* Copies name into out (DNAME_MAXLEN + 1 bytes) in lower case. */
void dname_copy_lower(uint8_t *out, const uint8_t *name);
/* Reads a possibly compressed name at *pos of a packet into out; advances *pos past it.
 * Returns the name's length, or -1 for a malformed name (loops, overruns, over 255 bytes). */
int dname_unpack(const uint8_t *pkt, size_t pkt_len, size_t *pos, uint8_t *out);
/* Presentation form ("www.example." or "."), for logs and errors. */
char *dname_to_str(const uint8_t *name, char *buf, size_t size);

#endif
