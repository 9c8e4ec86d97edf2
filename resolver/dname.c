/* resolver/dname.c - domain name helpers on uncompressed wire names (see dname.h). */
#include "dname.h"

#include <stdio.h>
#include <string.h>

static inline uint8_t dname_lower_byte(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') ? (uint8_t)(c + 32) : c;
}

size_t dname_len(const uint8_t *name)
{
	const uint8_t *p = name;
	while (*p)
		p += *p + 1;
	return (size_t)(p - name) + 1;
}

bool dname_equal(const uint8_t *a, const uint8_t *b)
{
	for (;;) {
		if (*a != *b)
			return false;
		uint8_t n = *a;
		if (n == 0)
			return true;
		a++;
		b++;
		for (uint8_t i = 0; i < n; i++)
			if (dname_lower_byte(a[i]) != dname_lower_byte(b[i]))
				return false;
		a += n;
		b += n;
	}
}

int dname_labels(const uint8_t *name)
{
	int n = 0;
	while (*name) {
		name += *name + 1;
		n++;
	}
	return n;
}

bool dname_is_sub(const uint8_t *child, const uint8_t *parent)
{
	int extra = dname_labels(child) - dname_labels(parent);
	if (extra < 0)
		return false;
	while (extra-- > 0)
		child += *child + 1;
	return dname_equal(child, parent);
}

const uint8_t *dname_parent(const uint8_t *name)
{
	if (*name == 0)
		return NULL;
	return name + *name + 1;
}

uint32_t dname_hash(const uint8_t *name, uint32_t seed)
{
	uint32_t h = 2166136261u ^ seed;
	size_t len = dname_len(name);
	for (size_t i = 0; i < len; i++) {
		h ^= dname_lower_byte(name[i]);
		h *= 16777619u;
	}
	return h;
}

void dname_copy_lower(uint8_t *out, const uint8_t *name)
{
	size_t len = dname_len(name);
	for (size_t i = 0; i < len; i++)
		out[i] = dname_lower_byte(name[i]);
}

int dname_unpack(const uint8_t *pkt, size_t pkt_len, size_t *pos, uint8_t *out)
{
	size_t p = *pos, out_len = 0;
	int jumps = 0;
	bool jumped = false;
	for (;;) {
		if (p >= pkt_len)
			return -1;
		uint8_t c = pkt[p];
		if ((c & 0xC0) == 0xC0) {
			if (p + 1 >= pkt_len || ++jumps > 64)
				return -1;
			size_t target = ((size_t)(c & 0x3F) << 8) | pkt[p + 1];
			if (!jumped)
				*pos = p + 2;
			jumped = true;
			/* Only backward pointers: forward ones are how loops and overreads are
			 * built. */
			if (target >= p)
				return -1;
			p = target;
			continue;
		}
		if (c & 0xC0)
			return -1; /* extended label types are obsolete */
		if (p + 1 + c > pkt_len || out_len + 1 + c > DNAME_MAXLEN)
			return -1;
		memcpy(out + out_len, pkt + p, (size_t)c + 1);
		out_len += (size_t)c + 1;
		p += (size_t)c + 1;
		if (c == 0)
			break;
	}
	if (!jumped)
		*pos = p;
	return (int)out_len;
}

char *dname_to_str(const uint8_t *name, char *buf, size_t size)
{
	size_t o = 0;
	if (size == 0)
		return buf;
	if (*name == 0) {
		snprintf(buf, size, ".");
		return buf;
	}
	while (*name && o + 1 < size) {
		uint8_t n = *name++;
		for (uint8_t i = 0; i < n && o + 1 < size; i++) {
			uint8_t c = name[i];
			if (c > 32 && c < 127 && c != '.' && c != '\\') {
				buf[o++] = (char)c;
			} else if (o + 4 < size) {
				o += (size_t)snprintf(buf + o, size - o, "\\%03u", c);
			}
		}
		name += n;
		if (o + 1 < size)
			buf[o++] = '.';
	}
	buf[o] = '\0';
	return buf;
}
