/* tests/resolver/resolver_test_util.h - helpers for the resolver's unit tests: names and records
 * from text. */
#ifndef ALLOCSPIKE_TESTS_RESOLVER_UTIL_H
#define ALLOCSPIKE_TESTS_RESOLVER_UTIL_H

#include <stdint.h>
#include <string.h>

#include "msg.h"

/* "www.example." -> wire form in a static ring of buffers (64 live at once, enough for one test's
 * expressions). */
static inline const uint8_t *N(const char *text)
{
	static uint8_t ring[64][256];
	static int next;
	uint8_t *out = ring[next++ % 64];
	size_t o = 0;
	const char *p = text;
	while (*p && !(p[0] == '.' && p[1] == '\0')) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		out[o++] = (uint8_t)n;
		memcpy(out + o, p, n);
		o += n;
		p += n;
		if (*p == '.')
			p++;
	}
	out[o] = 0;
	return out;
}

static inline struct msg_rr RR(const char *owner, uint16_t type, uint32_t ttl, const void *rdata,
                               uint16_t rdlen) {
	struct msg_rr rr = {.owner = N(owner),
	                    .rdata = rdata,
	                    .ttl = ttl,
	                    .type = type,
	                    .rclass = CLASS_IN,
	                    .rdlen = rdlen};
	return rr;
}

#endif
