/* common/flat_world.c - the flat reference world's TLD names. */
#include "flat_world.h"

#include <stdio.h>
#include <string.h>

int flat_tld_label(unsigned k, char *buf, size_t size)
{
	return snprintf(buf, size, "tld%u", k);
}

unsigned flat_tld_index(const char *label, size_t len, unsigned n)
{
	/* "tld" and 1 to 6 digits without a leading zero: one spelling per k */
	if (len < 4 || len > 9 || memcmp(label, "tld", 3) != 0 || label[3] == '0')
		return 0;
	unsigned k = 0;
	for (size_t i = 3; i < len; i++) {
		if (label[i] < '0' || label[i] > '9')
			return 0;
		k = k * 10 + (unsigned)(label[i] - '0');
	}
	return k <= n ? k : 0;
}
