/* resolver/hints.h - root server addresses from a root hints file (zone-file format). */
#ifndef ALLOCSPIKE_RESOLVER_HINTS_H
#define ALLOCSPIKE_RESOLVER_HINTS_H

#include <stddef.h>

struct resolver_config;

/* Adds the A/AAAA records of the root NS names in path to cfg->roots, on cfg->upstream_port.
 * Returns the number added, or -1 with "path:line: reason" in err. */
int hints_load(struct resolver_config *cfg, const char *path, char *err, size_t err_size);

#endif
