/* upstream/template.c - reply templates: one wire image per (server, anchor zone, question shape,
 * reply shape), instantiated for another name by patching ID and question, moving compression
 * pointers and, in address answers, writing the name's TTL and addresses. */
#include "template.h"

#include "answer.h"
#include "hash.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEMPLATE_POINTERS 32
#define TEMPLATE_LABELS 8

struct template_slot {
	uint64_t hash;
	char *anchor; /* NULL: empty */
	int server;
	uint16_t qtype, qclass, limit;
	uint8_t flags;
	enum template_shape shape;
	int naddresses;      /* TEMPLATE_LEAF_*ADDRESSES: how many */
	uint8_t prefix[256]; /* TEMPLATE_LEAF_CNAME_ADDRESSES: the target's labels above the zone */
	size_t prefix_len;
	uint16_t cname; /* TEMPLATE_LEAF_CNAME_ADDRESSES: offset of the CNAME record in v.wire */
	struct replycache_value v;
	uint16_t name_len; /* the question name's wire length in v.wire */
	uint16_t answers;  /* TEMPLATE_LEAF_*ADDRESSES: offset of the first address record */
	int npointers;
	uint16_t pointers[TEMPLATE_POINTERS]; /* offsets of the compression pointers in v.wire */
	/* the labels just above the anchor in the names of the reply's records (length byte first,
	 * lower case): a question with such a label would be compressed differently */
	int nlabels;
	uint8_t labels[TEMPLATE_LABELS][64];
};

struct templates {
	struct template_slot *slots;
	size_t mask;
	uint64_t hits, misses;
};

struct templates *templates_new(size_t slots)
{
	if (slots == 0)
		return NULL;
	size_t n = 1;
	while (n < slots)
		n *= 2;
	struct templates *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->slots = calloc(n, sizeof(*t->slots));
	if (!t->slots) {
		free(t);
		return NULL;
	}
	t->mask = n - 1;
	return t;
}

/* The labels of name above zone (a suffix of it) in wire form into out; false when there are
 * escapes or more than fit. */
static bool template_prefix(const char *name, const char *zone, uint8_t *out, size_t *len)
{
	size_t n = strlen(name), zl = strcmp(zone, ".") == 0 ? 0 : strlen(zone);
	if (n < zl || n - zl >= 255 || strchr(name, '\\'))
		return false;
	*len = 0;
	for (const char *p = name; p < name + n - zl;) {
		const char *dot = strchr(p, '.');
		size_t l = (size_t)(dot - p);
		if (l == 0 || l > 63)
			return false;
		out[(*len)++] = (uint8_t)l;
		memcpy(out + *len, p, l);
		*len += l;
		p = dot + 1;
	}
	return true;
}

/* A CNAME the zone's server follows (answer_follows_cname) to a name with addresses: the shape
 * TEMPLATE_LEAF_CNAME_ADDRESSES with the target's addresses and labels in tq. */
static bool template_cname_shape(const struct world *w, const struct zone *z,
                                 const struct answer_query *q, const char *target,
                                 struct template_query *tq)
{
	char next[ZONES_NAME_MAX];
	uint32_t cname_ttl = tq->addresses.cname_ttl;
	if (!answer_follows_cname(z, q, q->qname, target) ||
	    content_peek(w, z, target, q->qtype, &tq->addresses, next) != CONTENT_ANSWER ||
	    tq->addresses.n == 0 || !template_prefix(target, z->name, tq->prefix, &tq->prefix_len))
		return false;
	tq->addresses.cname_ttl = cname_ttl;
	tq->shape = TEMPLATE_LEAF_CNAME_ADDRESSES;
	return true;
}

bool templates_anchor(const struct world *w, const struct server *s, const struct answer_query *q,
                      const struct replycache_key *key, struct template_query *tq)
{
	if (q->qtype == LDNS_RR_TYPE_DS)
		return false; /* at a cut the parent answers it itself */
	const struct zone_chain *chain = q->chain;
	int i = q->qclass == LDNS_RR_CLASS_IN ? zones_served_by(chain, s) : -1;
	const char *name;
	tq->shape = TEMPLATE_ZONE;
	tq->addresses.n = 0;
	tq->prefix_len = 0;
	if (i < 0) {
		name = ".";
	} else if (i < chain->depth - 1) {
		name = chain->zones[i + 1].name;
	} else if (!chain->exists) {
		name = chain->zones[i].name;
	} else if (answer_from_content(&chain->zones[i], q)) {
		name = chain->zones[i].name;
		char target[ZONES_NAME_MAX];
		switch (
		    content_peek(w, &chain->zones[i], q->qname, q->qtype, &tq->addresses, target)) {
		case CONTENT_NODATA:
			tq->shape = TEMPLATE_LEAF_NODATA;
			break;
		case CONTENT_NXDOMAIN:
			tq->shape = TEMPLATE_LEAF_NXDOMAIN;
			break;
		case CONTENT_ANSWER:
			if (tq->addresses.n == 0)
				return false; /* MX, TXT...: names and strings no patch moves */
			tq->shape = TEMPLATE_LEAF_ADDRESSES;
			break;
		case CONTENT_CNAME:
			if (!template_cname_shape(w, &chain->zones[i], q, target, tq))
				return false;
			break;
		}
	} else {
		return false;
	}
	tq->key = *key;
	tq->key.qname = name;
	return true;
}

/* Labels of a presentation name ("." has none). */
static int template_count_labels(const char *name)
{
	if (strcmp(name, ".") == 0)
		return 0;
	int n = 0;
	for (const char *c = name; *c; c++) {
		if (*c == '\\' && c[1])
			c++;
		else if (*c == '.')
			n++;
	}
	return n;
}

/* In an uncompressed wire name of len bytes, where its last nsuffix labels start (*start) and
 * where the label above them starts (*above, or -1 when there is none). */
static bool template_suffix(const uint8_t *name, size_t len, int nsuffix, size_t *start,
                            long *above)
{
	size_t starts[128];
	int n = 0;
	for (size_t p = 0; p < len && name[p] != 0; p += 1 + name[p]) {
		if (n == 128)
			return false;
		starts[n++] = p;
	}
	if (nsuffix > n)
		return false;
	*start = nsuffix == 0 ? len - 1 : starts[n - nsuffix];
	*above = n - nsuffix - 1 >= 0 ? (long)starts[n - nsuffix - 1] : -1;
	return true;
}

static bool template_label_equal(const uint8_t *a, const uint8_t *b)
{
	if (a[0] != b[0])
		return false;
	for (int i = 1; i <= a[0]; i++)
		if (tolower(a[i]) != tolower(b[i]))
			return false;
	return true;
}

static bool template_has_label(const struct template_slot *t, const uint8_t *label)
{
	for (int i = 0; i < t->nlabels; i++)
		if (template_label_equal(t->labels[i], label))
			return true;
	return false;
}

/* Walks one (possibly compressed) name at *pos of the template's wire: records its pointer
 * (which must target min_target or beyond: the anchor's part of the question or later) and the
 * label above the anchor (alen bytes of lower-case wire) if the name lies under it. */
static bool template_walk_name(struct template_slot *t, const uint8_t *w, size_t len, size_t *pos,
                               size_t min_target, const uint8_t *anchor, size_t alen)
{
	uint8_t name[256];
	size_t starts[128], n = 0, p = *pos;
	int nl = 0, hops = 0;
	bool jumped = false;
	for (;;) {
		if (p >= len)
			return false;
		uint8_t l = w[p];
		if ((l & 0xc0) == 0xc0) {
			if (p + 1 >= len || ++hops > 32)
				return false;
			size_t target = (size_t)(l & 0x3f) << 8 | w[p + 1];
			if (!jumped) {
				if (target < min_target || t->npointers == TEMPLATE_POINTERS)
					return false;
				t->pointers[t->npointers++] = (uint16_t)p;
				*pos = p + 2;
				jumped = true;
			}
			if (target >= p)
				return false;
			p = target;
			continue;
		}
		if ((l & 0xc0) || n + 1 + l > sizeof(name) || nl == 128)
			return false;
		starts[nl++] = n;
		name[n] = l;
		for (size_t i = 1; i <= l; i++)
			name[n + i] = (uint8_t)tolower(w[p + i]);
		n += 1 + (size_t)l;
		if (l == 0)
			break;
		p += 1 + (size_t)l;
	}
	if (!jumped)
		*pos = p + 1;
	if (n <= alen || memcmp(name + n - alen, anchor, alen) != 0)
		return true;
	for (int i = 1; i < nl; i++) {
		if (starts[i] != n - alen)
			continue;
		const uint8_t *label = name + starts[i - 1];
		if (template_has_label(t, label))
			return true;
		if (t->nlabels == TEMPLATE_LABELS)
			return false;
		memcpy(t->labels[t->nlabels++], label, 1 + (size_t)label[0]);
		return true;
	}
	return true;
}

static uint16_t template_u16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* The slot of tq: the reply-cache key of the anchor, the shape and the number of addresses. */
static uint64_t template_hash(const struct template_query *tq)
{
	return hash_combine(replycache_key_hash(&tq->key), (uint64_t)tq->prefix_len << 16 |
	                                                       (uint64_t)tq->shape << 8 |
	                                                       (uint64_t)tq->addresses.n);
}

/* True when two wire prefixes have labels of the same lengths (the template's bytes then only
 * differ in the letters). */
static bool template_same_labels(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	if (alen != blen)
		return false;
	for (size_t p = 0; p < alen; p += 1 + a[p])
		if (a[p] != b[p])
			return false;
	return true;
}

static struct template_slot *template_find(struct templates *t, const struct template_query *tq,
                                           uint64_t h)
{
	const struct replycache_key *k = &tq->key;
	struct template_slot *s = &t->slots[h & t->mask];
	if (s->anchor && s->hash == h && s->server == k->server && s->qtype == k->qtype &&
	    s->qclass == k->qclass && s->limit == k->limit && s->flags == k->flags &&
	    s->shape == tq->shape && s->naddresses == tq->addresses.n &&
	    template_same_labels(s->prefix, s->prefix_len, tq->prefix, tq->prefix_len) &&
	    strcmp(s->anchor, k->qname) == 0)
		return s;
	return NULL;
}

static void template_put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* Writes the name's TTL and addresses over the template's address records from w + at on. */
static void template_patch_addresses(uint8_t *w, size_t at, const struct content_addresses *a)
{
	for (int i = 0; i < a->n; i++, at += 12 + (size_t)a->rdlen) {
		template_put_u32(w + at + 6, a->ttl);
		memcpy(w + at + 12, a->rdata[i], a->rdlen);
	}
}

bool templates_reply(struct templates *t, const struct template_query *tq, const uint8_t *pkt,
                     size_t name_len, struct replycache_value *out)
{
	if (!t)
		return false;
	const struct replycache_key *key = &tq->key;
	const struct template_slot *s = template_find(t, tq, template_hash(tq));
	size_t start;
	long above;
	if (!s ||
	    !template_suffix(pkt + 12, name_len, template_count_labels(key->qname), &start,
	                     &above) ||
	    (above >= 0 && template_has_label(s, pkt + 12 + above))) {
		t->misses++;
		return false;
	}
	long delta = (long)name_len - (long)s->name_len;
	size_t len = (size_t)((long)s->v.len + delta);
	uint8_t *w = len <= key->limit ? malloc(len) : NULL;
	if (!w) {
		t->misses++;
		return false;
	}
	size_t body = 12 + s->name_len;
	memcpy(w, s->v.wire, 12);
	w[0] = pkt[0];
	w[1] = pkt[1];
	memcpy(w + 12, pkt + 12, name_len);
	memcpy(w + 12 + name_len, s->v.wire + body, s->v.len - body);
	for (int i = 0; i < s->npointers; i++) {
		size_t at = (size_t)((long)s->pointers[i] + delta);
		long target = (long)((w[at] & 0x3f) << 8 | w[at + 1]) + delta;
		if (target > 0x3fff) {
			free(w);
			t->misses++;
			return false;
		}
		w[at] = (uint8_t)(0xc0 | target >> 8);
		w[at + 1] = (uint8_t)target;
	}
	if (s->shape == TEMPLATE_LEAF_CNAME_ADDRESSES) {
		size_t at = (size_t)((long)s->cname + delta);
		template_put_u32(w + at + 6, tq->addresses.cname_ttl);
		memcpy(w + at + 12, tq->prefix, tq->prefix_len);
	}
	if (s->shape == TEMPLATE_LEAF_ADDRESSES || s->shape == TEMPLATE_LEAF_CNAME_ADDRESSES)
		template_patch_addresses(w, (size_t)((long)s->answers + delta), &tq->addresses);
	*out = s->v;
	out->wire = w;
	out->len = len;
	t->hits++;
	return true;
}

void templates_learn(struct templates *t, const struct template_query *tq, const uint8_t *pkt,
                     size_t name_len, const struct replycache_value *v)
{
	const struct replycache_key *key = &tq->key;
	if (!t || v->truncated || v->len < 12 + name_len + 4 || v->len > 0x3fff)
		return;
	size_t start;
	long above;
	if (!template_suffix(pkt + 12, name_len, template_count_labels(key->qname), &start, &above))
		return;
	size_t alen = name_len - start;
	uint8_t anchor[256];
	for (size_t i = 0; i < alen; i++)
		anchor[i] = (uint8_t)tolower(pkt[12 + start + i]);
	struct template_slot fresh = {0};
	const uint8_t *w = v->wire;
	unsigned ancount = template_u16(w + 6);
	unsigned count = ancount + template_u16(w + 8) + template_u16(w + 10);
	bool addresses = tq->shape == TEMPLATE_LEAF_ADDRESSES;
	bool cname = tq->shape == TEMPLATE_LEAF_CNAME_ADDRESSES;
	if ((addresses && ancount != (unsigned)tq->addresses.n) ||
	    (cname && ancount != 1 + (unsigned)tq->addresses.n))
		return;
	size_t pos = 12 + name_len + 4;
	fresh.cname = (uint16_t)pos;
	fresh.answers = (uint16_t)(cname ? 0 : pos);
	for (unsigned i = 0; i < count; i++) {
		if (cname && i == 1)
			fresh.answers = (uint16_t)pos;
		if ((addresses && i < ancount) || (cname && i == 0)) {
			/* the name's own record: its owner a pointer to the question, which no
			 * name length moves; TTL and rdata are patched */
			if (pos + 12 > v->len || w[pos] != 0xc0 || w[pos + 1] != 12 ||
			    (addresses && template_u16(w + pos + 10) != tq->addresses.rdlen) ||
			    (cname && (template_u16(w + pos + 2) != LDNS_RR_TYPE_CNAME ||
			               pos + 12 + tq->prefix_len > v->len ||
			               memcmp(w + pos + 12, tq->prefix, tq->prefix_len) != 0)))
				return;
			pos += 2;
		} else if (!template_walk_name(&fresh, w, v->len, &pos, 12 + start, anchor, alen) ||
		           pos + 10 > v->len) {
			return;
		}
		uint16_t type = template_u16(w + pos);
		size_t end = pos + 10 + template_u16(w + pos + 8);
		pos += 10;
		if (end > v->len)
			return;
		switch (type) {
		case LDNS_RR_TYPE_NS:
		case LDNS_RR_TYPE_CNAME:
			if (!template_walk_name(&fresh, w, v->len, &pos, 12 + start, anchor,
			                        alen) ||
			    pos != end)
				return;
			break;
		case LDNS_RR_TYPE_SOA:
			if (!template_walk_name(&fresh, w, v->len, &pos, 12 + start, anchor,
			                        alen) ||
			    !template_walk_name(&fresh, w, v->len, &pos, 12 + start, anchor,
			                        alen) ||
			    pos + 20 != end)
				return;
			break;
		case LDNS_RR_TYPE_A:
		case LDNS_RR_TYPE_AAAA:
		case LDNS_RR_TYPE_OPT:
			break;
		default:
			return; /* other records may hold names this walk does not know */
		}
		pos = end;
	}
	uint8_t *copy = malloc(v->len);
	char *name = strdup(key->qname);
	if (pos != v->len || !copy || !name) {
		free(copy);
		free(name);
		return;
	}
	memcpy(copy, w, v->len);
	uint64_t h = template_hash(tq);
	struct template_slot *s = &t->slots[h & t->mask];
	free(s->anchor);
	free(s->v.wire);
	*s = fresh;
	s->hash = h;
	s->anchor = name;
	s->server = key->server;
	s->qtype = key->qtype;
	s->qclass = key->qclass;
	s->limit = key->limit;
	s->flags = key->flags;
	s->shape = tq->shape;
	s->naddresses = tq->addresses.n;
	memcpy(s->prefix, tq->prefix, tq->prefix_len);
	s->prefix_len = tq->prefix_len;
	s->v = *v;
	s->v.wire = copy;
	s->name_len = (uint16_t)name_len;
}

void templates_stats(const struct templates *t, uint64_t *hits, uint64_t *misses)
{
	*hits = t ? t->hits : 0;
	*misses = t ? t->misses : 0;
}

void templates_free(struct templates *t)
{
	if (!t)
		return;
	for (size_t i = 0; i <= t->mask; i++) {
		free(t->slots[i].anchor);
		free(t->slots[i].v.wire);
	}
	free(t->slots);
	free(t);
}
