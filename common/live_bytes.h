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

/* The most bytes live at any moment since the previous call (since the start for the first), then
 * starts the mark over from the bytes live now; false when the counter is not linked in. Its
 * caller owns the mark: the resolver's `stats` (a second reader would split the intervals). */
bool live_bytes_take_max(size_t *out) __attribute__((weak));

/* The function that really serves malloc behind the counter (for allocator detection by dladdr). */
void *live_bytes_next_malloc(void) __attribute__((weak));

/* Preloaded counter only: what NAME resolves to behind it (the allocator's own definition). */
void *live_bytes_next_symbol(const char *name) __attribute__((weak));

/* Allocations by size class, counted only where the counter is built with LIVE_BYTES_SIZE_CLASSES
 * (the live sampler, preload/): class i holds blocks whose usable size is at most
 * live_size_class_limit(i) and above the previous class's limit; the last class has no limit. */
enum { LIVE_SIZE_CLASSES = 24 };
struct live_size_class {
	size_t live_blocks; /* blocks of this class not yet freed */
	size_t live_bytes;  /* their usable sizes */
	size_t allocs;      /* blocks ever allocated (a realloc that moves counts anew) */
};

/* 16 << i bytes; SIZE_MAX for the last class. */
static inline size_t live_size_class_limit(int i)
{
	return i >= LIVE_SIZE_CLASSES - 1 ? (size_t)-1 : (size_t)16 << i;
}

/* Fills out[LIVE_SIZE_CLASSES]; false when the classes are not counted in this object. */
bool live_bytes_size_classes_read(struct live_size_class *out) __attribute__((weak));

static inline bool live_bytes_get(struct live_bytes *out)
{
	return live_bytes_read && live_bytes_read(out);
}

/* live_bytes_take_max where it is linked in (it starts the mark over). */
static inline bool live_bytes_get_max(size_t *out)
{
	return live_bytes_take_max && live_bytes_take_max(out);
}

#endif
