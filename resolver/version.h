/* resolver/version.h - the --version line and JSON: variant name plus the allocator found at run
 * time. */
#ifndef ALLOCSPIKE_RESOLVER_VERSION_H
#define ALLOCSPIKE_RESOLVER_VERSION_H

#include <stdio.h>

struct resolver_config;

/* Prints one line: "allocspike-resolver <ver> variant=<v> allocator=<a> <ver> libc=<l> <ver>
 * malloc=<obj>", or the same as one JSON object, which adds the allocator's settings and the
 * overload policy cfg (the parsed options) gives. variant: the build row's name (main.c's
 * ALLOCSPIKE_VARIANT_NAME, the one thing compiled differently per variant). */
void resolver_version_print(FILE *out, const char *variant, const struct resolver_config *cfg,
                            int as_json);

#endif
