/* resolver/acl.c - client access list: prefix matching over IPv4 and IPv6. */
#include "acl.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct acl_entry acl_loopback[2] = {
    {AF_INET, {127}, 8},
    {AF_INET6, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 128},
};

static void acl_mask(uint8_t *addr, int bytes, int prefix)
{
	for (int i = 0; i < bytes; i++) {
		int keep = prefix - 8 * i;
		if (keep >= 8)
			continue;
		addr[i] &= keep <= 0 ? 0 : (uint8_t)(0xFF << (8 - keep));
	}
}

bool acl_parse(const char *text, struct acl_entry *out, char *err, size_t err_size)
{
	char host[INET6_ADDRSTRLEN + 1];
	const char *slash = strchr(text, '/');
	size_t host_len = slash ? (size_t)(slash - text) : strlen(text);
	memset(out, 0, sizeof(*out));
	if (host_len == 0 || host_len >= sizeof(host))
		goto bad;
	memcpy(host, text, host_len);
	host[host_len] = '\0';
	int bits;
	if (inet_pton(AF_INET, host, out->addr) == 1) {
		out->family = AF_INET;
		bits = 32;
	} else if (inet_pton(AF_INET6, host, out->addr) == 1) {
		out->family = AF_INET6;
		bits = 128;
	} else {
		goto bad;
	}
	out->prefix = bits;
	if (slash) {
		char *end = NULL;
		errno = 0;
		long v = strtol(slash + 1, &end, 10);
		if (slash[1] < '0' || slash[1] > '9' || *end != '\0' || errno || v > bits) {
			snprintf(err, err_size, "'%s': prefix length must be 0..%d", text, bits);
			return false;
		}
		out->prefix = (int)v;
	}
	acl_mask(out->addr, bits / 8, out->prefix);
	return true;
bad:
	snprintf(err, err_size, "'%s' is not ADDR or ADDR/PREFIX (numeric IPv4 or IPv6)", text);
	return false;
}

bool acl_add(struct acl *acl, const char *text, char *err, size_t err_size)
{
	if (acl->n >= ACL_MAX_ENTRIES) {
		snprintf(err, err_size, "'%s': at most %d entries", text, ACL_MAX_ENTRIES);
		return false;
	}
	if (!acl_parse(text, &acl->entries[acl->n], err, err_size))
		return false;
	acl->n++;
	return true;
}

static bool acl_entry_matches(const struct acl_entry *e, int family, const uint8_t *addr)
{
	if (e->family != family)
		return false;
	int full = e->prefix / 8, rest = e->prefix % 8;
	if (memcmp(e->addr, addr, (size_t)full) != 0)
		return false;
	return rest == 0 || ((e->addr[full] ^ addr[full]) & (uint8_t)(0xFF << (8 - rest))) == 0;
}

bool acl_allows(const struct acl *acl, const struct sockaddr *from)
{
	int family = from->sa_family;
	const uint8_t *addr;
	if (family == AF_INET) {
		addr = (const uint8_t *)&((const struct sockaddr_in *)from)->sin_addr;
	} else if (family == AF_INET6) {
		const struct in6_addr *a6 = &((const struct sockaddr_in6 *)from)->sin6_addr;
		addr = (const uint8_t *)a6;
		if (IN6_IS_ADDR_V4MAPPED(a6)) {
			family = AF_INET;
			addr += 12;
		}
	} else {
		return false;
	}
	for (int i = 0; i < 2; i++)
		if (acl_entry_matches(&acl_loopback[i], family, addr))
			return true;
	for (int i = 0; i < acl->n; i++)
		if (acl_entry_matches(&acl->entries[i], family, addr))
			return true;
	return false;
}
