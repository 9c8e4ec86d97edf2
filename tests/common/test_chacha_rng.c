/* tests/common/test_chacha_rng.c - the ChaCha20 generator: RFC 8439 block vector, key erasure,
 * uniform draws. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "chacha_rng.h"

static void hex(const char *text, uint8_t *out, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned v;
		sscanf(text + 2 * i, "%2x", &v);
		out[i] = (uint8_t)v;
	}
}

/* RFC 8439 §2.3.2: key 00..1f, nonce 000000090000004a00000000, counter 1. */
static void test_block_rfc8439(void **state)
{
	uint32_t key[8], nonce[3];
	uint8_t kb[32], nb[12], out[64], want[64];
	for (int i = 0; i < 32; i++)
		kb[i] = (uint8_t)i;
	hex("000000090000004a00000000", nb, 12);
	memcpy(key, kb, 32); /* little-endian words, as the RFC reads them on x86 and arm */
	memcpy(nonce, nb, 12);
	chacha20_block(key, 1, nonce, out);
	hex("10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
	    "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e",
	    want, 64);
	assert_memory_equal(out, want, 64);
}

/* Zero key: the first 32 keystream bytes become the next key, numbers start at byte 32. */
static void test_generator_skips_next_key(void **state)
{
	static struct chacha_rng g;
	uint8_t key[32] = {0}, out[8], want[8];
	chacha_rng_seed_key(&g, key);
	chacha_rng_bytes(&g, out, sizeof(out));
	hex("da41597c5157488d", want, 8);
	assert_memory_equal(out, want, 8);
	/* the buffer holds nothing already handed out, nor the next key */
	for (size_t i = 0; i < g.pos; i++)
		assert_int_equal(g.buf[i], 0);
}

static void test_refill_changes_key(void **state)
{
	static struct chacha_rng g;
	uint8_t key[32] = {0}, big[4 * sizeof(g.buf)];
	chacha_rng_seed_key(&g, key);
	chacha_rng_bytes(&g, big, sizeof(big));
	/* no 64-byte block repeats across refills (a stuck key would repeat the keystream) */
	for (size_t a = 0; a + 64 <= sizeof(big); a += 64)
		for (size_t b = a + 64; b + 64 <= sizeof(big); b += 64)
			assert_true(memcmp(big + a, big + b, 64) != 0);
}

static void test_below_is_in_range_and_covers(void **state)
{
	static struct chacha_rng g;
	assert_int_equal(chacha_rng_seed(&g), 0);
	int seen[7] = {0};
	for (int i = 0; i < 7000; i++) {
		uint32_t v = chacha_rng_below(&g, 7);
		assert_true(v < 7);
		seen[v]++;
	}
	for (int i = 0; i < 7; i++)
		assert_true(seen[i] > 700 && seen[i] < 1300); /* 1000 expected; 9 sigma apart */
	assert_int_equal(chacha_rng_below(&g, 1), 0);
}

static void test_seeds_differ(void **state)
{
	static struct chacha_rng a, b;
	assert_int_equal(chacha_rng_seed(&a), 0);
	assert_int_equal(chacha_rng_seed(&b), 0);
	assert_true(chacha_rng_u64(&a) != chacha_rng_u64(&b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_block_rfc8439),
	    cmocka_unit_test(test_generator_skips_next_key),
	    cmocka_unit_test(test_refill_changes_key),
	    cmocka_unit_test(test_below_is_in_range_and_covers),
	    cmocka_unit_test(test_seeds_differ),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
