/* tests/fuzz/fuzz_resolver.h - one resolver for the fuzz targets over the resolver's code (client
 * packets, upstream and glueless replies, control socket). Configured with upstream_offline:
 * nothing is ever sent; replies are handed to the pending query with its ID patched in. */
#ifndef ALLOCSPIKE_FUZZ_RESOLVER_H
#define ALLOCSPIKE_FUZZ_RESOLVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "resolver.h"

extern struct resolver fuzz_r;

/* A fresh cache and request table in the given layout (the configuration, one root server at
 * 127.0.0.1:53, and the event base are made on the first call and kept). */
void fuzz_resolver_begin(bool kresd_layout);
/* Frees what fuzz_resolver_begin made for this input, and every request still in flight. */
void fuzz_resolver_end(void);
/* A client datagram from 127.0.0.1:5353. */
void fuzz_resolver_client(const uint8_t *wire, size_t len);
/* Hands reply to the query in flight for (name, type), ID patched, and runs the loop once; false
 * when no such query is in flight. */
bool fuzz_resolver_reply(const uint8_t *name, uint16_t type, const uint8_t *wire, size_t len);

/* www.example.test. A, RD, EDNS 1232, and its name on the wire. */
extern const uint8_t fuzz_resolver_query[45];
extern const uint8_t fuzz_resolver_qname[18];

#endif
