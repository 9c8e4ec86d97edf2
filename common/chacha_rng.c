/* common/chacha_rng.c - ChaCha20 keystream as a random number generator (RFC 8439 block function).
 */
#include "chacha_rng.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

static inline uint32_t rotl32(uint32_t v, int n)
{
	return (v << n) | (v >> (32 - n));
}

#define QUARTER(a, b, c, d)                                                                        \
	do {                                                                                       \
		a += b;                                                                            \
		d = rotl32(d ^ a, 16);                                                             \
		c += d;                                                                            \
		b = rotl32(b ^ c, 12);                                                             \
		a += b;                                                                            \
		d = rotl32(d ^ a, 8);                                                              \
		c += d;                                                                            \
		b = rotl32(b ^ c, 7);                                                              \
	} while (0)

void chacha20_block(const uint32_t key[8], uint32_t counter, const uint32_t nonce[3],
                    uint8_t out[64])
{
	uint32_t s[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
	memcpy(s + 4, key, 32);
	s[12] = counter;
	memcpy(s + 13, nonce, 12);
	uint32_t x[16];
	memcpy(x, s, sizeof(x));
	for (int i = 0; i < 10; i++) {
		QUARTER(x[0], x[4], x[8], x[12]);
		QUARTER(x[1], x[5], x[9], x[13]);
		QUARTER(x[2], x[6], x[10], x[14]);
		QUARTER(x[3], x[7], x[11], x[15]);
		QUARTER(x[0], x[5], x[10], x[15]);
		QUARTER(x[1], x[6], x[11], x[12]);
		QUARTER(x[2], x[7], x[8], x[13]);
		QUARTER(x[3], x[4], x[9], x[14]);
	}
	for (int i = 0; i < 16; i++) {
		uint32_t v = x[i] + s[i];
		out[4 * i] = (uint8_t)v;
		out[4 * i + 1] = (uint8_t)(v >> 8);
		out[4 * i + 2] = (uint8_t)(v >> 16);
		out[4 * i + 3] = (uint8_t)(v >> 24);
	}
}

/* A fresh buffer of keystream; its first 32 bytes become the next key and are wiped. */
static void chacha_rng_refill(struct chacha_rng *g)
{
	static const uint32_t nonce[3] = {0, 0, 0};
	for (uint32_t i = 0; i < CHACHA_RNG_BLOCKS; i++)
		chacha20_block(g->key, i, nonce, g->buf + 64 * i);
	for (int i = 0; i < 8; i++)
		g->key[i] = (uint32_t)g->buf[4 * i] | (uint32_t)g->buf[4 * i + 1] << 8 |
		            (uint32_t)g->buf[4 * i + 2] << 16 | (uint32_t)g->buf[4 * i + 3] << 24;
	memset(g->buf, 0, 32);
	g->pos = 32;
}

void chacha_rng_seed_key(struct chacha_rng *g, const uint8_t key[32])
{
	memcpy(g->key, key, 32);
	chacha_rng_refill(g);
}

int chacha_rng_seed(struct chacha_rng *g)
{
	uint8_t key[32];
	size_t have = 0;
	while (have < sizeof(key)) {
		ssize_t n = getrandom(key + have, sizeof(key) - have, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		have += (size_t)n;
	}
	chacha_rng_seed_key(g, key);
	memset(key, 0, sizeof(key));
	return 0;
}

void chacha_rng_bytes(struct chacha_rng *g, void *out, size_t len)
{
	uint8_t *p = out;
	while (len > 0) {
		if (g->pos >= sizeof(g->buf))
			chacha_rng_refill(g);
		size_t take = sizeof(g->buf) - g->pos;
		if (take > len)
			take = len;
		memcpy(p, g->buf + g->pos, take);
		memset(g->buf + g->pos, 0, take); /* handed out once, then forgotten */
		g->pos += take;
		p += take;
		len -= take;
	}
}

uint64_t chacha_rng_u64(struct chacha_rng *g)
{
	uint64_t v;
	chacha_rng_bytes(g, &v, sizeof(v));
	return v;
}

uint32_t chacha_rng_below(struct chacha_rng *g, uint32_t n)
{
	/* Reject the top sliver that would make small values likelier. */
	uint32_t limit = (uint32_t)(-n) % n, v;
	do
		chacha_rng_bytes(g, &v, sizeof(v));
	while (v < limit);
	return v % n;
}
