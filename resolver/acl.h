/* resolver/acl.h - which clients get answers: loopback always, more only by --allow ADDR/PREFIX. */
#ifndef ALLOCSPIKE_RESOLVER_ACL_H
#define ALLOCSPIKE_RESOLVER_ACL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define ACL_MAX_ENTRIES 64

struct acl_entry {
	int family; /* AF_INET or AF_INET6 */
	uint8_t addr[16];
	int prefix; /* bits that must match */
};

/* Like unbound's and kresd's defaults, 127.0.0.0/8 and ::1 need no entry. */
struct acl {
	struct acl_entry entries[ACL_MAX_ENTRIES];
	int n;
};

/* Parses "ADDR/PREFIX" or "ADDR" (a single host) into *out; bits past the prefix are cleared.
 * Returns false with the reason in err. */
bool acl_parse(const char *text, struct acl_entry *out, char *err, size_t err_size);
/* Adds one parsed --allow text; false with the reason in err (bad text, or too many). */
bool acl_add(struct acl *acl, const char *text, char *err, size_t err_size);
/* True when a query from `from` may be answered. IPv4-mapped IPv6 sources (a dual-stack
 * listener) are matched as the IPv4 address they carry. */
bool acl_allows(const struct acl *acl, const struct sockaddr *from);

#endif
