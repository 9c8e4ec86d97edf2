/* upstream/content.c - deterministic leaf data: existence, CNAMEs, address sets, MX, TXT, TTLs. */
#include "content.h"

#include "hash.h"
#include "rr.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Salts keep the choices about one name independent of each other. */
enum {
	SALT_EXISTS = 1,
	SALT_CNAME,
	SALT_TTL,
	SALT_COUNT,
	SALT_ADDR,
	SALT_HAS,
	SALT_TXT,
	SALT_TARGET,
	SALT_SOA,
};

static uint64_t content_hash(const struct world *w, const char *name, uint64_t salt)
{
	return hash_bytes(w->seed ^ (salt * 0x9e3779b97f4a7c15ULL), name, strlen(name));
}

/* Picks from cumulative weights: weights[i] is the share of values[i]. */
static uint32_t content_pick(double u, const double *weights, const uint32_t *values, int n)
{
	double acc = 0;
	for (int i = 0; i < n; i++) {
		acc += weights[i];
		if (u < acc)
			return values[i];
	}
	return values[n - 1];
}

/* TTL of ordinary data: 300 s and 3600 s the most common, a day for a tenth, tens of seconds
 * for a fifth (see README.md for the sources). */
static uint32_t content_ttl_generic(uint64_t h)
{
	static const double wt[] = {0.05, 0.15, 0.05, 0.25, 0.05, 0.05,
	                            0.05, 0.20, 0.05, 0.03, 0.07};
	static const uint32_t v[] = {30, 60, 120, 300, 600, 900, 1800, 3600, 14400, 43200, 86400};
	return content_pick(hash_unit(h), wt, v, 11);
}

/* CDN answers: tens of seconds. */
static uint32_t content_ttl_cdn(uint64_t h)
{
	static const double wt[] = {0.30, 0.20, 0.40, 0.10};
	static const uint32_t v[] = {20, 30, 60, 300};
	return content_pick(hash_unit(h), wt, v, 4);
}

uint32_t content_ns_ttl(const struct world *w, const struct zone *z, bool at_parent)
{
	if (z->kind == ZONE_ROOT)
		return 518400;
	if (z->kind == ZONE_REGISTRY || z->kind == ZONE_WILDCARD || at_parent)
		return 172800; /* what the root and gTLD registries publish */
	static const double wt[] = {0.30, 0.50, 0.20};
	static const uint32_t v[] = {3600, 86400, 172800};
	return content_pick(hash_unit(content_hash(w, z->name, SALT_TTL)), wt, v, 3);
}

ldns_rr *content_soa(const struct world *w, const struct zone *z)
{
	static const double wt[] = {0.25, 0.25, 0.35, 0.15};
	static const uint32_t v[] = {300, 900, 3600, 86400};
	uint64_t h = content_hash(w, z->name, SALT_SOA);
	uint32_t minimum = z->kind == ZONE_ROOT ? 86400
	                   : z->kind == ZONE_REGISTRY || z->kind == ZONE_WILDCARD
	                       ? 900
	                       : content_pick(hash_unit(h), wt, v, 4);
	char mname[ZONES_NAME_MAX], rname[ZONES_NAME_MAX + 16];
	zones_ns_name(z, 0, mname);
	snprintf(rname, sizeof(rname), "hostmaster.%s", strcmp(z->name, ".") == 0 ? "" : z->name);
	ldns_rr *rr = rr_new(z->name, LDNS_RR_TYPE_SOA, minimum < 3600 ? minimum : 3600);
	rr_add_dname(rr, mname);
	rr_add_dname(rr, rname);
	rr_add_u32(rr, LDNS_RDF_TYPE_INT32, 2012020100u + (uint32_t)(h % 100));
	rr_add_u32(rr, LDNS_RDF_TYPE_PERIOD, 7200);
	rr_add_u32(rr, LDNS_RDF_TYPE_PERIOD, 900);
	rr_add_u32(rr, LDNS_RDF_TYPE_PERIOD, 1209600);
	rr_add_u32(rr, LDNS_RDF_TYPE_PERIOD, minimum);
	return rr;
}

/* A plausible public unicast IPv4 address (no 0/8, 10/8, 127/8, multicast). */
static uint32_t content_ipv4(uint64_t h)
{
	uint32_t a = (uint32_t)(h >> 32);
	uint32_t first = 1 + (uint32_t)((h & 0xffff) % 222);
	if (first == 10 || first == 127)
		first++;
	return first << 24 | (a & 0xffffff);
}

/* n addresses of type from h into a (n at most CONTENT_MAX_ADDRESSES); their records onto out
 * unless out is NULL (content_peek). */
static void content_add_addresses(const char *owner, uint16_t type, uint32_t ttl, int n, uint64_t h,
                                  ldns_rr_list *out, struct content_addresses *a)
{
	a->ttl = ttl;
	a->rdlen = type == LDNS_RR_TYPE_A ? 4 : 16;
	a->n = 0;
	for (int i = 0; i < n && i < CONTENT_MAX_ADDRESSES; i++) {
		uint64_t hi = hash_combine(h, (uint64_t)i);
		uint8_t *rd = a->rdata[a->n++];
		if (type == LDNS_RR_TYPE_A) {
			uint32_t v4 = content_ipv4(hi);
			uint8_t be[4] = {(uint8_t)(v4 >> 24), (uint8_t)(v4 >> 16),
			                 (uint8_t)(v4 >> 8), (uint8_t)v4};
			memcpy(rd, be, 4);
		} else {
			uint64_t lo = hash_mix(hi);
			memcpy(rd, (const uint8_t[4]){0x20, 0x01, 0x0d, 0xb8}, 4);
			memcpy(rd + 4, &hi, 4);
			memcpy(rd + 8, &lo, 8);
		}
		if (!out)
			continue;
		ldns_rr *rr = rr_new(owner, type, ttl);
		if (!rr)
			return;
		if (type == LDNS_RR_TYPE_A)
			rr_add_a(rr, content_ipv4(hi));
		else
			rr_add_aaaa(rr, rd);
		ldns_rr_list_push_rr(out, rr);
	}
}

/* Number of addresses: mostly one, a long tail to eight (load-balanced and CDN names). */
static int content_address_count(uint64_t h, bool cdn)
{
	static const double wg[] = {0.65, 0.17, 0.06, 0.06, 0.02, 0.02, 0.01, 0.01};
	static const double wc[] = {0.20, 0.50, 0.10, 0.10, 0.04, 0.03, 0.02, 0.01};
	static const uint32_t v[] = {1, 2, 3, 4, 5, 6, 7, 8};
	return (int)content_pick(hash_unit(h), cdn ? wc : wg, v, 8);
}

static void content_random_text(uint64_t h, char *buf, size_t len)
{
	static const char alphabet[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	for (size_t i = 0; i < len; i++) {
		if (i % 10 == 0)
			h = hash_mix(h + i);
		buf[i] = alphabet[(h >> ((i % 10) * 6)) & 63];
	}
}

/* TXT of a domain apex: SPF and verification tokens; 6% carry kilobytes (keys, long policies). */
static void content_apex_txt(const struct zone *z, uint32_t ttl, uint64_t h, ldns_rr_list *out)
{
	char buf[256];
	ldns_rr *rr = rr_new(z->name, LDNS_RR_TYPE_TXT, ttl);
	int n = snprintf(buf, sizeof(buf), "v=spf1 mx include:_spf.simdns-%d.net ~all",
	                 (int)(h % ZONES_PROVIDERS));
	rr_add_string(rr, buf, (size_t)n);
	ldns_rr_list_push_rr(out, rr);
	if (hash_unit(hash_mix(h)) < 0.5) {
		rr = rr_new(z->name, LDNS_RR_TYPE_TXT, ttl);
		memcpy(buf, "site-verification=", 18);
		content_random_text(hash_mix(h ^ 1), buf + 18, 43);
		rr_add_string(rr, buf, 61);
		ldns_rr_list_push_rr(out, rr);
	}
	if (hash_unit(hash_mix(h ^ 2)) < 0.06) {
		int strings = 2 + (int)(hash_mix(h ^ 3) % 11); /* 0.5 to 3 KB */
		rr = rr_new(z->name, LDNS_RR_TYPE_TXT, ttl);
		for (int i = 0; i < strings; i++) {
			content_random_text(hash_combine(h, (uint64_t)i), buf, 255);
			rr_add_string(rr, buf, 255);
		}
		ldns_rr_list_push_rr(out, rr);
	}
}

static void content_dkim_txt(const char *owner, uint32_t ttl, uint64_t h, ldns_rr_list *out)
{
	char buf[256];
	ldns_rr *rr = rr_new(owner, LDNS_RR_TYPE_TXT, ttl);
	if (!rr)
		return;
	/* a 2048-bit key: about 400 bytes in two strings */
	memcpy(buf, "v=DKIM1; k=rsa; p=", 18);
	content_random_text(h, buf + 18, 237);
	rr_add_string(rr, buf, 255);
	content_random_text(hash_mix(h), buf, 160);
	rr_add_string(rr, buf, 160);
	ldns_rr_list_push_rr(out, rr);
}

static void content_apex_mx(const struct zone *z, uint32_t ttl, uint64_t h, ldns_rr_list *out)
{
	static const double wt[] = {0.40, 0.40, 0.10, 0.05, 0.05};
	static const uint32_t v[] = {1, 2, 3, 4, 5};
	int n = (int)content_pick(hash_unit(h), wt, v, 5);
	char target[ZONES_NAME_MAX + 8];
	for (int i = 0; i < n; i++) {
		ldns_rr *rr = rr_new(z->name, LDNS_RR_TYPE_MX, ttl);
		snprintf(target, sizeof(target), "mx%d.%s", i + 1, z->name);
		rr_add_u16(rr, (uint16_t)(10 * (i + 1)));
		rr_add_dname(rr, target);
		ldns_rr_list_push_rr(out, rr);
	}
}

/* Labels that almost always exist: the names people and mail servers look up. */
static bool content_common_label(const char *label, size_t len)
{
	static const char *const common[] = {
	    "www",        "mail",   "m",      "ftp",  "smtp",   "pop",          "imap",   "webmail",
	    "api",        "cdn",    "static", "img",  "images", "media",        "assets", "s",
	    "video",      "login",  "secure", "blog", "shop",   "news",         "ns1",    "ns2",
	    "mx1",        "mx2",    "mx3",    "mx4",  "mx5",    "autodiscover", "_tcp",   "_udp",
	    "_domainkey", "_dmarc",
	};
	for (size_t i = 0; i < sizeof(common) / sizeof(common[0]); i++)
		if (strlen(common[i]) == len && strncmp(common[i], label, len) == 0)
			return true;
	return false;
}

static bool content_is_cdn_label(const char *label, size_t len)
{
	static const char *const cdn[] = {"cdn",   "static", "img", "images",
	                                  "media", "assets", "s",   "video"};
	for (size_t i = 0; i < sizeof(cdn) / sizeof(cdn[0]); i++)
		if (strlen(cdn[i]) == len && strncmp(cdn[i], label, len) == 0)
			return true;
	return false;
}

/* A name below the apex exists if it and every name between it and the apex do, so a resolver
 * minimising its questions never meets a name below an NXDOMAIN. */
static bool content_exists(const struct world *w, const struct zone *z, const char *qname)
{
	size_t zlen = strlen(z->name), qlen = strlen(qname);
	for (const char *name = qname; strlen(name) > zlen;) {
		const char *dot = strchr(name, '.');
		size_t llen = (size_t)(dot - name);
		double p = name[0] == '_' ? 0.4 : dot + 1 == qname + qlen - zlen ? 0.92 : 0.85;
		if (content_common_label(name, llen))
			p = (strncmp(name, "mx", 2) == 0 || strncmp(name, "mail", 4) == 0) ? 1.0
			                                                                   : 0.97;
		if (hash_unit(content_hash(w, name, SALT_EXISTS)) >= p)
			return false;
		name = dot + 1;
	}
	return true;
}

static enum content_result content_cdn(const struct world *w, const struct zone *z,
                                       const char *qname, uint16_t qtype, ldns_rr_list *out,
                                       char *target, struct content_addresses *a)
{
	uint64_t h = content_hash(w, qname, SALT_CNAME);
	bool edge = qname[0] == 'a' && strstr(qname, ".g.simcdn-") != NULL;
	if (!edge && hash_unit(h) < 0.43) {
		uint64_t t = hash_mix(h);
		if (hash_unit(t) < 0.19) /* handed over to another CDN: the chain continues there */
			snprintf(target, ZONES_NAME_MAX, "e%u.simcdn-%u.net.",
			         (unsigned)(t >> 40) % 100000, (unsigned)(t % ZONES_CDNS));
		else
			snprintf(target, ZONES_NAME_MAX, "a%u.g.%s", (unsigned)(t >> 40) % 997,
			         z->name);
		a->cname_ttl = content_ttl_cdn(hash_mix(t));
		if (!out)
			return CONTENT_CNAME;
		ldns_rr *rr = rr_new(qname, LDNS_RR_TYPE_CNAME, a->cname_ttl);
		if (!rr)
			return CONTENT_NXDOMAIN;
		rr_add_dname(rr, target);
		ldns_rr_list_push_rr(out, rr);
		return CONTENT_CNAME;
	}
	uint32_t ttl = content_ttl_cdn(content_hash(w, qname, SALT_TTL));
	uint64_t hc = content_hash(w, qname, SALT_COUNT);
	if (qtype == LDNS_RR_TYPE_A) {
		content_add_addresses(qname, qtype, ttl, content_address_count(hc, true),
		                      content_hash(w, qname, SALT_ADDR), out, a);
		return CONTENT_ANSWER;
	}
	if (qtype == LDNS_RR_TYPE_AAAA && hash_unit(content_hash(w, qname, SALT_HAS)) < 0.6) {
		content_add_addresses(qname, qtype, ttl, content_address_count(hc, true),
		                      content_hash(w, qname, SALT_ADDR ^ 0x66), out, a);
		return CONTENT_ANSWER;
	}
	return CONTENT_NODATA;
}

static enum content_result content_reverse(const struct world *w, const char *qname, uint16_t qtype,
                                           ldns_rr_list *out)
{
	int labels = 0;
	for (const char *p = qname; *p; p++)
		labels += *p == '.';
	/* d.c.b.a.in-addr.arpa. has six labels; shorter names are empty non-terminals */
	if (labels < 6)
		return CONTENT_NODATA;
	uint64_t h = content_hash(w, qname, SALT_EXISTS);
	if (labels > 6 || hash_unit(h) >= 0.75)
		return CONTENT_NXDOMAIN;
	if (qtype != LDNS_RR_TYPE_PTR)
		return CONTENT_NODATA;
	unsigned o[4] = {0};
	sscanf(qname, "%u.%u.%u.%u.", &o[3], &o[2], &o[1], &o[0]);
	char target[ZONES_NAME_MAX];
	snprintf(target, sizeof(target), "%u-%u-%u-%u.%s.simisp-%u.net.", o[0] & 255, o[1] & 255,
	         o[2] & 255, o[3] & 255, (h >> 20) & 1 ? "static" : "dyn",
	         (unsigned)(h >> 40) % 50);
	static const double wt[] = {0.2, 0.4, 0.4};
	static const uint32_t v[] = {300, 3600, 86400};
	if (!out)
		return CONTENT_ANSWER;
	ldns_rr *rr = rr_new(qname, LDNS_RR_TYPE_PTR,
	                     content_pick(hash_unit(content_hash(w, qname, SALT_TTL)), wt, v, 3));
	if (!rr)
		return CONTENT_NXDOMAIN;
	rr_add_dname(rr, target);
	ldns_rr_list_push_rr(out, rr);
	return CONTENT_ANSWER;
}

/* RFC 8482: a minimal answer to ANY instead of everything. */
static enum content_result content_any(const char *qname, ldns_rr_list *out)
{
	if (!out)
		return CONTENT_ANSWER;
	ldns_rr *rr = rr_new(qname, LDNS_RR_TYPE_HINFO, 3600);
	rr_add_string(rr, "RFC8482", 7);
	rr_add_string(rr, "", 0);
	ldns_rr_list_push_rr(out, rr);
	return CONTENT_ANSWER;
}

/* The flat world's TTLs: log-uniform from 5 s to one day, so each decade of the range holds the
 * same share of the names (median 657 s); the range is the (5 s to 1 day), the spread a
 * chosen parameter: short TTLs expire within a run while a day outlives it. */
#define CONTENT_WILDCARD_TTL_MIN 5.0
#define CONTENT_WILDCARD_TTL_MAX 86400.0

static uint32_t content_wildcard_ttl(const struct world *w, const char *qname, uint16_t qtype)
{
	double u = hash_unit(content_hash(w, qname, SALT_TTL ^ qtype));
	double ttl =
	    CONTENT_WILDCARD_TTL_MIN * pow(CONTENT_WILDCARD_TTL_MAX / CONTENT_WILDCARD_TTL_MIN, u);
	return (uint32_t)lround(ttl);
}

/* A flat-world TLD's wildcard (docs/upstream.md, "The flat world"): every name below the apex
 * has one A, one AAAA, one MX, one TXT of 1-6 strings and one NS record; other types are NODATA.
 * The name server host ns1.nic.<tld> is answered before this (answer.c) and nic.<tld> above it
 * is an empty non-terminal, as in a zone file holding the host and the wildcard. */
static enum content_result content_wildcard(const struct world *w, const struct zone *z,
                                            const char *qname, uint16_t qtype, ldns_rr_list *out,
                                            struct content_addresses *a)
{
	if (strcmp(qname, z->name) == 0 ||
	    (strncmp(qname, "nic.", 4) == 0 && strcmp(qname + 4, z->name) == 0))
		return CONTENT_NODATA;
	if (qtype == LDNS_RR_TYPE_ANY)
		return content_any(qname, out);
	uint32_t ttl = content_wildcard_ttl(w, qname, qtype);
	uint64_t h = content_hash(w, qname, SALT_COUNT ^ qtype);
	char host[ZONES_NAME_MAX + 8];
	ldns_rr *rr;
	switch (qtype) {
	case LDNS_RR_TYPE_A:
	case LDNS_RR_TYPE_AAAA:
		/* one address, as a wildcard's "* A 192.0.2.1" gives, but one per name */
		content_add_addresses(qname, qtype, ttl, 1,
		                      content_hash(w, qname, SALT_ADDR ^ qtype), out, a);
		return CONTENT_ANSWER;
	case LDNS_RR_TYPE_MX:
	case LDNS_RR_TYPE_NS:
		if (!out)
			return CONTENT_ANSWER;
		/* in-zone hosts: the exchanger's address comes from the wildcard too, the name
		 * server is the TLD's own (the one server) */
		snprintf(host, sizeof(host), "%s.%s", qtype == LDNS_RR_TYPE_MX ? "mx1" : "ns1.nic",
		         z->name);
		rr = rr_new(qname, qtype, ttl);
		if (qtype == LDNS_RR_TYPE_MX)
			rr_add_u16(rr, 10);
		rr_add_dname(rr, host);
		ldns_rr_list_push_rr(out, rr);
		return CONTENT_ANSWER;
	case LDNS_RR_TYPE_TXT: {
		if (!out)
			return CONTENT_ANSWER;
		/* 1-6 strings (the range) of 40-120 characters (a chosen parameter: SPF
		 * records and verification tokens are this long); 6 x 121 bytes keeps every reply
		 * under the 1232-byte EDNS buffer, so the flat world never truncates */
		char buf[128];
		int strings = 1 + (int)(h % 6);
		rr = rr_new(qname, qtype, ttl);
		for (int i = 0; i < strings; i++) {
			uint64_t hi = hash_combine(h, (uint64_t)i);
			size_t len = 40 + (size_t)(hash_mix(hi) % 81);
			content_random_text(hi, buf, len);
			rr_add_string(rr, buf, len);
		}
		ldns_rr_list_push_rr(out, rr);
		return CONTENT_ANSWER;
	}
	default:
		return CONTENT_NODATA;
	}
}

/* content_lookup; with out NULL (content_peek) no records: the result, a for an address answer,
 * a->cname_ttl and target for a CNAME. */
static enum content_result content_find(const struct world *w, const struct zone *z,
                                        const char *qname, uint16_t qtype, ldns_rr_list *out,
                                        char *target, struct content_addresses *a)
{
	bool apex = strcmp(qname, z->name) == 0;
	size_t zlen = strlen(z->name);
	a->n = 0;
	if (apex && qtype == LDNS_RR_TYPE_SOA) {
		if (!out)
			return CONTENT_ANSWER;
		ldns_rr_list_push_rr(out, content_soa(w, z));
		return CONTENT_ANSWER;
	}
	if (z->kind == ZONE_WILDCARD)
		return content_wildcard(w, z, qname, qtype, out, a);
	if (strncmp(z->name, "simdns-", 7) == 0)
		return apex ? CONTENT_NODATA : CONTENT_NXDOMAIN; /* only its name servers exist */
	if (strncmp(z->name, "simcdn-", 7) == 0 && !apex)
		return content_cdn(w, z, qname, qtype, out, target, a);
	if (zlen > 13 && strcmp(z->name + zlen - 13, "in-addr.arpa.") == 0)
		return apex ? CONTENT_NODATA : content_reverse(w, qname, qtype, out);
	if (zlen > 9 && strcmp(z->name + zlen - 9, "ip6.arpa.") == 0)
		return apex ? CONTENT_NODATA : CONTENT_NXDOMAIN;
	if (!apex && !content_exists(w, z, qname))
		return CONTENT_NXDOMAIN;

	const char *dot = strchr(qname, '.');
	size_t llen = (size_t)(dot - qname);
	bool underscore = qname[0] == '_';
	bool mailhost = strncmp(qname, "mx", 2) == 0 || strncmp(qname, "mail.", 5) == 0;
	if (qtype == LDNS_RR_TYPE_ANY)
		return content_any(qname, out);
	if (!apex && !underscore && !mailhost) {
		uint64_t h = content_hash(w, qname, SALT_CNAME);
		double p = llen == 3 && strncmp(qname, "www", 3) == 0 ? 0.45
		           : content_is_cdn_label(qname, llen)        ? 0.70
		                                                      : 0.20;
		if (hash_unit(h) < p) {
			uint64_t t = hash_mix(h);
			bool cdn = hash_unit(t) < 0.5;
			if (cdn)
				snprintf(target, ZONES_NAME_MAX, "e%u.simcdn-%u.net.",
				         (unsigned)(t >> 40) % 100000, (unsigned)(t % ZONES_CDNS));
			else
				snprintf(target, ZONES_NAME_MAX, "%s", z->name);
			a->cname_ttl = cdn ? content_ttl_cdn(hash_mix(t)) : content_ttl_generic(t);
			if (!out)
				return CONTENT_CNAME;
			ldns_rr *rr = rr_new(qname, LDNS_RR_TYPE_CNAME, a->cname_ttl);
			if (!rr)
				return CONTENT_NXDOMAIN;
			rr_add_dname(rr, target);
			ldns_rr_list_push_rr(out, rr);
			return CONTENT_CNAME;
		}
	}
	uint32_t ttl = content_ttl_generic(content_hash(w, qname, SALT_TTL ^ qtype));
	uint64_t has = content_hash(w, qname, SALT_HAS ^ qtype);
	uint64_t hc = content_hash(w, qname, SALT_COUNT ^ qtype);
	switch (qtype) {
	case LDNS_RR_TYPE_A:
		if (underscore)
			return CONTENT_NODATA;
		content_add_addresses(qname, qtype, ttl, content_address_count(hc, false),
		                      content_hash(w, qname, SALT_ADDR), out, a);
		return CONTENT_ANSWER;
	case LDNS_RR_TYPE_AAAA:
		if (underscore || hash_unit(has) >= 0.35)
			return CONTENT_NODATA;
		content_add_addresses(qname, qtype, ttl, 1 + (int)(hc % 2),
		                      content_hash(w, qname, SALT_ADDR ^ 0x66), out, a);
		return CONTENT_ANSWER;
	case LDNS_RR_TYPE_MX:
		if (!apex || hash_unit(has) >= 0.85)
			return CONTENT_NODATA;
		if (!out)
			return CONTENT_ANSWER;
		content_apex_mx(z, ttl, hc, out);
		return CONTENT_ANSWER;
	case LDNS_RR_TYPE_TXT:
		if (apex && hash_unit(has) < 0.70) {
			if (!out)
				return CONTENT_ANSWER;
			content_apex_txt(z, ttl, hc, out);
			return CONTENT_ANSWER;
		}
		if (strstr(qname, "._domainkey.")) {
			if (!out)
				return CONTENT_ANSWER;
			content_dkim_txt(qname, ttl, hc, out);
			return CONTENT_ANSWER;
		}
		if (strncmp(qname, "_dmarc.", 7) == 0) {
			if (!out)
				return CONTENT_ANSWER;
			char buf[300];
			int n =
			    snprintf(buf, sizeof(buf), "v=DMARC1; p=none; rua=mailto:dmarc@%.*s",
			             (int)(zlen - 1), z->name);
			ldns_rr *rr = rr_new(qname, LDNS_RR_TYPE_TXT, ttl);
			rr_add_string(rr, buf, (size_t)n);
			ldns_rr_list_push_rr(out, rr);
			return CONTENT_ANSWER;
		}
		return CONTENT_NODATA;
	case LDNS_RR_TYPE_SRV:
		if (!underscore || hash_unit(has) >= 0.5)
			return CONTENT_NODATA;
		if (!out)
			return CONTENT_ANSWER;
		for (int i = 0; i < 1 + (int)(hc % 3); i++) {
			char host[ZONES_NAME_MAX + 16];
			snprintf(host, sizeof(host), "srv%d.%s", i + 1, z->name);
			ldns_rr *rr = rr_new(qname, LDNS_RR_TYPE_SRV, ttl);
			rr_add_u16(rr, (uint16_t)(10 * i));
			rr_add_u16(rr, 100);
			rr_add_u16(rr, (uint16_t)(5060 + (hc % 3)));
			rr_add_dname(rr, host);
			ldns_rr_list_push_rr(out, rr);
		}
		return CONTENT_ANSWER;
	default:
		return CONTENT_NODATA;
	}
}

enum content_result content_lookup(const struct world *w, const struct zone *z, const char *qname,
                                   uint16_t qtype, ldns_rr_list *out, char *target)
{
	struct content_addresses a;
	return content_find(w, z, qname, qtype, out, target, &a);
}

enum content_result content_peek(const struct world *w, const struct zone *z, const char *qname,
                                 uint16_t qtype, struct content_addresses *a, char *target)
{
	return content_find(w, z, qname, qtype, NULL, target, a);
}
