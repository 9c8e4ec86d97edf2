/* common/flat_world.h - the flat reference world's names, one spelling shared by the hierarchy that
 * serves them (allocspike-upstream --world flat) and the generator that asks them
 * (allocspike-querydata generate --world flat): TLD k of n is "tld<k>.", k from 1 to n. */
#ifndef ALLOCSPIKE_FLAT_WORLD_H
#define ALLOCSPIKE_FLAT_WORLD_H

#include <stddef.h>

/* 20 TLD zones: "a handful of TLDs" as the single-authoritative lab setups serve (docs/upstream.md,
 * "The flat world"); a chosen parameter, --flat-tlds changes it. */
#define FLAT_TLDS_DEFAULT 20
#define FLAT_TLDS_MAX 100000

/* "tld<k>" (no dot) into buf; returns its length as snprintf does. */
int flat_tld_label(unsigned k, char *buf, size_t size);

/* k when the len bytes at label (lower case, no dot) spell "tld<k>" with 1 <= k <= n, else 0. */
unsigned flat_tld_index(const char *label, size_t len, unsigned n);

#endif
