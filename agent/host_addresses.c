/* agent/host_addresses.c - the addresses a generator host may send from (host_addresses.h). */
#include "host_addresses.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <jansson.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

/* An address a query to another host can leave from: not loopback, not IPv6 link-local (a row
 * on another link never sees it). */
static bool host_address_sends(const struct ifaddrs *ifa)
{
	const struct sockaddr *sa = ifa->ifa_addr;
	if (!sa || !(ifa->ifa_flags & IFF_UP) || (ifa->ifa_flags & IFF_LOOPBACK))
		return false;
	if (sa->sa_family == AF_INET6)
		return !IN6_IS_ADDR_LINKLOCAL(&((const struct sockaddr_in6 *)sa)->sin6_addr);
	return sa->sa_family == AF_INET;
}

json_t *host_addresses_list(char *err, size_t err_size)
{
	struct ifaddrs *all;
	if (getifaddrs(&all) != 0) {
		snprintf(err, err_size, "getifaddrs: %s", strerror(errno));
		return NULL;
	}
	json_t *list = json_array();
	for (const struct ifaddrs *ifa = all; list && ifa; ifa = ifa->ifa_next) {
		if (!host_address_sends(ifa))
			continue;
		bool v4 = ifa->ifa_addr->sa_family == AF_INET;
		const void *bytes =
		    v4 ? (const void *)&((const struct sockaddr_in *)ifa->ifa_addr)->sin_addr
		       : (const void *)&((const struct sockaddr_in6 *)ifa->ifa_addr)->sin6_addr;
		char text[INET6_ADDRSTRLEN];
		bool seen = false;
		size_t i;
		json_t *v;
		if (!inet_ntop(v4 ? AF_INET : AF_INET6, bytes, text, sizeof(text)))
			continue;
		json_array_foreach(list, i, v) seen =
		    seen || strcmp(json_string_value(v), text) == 0;
		if (!seen)
			json_array_append_new(list, json_string(text));
	}
	freeifaddrs(all);
	if (!list)
		snprintf(err, err_size, "out of memory");
	return list;
}
