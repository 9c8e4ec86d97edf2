/* common/alloc_stats.h - what the allocator serving this process says about its memory: five
 * generic figures every allocator maps onto, plus its own fields (docs/allocator-stats.md). */
#ifndef ALLOCSPIKE_ALLOC_STATS_H
#define ALLOCSPIKE_ALLOC_STATS_H

#include <stdbool.h>
#include <stddef.h>

#include "alloc_info.h"

#define ALLOC_STATS_MAX_OWN 24

/* A figure the allocator cannot give. */
#define ALLOC_STATS_UNKNOWN (-1LL)

struct alloc_stats_field {
	const char *name; /* a string literal */
	long long value;  /* may be negative where the allocator says so (a decay of -1: never) */
};

struct alloc_stats {
	char allocator[32];
	/* Generic, in bytes, ALLOC_STATS_UNKNOWN when not available. */
	long long heap;           /* the allocator's resident footprint, as it counts it */
	long long free_trimmable; /* free memory it could return as it stands */
	long long
	    free_fragmented; /* free memory in pieces it cannot return while neighbours live */
	long long unmapped;  /* given back to the OS but still reserved (not resident) */
	long long allocated; /* what it counts as handed out to the program */
	/* Its own statistics, under the allocator's name. */
	unsigned own_count;
	struct alloc_stats_field own[ALLOC_STATS_MAX_OWN];
};

/* For the adapters: appends one of the allocator's own figures (name a string literal); and a - b,
 * or 0 when b is larger. */
void alloc_stats_own(struct alloc_stats *s, const char *name, long long value);
long long alloc_stats_diff(long long a, long long b);

struct anon_maps;
/* For an allocator with no statistics call (an adapter's stats_from_maps): the parts of the maps
 * that hold its memory, the brk heap and the unnamed anonymous maps, into own. */
void alloc_stats_maps_parts(struct alloc_stats *s, const struct anon_maps *m, bool have_maps);

/* Reads the statistics of the allocator info names (from alloc_info_detect). Never fails: what
 * cannot be read stays ALLOC_STATS_UNKNOWN or is left out of own. Safe from any thread; does not
 * allocate except inside the allocator's own statistics calls. */
void alloc_stats_read(const struct alloc_info *info, struct alloc_stats *out);

/* Writes the `alloc` object (one line of compact JSON, no newline) into buf; returns its length,
 * or 0 when it does not fit. Written by hand: preloaded into a daemon, jansson is not usable. */
size_t alloc_stats_json(const struct alloc_stats *s, char *buf, size_t size);

#endif
