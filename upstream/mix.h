/* upstream/mix.h - what the hierarchy serves for a query file: an offline walk from the root. */
#ifndef ALLOCSPIKE_UPSTREAM_MIX_H
#define ALLOCSPIKE_UPSTREAM_MIX_H

#include "zones.h"

#include <stdbool.h>
#include <stdio.h>

/* Resolves every query of path in-process, as an iterative resolver without a cache would
 * (referrals, glueless name servers, CNAME chains), through the same answer code the servers
 * use; prints the table of the mix to out and, if json_path, writes it as JSON.
 * steps_path: also write every question the walk asks there, "ADDR NAME TYPE" a line (the
 * server's address, the type's number): the spread load of upstream/benchmark.sh.
 * limit: at most that many queries (0: all). Returns false with the reason in err. */
bool mix_run(const struct world *w, const char *path, unsigned long limit, FILE *out,
             const char *json_path, const char *steps_path, char *err, size_t err_size);

#endif
