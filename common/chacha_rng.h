/* common/chacha_rng.h - random numbers from ChaCha20 with fast key erasure, seeded by getrandom. */
#ifndef ALLOCSPIKE_CHACHA_RNG_H
#define ALLOCSPIKE_CHACHA_RNG_H

#include <stddef.h>
#include <stdint.h>

#define CHACHA_RNG_BLOCKS 16

/* The same generator in both libc worlds (musl has no arc4random): a ChaCha20 keystream whose
 * first 32 bytes of every refill become the next key, so a later memory read cannot recover
 * numbers already handed out (the construction OpenBSD's arc4random uses). */
struct chacha_rng {
	uint32_t key[8];
	uint8_t buf[64 * CHACHA_RNG_BLOCKS];
	size_t pos; /* next unread byte of buf; sizeof(buf) when empty */
};

/* Seeds from getrandom(2). Returns 0, or -1 when the kernel gave no entropy (the caller must
 * not go on: predictable query IDs are the hole this generator closes). */
int chacha_rng_seed(struct chacha_rng *g);
/* Seeds from a given 32-byte key (tests). */
void chacha_rng_seed_key(struct chacha_rng *g, const uint8_t key[32]);
void chacha_rng_bytes(struct chacha_rng *g, void *out, size_t len);
uint64_t chacha_rng_u64(struct chacha_rng *g);
/* Uniform in [0, n) without modulo bias; n > 0. */
uint32_t chacha_rng_below(struct chacha_rng *g, uint32_t n);

/* One ChaCha20 block (RFC 8439 §2.3): exposed for the test vectors. */
void chacha20_block(const uint32_t key[8], uint32_t counter, const uint32_t nonce[3],
                    uint8_t out[64]);

#endif
