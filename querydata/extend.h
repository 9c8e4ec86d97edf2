/* querydata/extend.h - a real query file made any length, keeping its shape pass after pass. */
#ifndef ALLOCSPIKE_QUERYDATA_EXTEND_H
#define ALLOCSPIKE_QUERYDATA_EXTEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Writes count queries to out: the file's queries in order, again and again. Pass 0 is the
 * file as it is; in every later pass, names seen more than once in the file stay as they are
 * (the popular head and everything a cache may keep), and each name seen once is replaced by
 * a fresh name of the same form (same labels and lengths, same character classes, same TLD or
 * arpa suffix, service labels kept), never used before, so every pass has the file's
 * once-seen share. Types and order are kept.
 */
bool extend_write(const char *path, uint64_t seed, uint64_t count, FILE *out, char *err,
                  size_t err_size);

/* The fresh name for one once-seen name (exposed for tests); returns its length. */
size_t extend_fresh_name(const char *name, size_t len, uint64_t *rng_state, char *out,
                         size_t out_size);

#endif
