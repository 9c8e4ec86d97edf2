/* loadgen/version.h - what --version prints, with the allocator found at run time. */
#ifndef ALLOCSPIKE_LOADGEN_VERSION_H
#define ALLOCSPIKE_LOADGEN_VERSION_H

#include <stdio.h>

void version_print(FILE *out, int as_json);

#endif
