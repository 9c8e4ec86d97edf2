/* common/anon_maps.h - this process's anonymous pages by what holds them: the allocator's maps
 * (the brk heap and unnamed anonymous mappings) and the rest (loaded objects, stacks, special
 * maps), from /proc/self/smaps (docs/allocator-stats.md, "Resident heap"). */
#ifndef ALLOCSPIKE_ANON_MAPS_H
#define ALLOCSPIKE_ANON_MAPS_H

#include <stdbool.h>

/* Resident anonymous kB (smaps' Anonymous:) and mapped sizes, by kind of mapping. */
struct anon_maps {
	long long brk_kb, brk_size_kb;         /* [heap] */
	long long unnamed_kb, unnamed_size_kb; /* anonymous, no file, no name, no loaded object */
	long long unnamed_count;
	long long objects_kb; /* loaded objects' segments (.data, .bss, relocations) and private
	                         copies of any other file */
	long long stacks_kb;  /* [stack] and the stacks of the process's threads */
	long long special_kb; /* the kernel's named maps: [vdso], [vvar], ... */
};

/* The allocator's share: what its maps hold resident. */
long long anon_maps_allocator_kb(const struct anon_maps *m);

/* Everything else anonymous: what is outside the allocator. */
long long anon_maps_outside_kb(const struct anon_maps *m);

/* Reads /proc/self/smaps; false when it cannot be read. Allocates nothing (safe inside a daemon
 * from the live sampler's thread). A thread's stack is known by the stack pointer the kernel shows
 * for it while it waits (/proc/self/task/TID/syscall) or, for the calling thread, by its own
 * frame; a thread running at that instant has its stack counted among the unnamed maps. */
bool anon_maps_read(struct anon_maps *out);

#endif
