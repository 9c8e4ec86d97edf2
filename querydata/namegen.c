/* querydata/namegen.c - makes one query name of a given form, shaped like the real sample's. */
#include "namegen.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char namegen_letters[] = "abcdefghijklmnopqrstuvwxyz";
static const char namegen_alnum[] = "abcdefghijklmnopqrstuvwxyz0123456789";

/* Appends a host label of len characters: letters, with digits and inner hyphens at the
 * sample's rates. */
static size_t namegen_label(struct rng *r, const struct model_hosts *h, size_t len, char *out)
{
	for (size_t i = 0; i < len; i++) {
		double u = rng_uniform(r);
		if (u < h->digit)
			out[i] = (char)('0' + rng_below(r, 10));
		else if (u < h->digit + h->hyphen && i > 0 && i + 1 < len)
			out[i] = '-';
		else
			out[i] = namegen_letters[rng_below(r, 26)];
	}
	return len;
}

static size_t namegen_length(struct rng *r, const double *table)
{
	size_t len = rng_pick(r, table, MODEL_LEN_MAX + 1);
	if (len == MODEL_LEN_MAX) /* the ">= 32" bucket: long hashes and tracking labels */
		len += rng_below(r, 24);
	return len ? len : 1;
}

/* A TLD from the class's table, or a random two-letter one for the share outside it. */
static size_t namegen_tld(struct rng *r, const struct model_hosts *h, char *out)
{
	double w[64];
	size_t nt = h->ntlds < 63 ? h->ntlds : 63;
	for (size_t i = 0; i < nt; i++)
		w[i] = h->tlds[i].weight;
	w[nt] = h->tld_other;
	size_t t = rng_pick(r, w, nt + 1);
	if (t < nt) {
		size_t l = strlen(h->tlds[t].tld);
		memcpy(out, h->tlds[t].tld, l);
		return l;
	}
	out[0] = namegen_letters[rng_below(r, 26)];
	out[1] = namegen_letters[rng_below(r, 26)];
	return 2;
}

/* sld.tld. with independent lengths (for service and odd names). */
static size_t namegen_domain(struct rng *r, const struct model_hosts *h, char *out)
{
	size_t n = namegen_label(r, h, namegen_length(r, h->sld_length), out);
	out[n++] = '.';
	n += namegen_tld(r, h, out + n);
	out[n++] = '.';
	return n;
}

/*
 * A host name: label count, TLD and a total length drawn from the sample's tables, then the
 * other labels' lengths drawn from their tables and scaled to fill that total.
 */
static size_t namegen_host(struct rng *r, enum model_class cls, char *buf)
{
	const struct model_hosts *h = model_host_shapes[cls];
	char tld[8];
	size_t tld_len = namegen_tld(r, h, tld);
	size_t labels = 2, total = 0;
	for (int tries = 0;; tries++) {
		labels = rng_pick(r, h->labels, MODEL_HOST_LABELS_MAX + 1);
		total = rng_pick(r, h->length, MODEL_HOST_LENGTH_MAX + 1);
		if (total == MODEL_HOST_LENGTH_MAX)
			total += rng_below(r, 20);
		/* characters left for the labels left of the TLD, after the dots between labels */
		long room = (long)total - (long)tld_len - (long)(labels - 1);
		if (labels >= 2 && room >= (long)(labels - 1) && room <= (long)(labels - 1) * 40)
			break;
		if (tries > 50) {
			labels = 2;
			total = tld_len + 1 + 8;
			break;
		}
	}
	size_t nl = labels - 1; /* labels to make, leftmost first; the last one is the SLD */
	size_t room = total - tld_len - nl;
	size_t len[MODEL_HOST_LABELS_MAX];
	bool www = nl >= 2 && room >= 3 + (nl - 1) && rng_uniform(r) < h->www;
	double raw[MODEL_HOST_LABELS_MAX], raw_sum = 0;
	for (size_t i = 0; i < nl; i++) {
		raw[i] = (double)namegen_length(r, i + 1 == nl ? h->sld_length : h->other_length);
		if (i == 0 && www)
			raw[i] = 0;
		raw_sum += raw[i];
	}
	size_t fill = room - (www ? 3 : 0), given = 0;
	for (size_t i = 0; i < nl; i++) {
		if (i == 0 && www) {
			len[i] = 3;
			continue;
		}
		size_t l = (size_t)((double)fill * raw[i] / raw_sum + 0.5);
		len[i] = l < 1 ? 1 : l > 63 ? 63 : l;
		given += len[i];
	}
	/* rounding: move single characters until the total is exact */
	for (int guard = 0; given != fill && guard < 10000; guard++) {
		size_t i = (www ? 1 : 0) + (size_t)rng_below(r, nl - (www ? 1 : 0));
		if (given < fill && len[i] < 63) {
			len[i]++;
			given++;
		} else if (given > fill && len[i] > 1) {
			len[i]--;
			given--;
		}
	}
	size_t n = 0;
	for (size_t i = 0; i < nl; i++) {
		if (i == 0 && www)
			memcpy(buf, "www", 3), n = 3;
		else
			n += namegen_label(r, h, len[i], buf + n);
		buf[n++] = '.';
	}
	memcpy(buf + n, tld, tld_len);
	n += tld_len;
	buf[n++] = '.';
	return n;
}

static size_t namegen_rev4(struct rng *r, char *buf)
{
	return (size_t)snprintf(buf, NAMEGEN_MAX, "%u.%u.%u.%u.in-addr.arpa.",
	                        (unsigned)rng_below(r, 256), (unsigned)rng_below(r, 256),
	                        (unsigned)rng_below(r, 256), (unsigned)(1 + rng_below(r, 223)));
}

static size_t namegen_rev6(struct rng *r, char *buf)
{
	size_t n = 0;
	for (int i = 0; i < 32; i++) {
		buf[n++] = "0123456789abcdef"[rng_below(r, 16)];
		buf[n++] = '.';
	}
	memcpy(buf + n, "ip6.arpa.", 10);
	return n + 9;
}

static size_t namegen_dnssd_rev(struct rng *r, char *buf)
{
	/* the five DNS-SD browsing queries (RFC 6763 section 11), for a home LAN's subnet */
	static const char *const kinds[] = {"b", "db", "r", "dr", "lb"};
	return (size_t)snprintf(buf, NAMEGEN_MAX, "%s._dns-sd._udp.0.%u.168.192.in-addr.arpa.",
	                        kinds[rng_below(r, 5)], (unsigned)rng_below(r, 256));
}

static size_t namegen_service(struct rng *r, enum model_class cls, char *buf)
{
	static const char *const services[] = {
	    "_ldap._tcp.",   "_kerberos._udp.", "_sip._udp.",          "_xmpp-server._tcp.",
	    "_dns-sd._udp.", "_http._tcp.",     "_gc._tcp.dc._msdcs.", "_autodiscover._tcp."};
	const char *s = services[rng_below(r, sizeof(services) / sizeof(services[0]))];
	size_t n = strlen(s);
	memcpy(buf, s, n);
	return n + namegen_domain(r, model_host_shapes[cls], buf + n);
}

static size_t namegen_single(struct rng *r, enum model_class cls, char *buf)
{
	static const char *const common[] = {"wpad", "localhost", "local",  "lan",
	                                     "home", "isatap",    "router", "workgroup"};
	if (cls == MODEL_POPULAR && rng_uniform(r) < 0.5) {
		const char *w = common[rng_below(r, sizeof(common) / sizeof(common[0]))];
		return (size_t)snprintf(buf, NAMEGEN_MAX, "%s.", w);
	}
	size_t len = 4 + rng_below(r, 9);
	for (size_t i = 0; i < len; i++)
		buf[i] = namegen_alnum[rng_below(r, 26 + (i ? 10 : 0))];
	buf[len] = '.';
	return len + 1;
}

static size_t namegen_malformed(struct rng *r, enum model_class cls, char *buf)
{
	double u = rng_uniform(r);
	if (u < 0.85) {
		/* the sample's commonest junk: 9 random characters with a ':' inside, then a short
		 * random label ("aoqrf2:by.v75i0e0a.") */
		size_t n = 0;
		size_t colon = rng_below(r, 9);
		for (size_t i = 0; i < 9; i++)
			buf[n++] = i == colon ? ':' : namegen_alnum[rng_below(r, 36)];
		buf[n++] = '.';
		size_t tail = rng_uniform(r) < 0.5 ? 4 : 8;
		for (size_t i = 0; i < tail; i++)
			buf[n++] = namegen_alnum[rng_below(r, 36)];
		buf[n++] = '.';
		return n;
	}
	if (u < 0.92) {
		/* a label ending in '-' ("the-stranger-.blogspot.com.") */
		size_t n = namegen_label(r, model_host_shapes[cls], 4 + rng_below(r, 10), buf);
		buf[n++] = '-';
		buf[n++] = '.';
		return n + namegen_domain(r, model_host_shapes[cls], buf + n);
	}
	if (u < 0.97) {
		/* an IP address asked as a name */
		return (size_t)snprintf(buf, NAMEGEN_MAX, "%u.%u.%u.%u.",
		                        (unsigned)rng_below(r, 224), (unsigned)rng_below(r, 256),
		                        (unsigned)rng_below(r, 256), (unsigned)rng_below(r, 256));
	}
	/* escapes: a stray byte after a name ("boing4u.net\032.") */
	size_t n = namegen_domain(r, model_host_shapes[cls], buf);
	return n - 1 +
	       (size_t)snprintf(buf + n - 1, NAMEGEN_MAX - n, "\\%03u.",
	                        (unsigned)rng_below(r, 32));
}

size_t namegen_make(struct rng *r, enum model_form form, enum model_class cls, char *buf)
{
	size_t n = 0;
	switch (form) {
	case MODEL_HOST:
		n = namegen_host(r, cls, buf);
		break;
	case MODEL_REV4:
		n = namegen_rev4(r, buf);
		break;
	case MODEL_REV6:
		n = namegen_rev6(r, buf);
		break;
	case MODEL_DNSSD_REV:
		n = namegen_dnssd_rev(r, buf);
		break;
	case MODEL_SERVICE:
		n = namegen_service(r, cls, buf);
		break;
	case MODEL_SINGLE:
		n = namegen_single(r, cls, buf);
		break;
	case MODEL_ROOT:
		buf[0] = '.';
		n = 1;
		break;
	case MODEL_MALFORMED:
		n = namegen_malformed(r, cls, buf);
		break;
	case MODEL_UNDERSCORE_SINGLE:
		n = (size_t)snprintf(buf, NAMEGEN_MAX, "_%03u_%02u_%u.",
		                     (unsigned)rng_below(r, 1000), (unsigned)rng_below(r, 100),
		                     (unsigned)rng_below(r, 10));
		break;
	}
	buf[n] = '\0';
	return n;
}
