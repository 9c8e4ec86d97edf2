/* common/allocators/glibc_tunables.h - glibc's malloc tunables as its own loader parses this
 * process's environment. */
#ifndef ALLOCSPIKE_ALLOCATORS_GLIBC_TUNABLES_H
#define ALLOCSPIKE_ALLOCATORS_GLIBC_TUNABLES_H

#include "alloc_settings.h"

/* Puts the glibc.malloc.* tunables `ld.so --list-tunables` reports (glibc exports no reader of
 * its tunables): those set to a value, and those GLIBC_TUNABLES names. */
void glibc_tunables_read(struct alloc_settings_out *o);

#endif
