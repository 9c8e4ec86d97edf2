/* reports/attribution.c - anon RSS split into live, allocator-held and outside memory, and the
 * names each allocator's kinds of free memory go by (its adapter's words, common/allocators/). */
#include "attribution.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "allocators/allocator.h"
#include "spread.h"

#define BYTES_PER_KB 1024.0

bool attr_split_row(const struct runfolder_row *row, struct attr_split *out)
{
	double anon = row->v[TIMELINE_COL_anon_kb];
	double live = row->v[TIMELINE_COL_live_bytes] / BYTES_PER_KB;
	double heap = row->v[TIMELINE_COL_alloc_heap_bytes] / BYTES_PER_KB;
	if (isnan(anon) || isnan(live) || isnan(heap))
		return false;
	double trim = row->v[TIMELINE_COL_alloc_free_trimmable_bytes] / BYTES_PER_KB;
	double frag = row->v[TIMELINE_COL_alloc_free_fragmented_bytes] / BYTES_PER_KB;
	out->split = !isnan(trim) && !isnan(frag);
	out->heap_kb = heap;
	/* By less than the held-memory agreement floor the two counters only disagree by rounding
	 * and timing (jemalloc's allocated bytes and the resolver's own count at rest differ by a
	 * few kB either way): held reads 0 there, within the floor of what it is */
	out->live_above_heap = live > heap + SPREAD_HELD_FLOOR_MB * BYTES_PER_KB;
	/* Live bytes the program asked for but never touched (a calloc of fresh pages, a cache
	 * preallocated for its worst case) are not resident: the live part is at most the resident
	 * heap that holds it (and the anon RSS that heap is a part of), the rest said apart before
	 * held is formed, so held is never negative and live + held + outside is anon RSS. */
	double live_resident = fmin(live, fmin(heap, anon));
	out->live_not_resident_kb = live - live_resident;
	out->held_kb = heap - live_resident;
	out->unmapped_kb = row->v[TIMELINE_COL_alloc_unmapped_bytes] / BYTES_PER_KB;
	/* The allocator's own count of its free memory can include pages that are not resident
	 * (glibc's free chunks released with MADV_DONTNEED, jemalloc's purged extents): what it
	 * counts beyond what it holds is not resident, taken off the fragmented kind first, then
	 * the trimmable one, so the parts never add to more than their whole. */
	out->not_resident_kb = 0;
	if (out->split) {
		double excess = fmax(0, trim + frag - out->held_kb);
		double off_frag = fmin(excess, frag);
		frag -= off_frag;
		trim -= fmin(excess - off_frag, trim);
		out->not_resident_kb = excess;
	}
	out->part_kb[ATTR_LIVE] = live_resident;
	out->part_kb[ATTR_TRIMMABLE] = out->split ? trim : NAN;
	out->part_kb[ATTR_FRAGMENTED] = out->split ? frag : NAN;
	/* Without a split (musl's mallocng) all the allocator holds is one kind. */
	out->part_kb[ATTR_OTHER] = out->split ? fmax(0, out->held_kb - trim - frag) : out->held_kb;
	out->part_kb[ATTR_OUTSIDE] = anon - heap;
	return true;
}

/* An allocator without an adapter: the words that fit any. */
static const struct allocator_words generic_names = {"free memory it could return",
                                                     "as it stands",
                                                     "free memory in pieces",
                                                     "which it cannot return",
                                                     "allocator overhead",
                                                     "unmapped",
                                                     "held by the allocator (no breakdown)",
                                                     "the run recorded no breakdown"};

const struct allocator_words *attr_names_for(const char *allocator)
{
	const struct allocator_adapter *a = allocator_by_name(allocator);
	return a ? &a->words : &generic_names;
}

const char *attr_part_label(const struct allocator_words *names, enum attr_part part, bool split,
                            char *buf, size_t size)
{
	switch (part) {
	case ATTR_LIVE:
		snprintf(buf, size, "live (held by the program)");
		break;
	case ATTR_TRIMMABLE:
		snprintf(buf, size, "free, returnable: %s", names->trimmable);
		break;
	case ATTR_FRAGMENTED:
		snprintf(buf, size, "free, fragmented: %s", names->fragmented);
		break;
	case ATTR_OTHER:
		snprintf(buf, size, "%s", split ? names->other : names->unsplit);
		break;
	case ATTR_OUTSIDE:
	case ATTR_PART_COUNT:
		snprintf(buf, size, "outside the allocator (libc, stacks, files counted as anon)");
		break;
	}
	return buf;
}
