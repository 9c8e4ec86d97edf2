/* common/live_bytes.h - bytes the program holds in live allocations, counted the same way under
 * every allocator.
 *
 * live_bytes.c sits between the program (with every library it uses) and the allocator: each
 * allocation adds the allocator's own usable size of the block, each free subtracts it. The
 * allocator sees exactly the calls, sizes and order it would see without it. It is compiled into
 * an executable or a preloaded object, never into a library archive: the declarations below are
 * weak, so code that reads the counter still links (and reports "not available") where the
 * counter is absent, as in the sanitizer build. See docs/allocator-stats.md. */
#ifndef ALLOCSPIKE_LIVE_BYTES_H
#define ALLOCSPIKE_LIVE_BYTES_H

#include <stdbool.h>
#include <stddef.h>

struct live_bytes {
	size_t bytes;  /* sum of usable sizes of the blocks not yet freed */
	size_t blocks; /* how many such blocks */
};

/* Fills *out; false when the counter is not linked into this program. */
bool live_bytes_read(struct live_bytes *out) __attribute__((weak));

/* The function that really serves malloc behind the counter (for allocator detection by dladdr). */
void *live_bytes_next_malloc(void) __attribute__((weak));

/* Preloaded counter only: what NAME resolves to behind it (the allocator's own definition). */
void *live_bytes_next_symbol(const char *name) __attribute__((weak));

static inline bool live_bytes_get(struct live_bytes *out)
{
	return live_bytes_read && live_bytes_read(out);
}

#endif
