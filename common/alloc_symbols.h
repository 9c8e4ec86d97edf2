/* common/alloc_symbols.h - the allocators' own entry points, as weak references: NULL unless the
 * allocator serving this process (linked in or preloaded) exports them. */
#ifndef ALLOCSPIKE_ALLOC_SYMBOLS_H
#define ALLOCSPIKE_ALLOC_SYMBOLS_H

#include <stddef.h>

/* glibc */
extern const char *gnu_get_libc_version(void) __attribute__((weak));
struct alloc_symbols_mallinfo2 {
	size_t arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks,
	    keepcost;
};
extern struct alloc_symbols_mallinfo2 mallinfo2(void) __attribute__((weak));
extern int malloc_trim(size_t pad) __attribute__((weak));
/* jemalloc */
extern int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen)
    __attribute__((weak));
/* gperftools tcmalloc */
extern const char *tc_version(int *major, int *minor, const char **patch) __attribute__((weak));
extern int MallocExtension_GetNumericProperty(const char *property, size_t *value)
    __attribute__((weak));
/* mimalloc */
extern int mi_version(void) __attribute__((weak));
extern void mi_process_info(size_t *elapsed_msecs, size_t *user_msecs, size_t *system_msecs,
                            size_t *current_rss, size_t *peak_rss, size_t *current_commit,
                            size_t *peak_commit, size_t *page_faults) __attribute__((weak));

#endif
