/* querydata/hashcount.c - counts per 64-bit key (a name's hash), open addressing, grows as needed.
 */
#include "hashcount.h"

#include <stdlib.h>

#include "rng.h"

bool hashcount_init(struct hashcount *h, size_t expected)
{
	size_t size = 1024;
	while (size < expected * 2)
		size *= 2;
	h->keys = calloc(size, sizeof(*h->keys));
	h->counts = calloc(size, sizeof(*h->counts));
	h->size = size;
	h->used = 0;
	return h->keys && h->counts;
}

void hashcount_free(struct hashcount *h)
{
	free(h->keys);
	free(h->counts);
	h->keys = NULL;
	h->counts = NULL;
	h->size = h->used = 0;
}

static size_t hashcount_slot(const uint64_t *keys, size_t size, uint64_t key)
{
	size_t i = (size_t)key & (size - 1);
	while (keys[i] != 0 && keys[i] != key)
		i = (i + 1) & (size - 1);
	return i;
}

static bool hashcount_grow(struct hashcount *h)
{
	struct hashcount bigger;
	if (!hashcount_init(&bigger, h->size))
		return false;
	for (size_t i = 0; i < h->size; i++) {
		if (h->keys[i] == 0)
			continue;
		size_t j = hashcount_slot(bigger.keys, bigger.size, h->keys[i]);
		bigger.keys[j] = h->keys[i];
		bigger.counts[j] = h->counts[i];
	}
	bigger.used = h->used;
	hashcount_free(h);
	*h = bigger;
	return true;
}

uint32_t hashcount_add(struct hashcount *h, uint64_t key)
{
	if (key == 0)
		key = 1;
	if ((h->used + 1) * 4 > h->size * 3 && !hashcount_grow(h))
		return 0;
	size_t i = hashcount_slot(h->keys, h->size, key);
	if (h->keys[i] == 0) {
		h->keys[i] = key;
		h->used++;
	}
	return ++h->counts[i];
}

uint32_t hashcount_get(const struct hashcount *h, uint64_t key)
{
	if (key == 0)
		key = 1;
	size_t i = hashcount_slot(h->keys, h->size, key);
	return h->keys[i] == key ? h->counts[i] : 0;
}

uint64_t hashcount_name_key(const char *name, size_t len)
{
	char buf[1100];
	if (len > 1 && name[len - 1] == '.')
		len--;
	if (len > sizeof(buf))
		len = sizeof(buf);
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		buf[i] = (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
	}
	return rng_hash(buf, len);
}

uint64_t hashcount_pair_key(uint64_t name_key, uint16_t qtype)
{
	return rng_mix(name_key ^ ((uint64_t)qtype * 0x9e3779b97f4a7c15ULL));
}
