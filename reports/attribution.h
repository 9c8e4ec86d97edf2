/* reports/attribution.h - splits a sample's anonymous RSS into live, allocator-held and outside
 * memory, and names the allocator's kinds of free memory (docs/run-folder.md, reports/README.md).
 */
#ifndef ALLOCSPIKE_REPORTS_ATTRIBUTION_H
#define ALLOCSPIKE_REPORTS_ATTRIBUTION_H

#include <stdbool.h>
#include <stddef.h>

#include "allocators/allocator.h"
#include "runfolder_reader.h"

/* The layers of anonymous RSS, bottom to top as the "why" panel stacks them. */
enum attr_part {
	ATTR_LIVE,       /* what the program holds in live allocations */
	ATTR_TRIMMABLE,  /* free inside the allocator, returnable as it stands */
	ATTR_FRAGMENTED, /* free inside the allocator, in pieces it cannot return */
	ATTR_OTHER,   /* the rest the allocator holds (its overhead), or all it holds if unsplit */
	ATTR_OUTSIDE, /* anon RSS outside the allocator: libc, stacks, mapped files counted as anon
	               */
	ATTR_PART_COUNT
};

/* One sample, in kB. NAN where the row lacks the figure. */
struct attr_split {
	double part_kb[ATTR_PART_COUNT];
	double held_kb;              /* allocator heap - resident live: trimmable + fragmented +
	                              * other, never negative */
	double heap_kb;              /* the allocator's resident footprint */
	double unmapped_kb;          /* given back to the OS but still reserved (not in RSS) */
	double live_not_resident_kb; /* live bytes beyond the resident heap (or anon RSS, if less):
	                              * never touched, not resident, left out of the live part */
	double not_resident_kb;      /* free memory the allocator counts beyond what it holds: not
	                              * resident, left out of the trimmable and fragmented parts */
	bool split;                  /* the allocator told trimmable from fragmented */
	bool live_above_heap;        /* live bytes exceed the allocator's heap by more than the
	                              * held agreement floor (1 MB): held is not known (a daemon's
	                              * live counter that counts more than its heap) */
};

/* Fills out from a row with anon RSS, live bytes and the allocator's heap; false when any of the
 * three is missing (attribution unavailable for that sample). */
bool attr_split_row(const struct runfolder_row *row, struct attr_split *out);

/* The names for allocator's kinds of free memory, for legends and findings: its adapter's words
 * (common/allocators/allocator.h); NULL or unknown: generic names. */
const struct allocator_words *attr_names_for(const char *allocator);

/* A layer's legend for that allocator ("free, returnable: the top chunk"), written into buf. */
const char *attr_part_label(const struct allocator_words *names, enum attr_part part, bool split,
                            char *buf, size_t size);

#endif
