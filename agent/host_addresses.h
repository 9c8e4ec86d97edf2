/* agent/host_addresses.h - the addresses a generator host may send from (GET /sources,
 * docs/agent.md "A generator shard"): every address of its interfaces that are up, but loopback
 * and IPv6 link-local ones. A host with several addresses sends each query from the one its
 * route toward the row chooses, not necessarily the one its agent listens on, so a row answers
 * them all (place --allow-controller). */
#ifndef ALLOCSPIKE_AGENT_HOST_ADDRESSES_H
#define ALLOCSPIKE_AGENT_HOST_ADDRESSES_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* ["10.0.0.2", "192.0.2.7", ...], each address once; NULL with the reason in err. */
json_t *host_addresses_list(char *err, size_t err_size);

#endif
