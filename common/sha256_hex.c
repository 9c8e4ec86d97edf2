/* common/sha256_hex.c - SHA-256 digests as hex (sha256_hex.h). */
#include "sha256_hex.h"

#include <errno.h>
#include <fcntl.h>
#include <gnutls/crypto.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void sha256_hex_format(const unsigned char sum[32], char hex[SHA256_HEX_LEN + 1])
{
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", sum[i]);
}

bool sha256_hex_of(const void *data, size_t len, char hex[SHA256_HEX_LEN + 1])
{
	unsigned char sum[32];
	if (gnutls_hash_fast(GNUTLS_DIG_SHA256, data, len, sum) < 0)
		return false;
	sha256_hex_format(sum, hex);
	return true;
}

bool sha256_hex_file(const char *path, char hex[SHA256_HEX_LEN + 1])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	gnutls_hash_hd_t h;
	if (fd < 0)
		return false;
	if (gnutls_hash_init(&h, GNUTLS_DIG_SHA256) < 0) {
		close(fd);
		return false;
	}
	static unsigned char buf[1 << 16];
	ssize_t got;
	while ((got = read(fd, buf, sizeof(buf))) > 0 || (got < 0 && errno == EINTR))
		if (got > 0)
			gnutls_hash(h, buf, (size_t)got);
	close(fd);
	unsigned char sum[32];
	gnutls_hash_deinit(h, sum);
	if (got < 0)
		return false;
	sha256_hex_format(sum, hex);
	return true;
}

bool sha256_hex_valid(const char *text)
{
	return text && strlen(text) == SHA256_HEX_LEN &&
	       strspn(text, "0123456789abcdef") == SHA256_HEX_LEN;
}
