/* common/live_bytes.c - the live-bytes counter: a thin layer over the allocation functions (see
 * live_bytes.h and docs/allocator-stats.md).
 *
 * Two ways in, one body:
 * - dynamic programs and preloaded objects define malloc and friends themselves; the dynamic
 *   linker binds every caller (the program, ldns, libevent, jansson, libc's own strdup...) to
 *   them, and they forward to the next definition in lookup order (dlsym(RTLD_NEXT)): the
 *   allocator linked in or preloaded after us, or libc's;
 * - static programs (musl) are linked with -Wl,--wrap=malloc,... (LIVE_BYTES_WRAP): every
 *   reference in every object, libc.a included, goes to __wrap_malloc, which calls __real_malloc.
 * Each call is forwarded unchanged; the counter adds or subtracts malloc_usable_size() of the
 * block, the allocator's own size query, so the figure means the same under every allocator. */
#define _GNU_SOURCE
#include "live_bytes.h"

#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define LIVE_EXPORT __attribute__((visibility("default")))
#else
#define LIVE_EXPORT
#endif

#ifdef LIVE_BYTES_WRAP

#define LIVE_FN(name) __wrap_##name
#define LIVE_NEXT(name) __real_##name
/* musl builds calloc on malloc, and memalign, posix_memalign and valloc on aligned_alloc, all
 * through the public names: wrapping those four (and free, realloc) counts every block once. */
extern void *__real_malloc(size_t size);
extern void __real_free(void *p);
extern void *__real_realloc(void *p, size_t size);
extern void *__real_aligned_alloc(size_t align, size_t size);
void *__wrap_malloc(size_t size);
void __wrap_free(void *p);
void *__wrap_realloc(void *p, size_t size);
void *__wrap_aligned_alloc(size_t align, size_t size);
#define LIVE_READY() 1
#define LIVE_IN_BOOT(p) 0
#define LIVE_USABLE(p) malloc_usable_size(p)

void *live_bytes_next_malloc(void)
{
	return (void *)__real_malloc;
}

#else /* dynamic: define the functions, forward to the next definition */

#include <dlfcn.h>

#define LIVE_FN(name) name
#define LIVE_NEXT(name) live_next.name
static struct {
	void *(*malloc)(size_t);
	void (*free)(void *);
	void *(*calloc)(size_t, size_t);
	void *(*realloc)(void *, size_t);
	int (*posix_memalign)(void **, size_t, size_t);
	void *(*aligned_alloc)(size_t, size_t);
	void *(*memalign)(size_t, size_t);
	void *(*valloc)(size_t);
	void *(*pvalloc)(size_t);
	size_t (*usable)(void *);
} live_next;

/* dlsym may itself allocate (an error message, glibc's per-thread dlerror state): while the
 * functions are being looked up, allocations come from this small buffer and are never freed. */
static _Alignas(16) unsigned char live_boot[8192];
static size_t live_boot_used;
static int live_resolving;

static void *live_boot_alloc(size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (size > sizeof(live_boot) - live_boot_used)
		return NULL;
	void *p = live_boot + live_boot_used;
	live_boot_used += size;
	return p;
}

#define LIVE_IN_BOOT(p)                                                                            \
	((const unsigned char *)(p) >= live_boot &&                                                \
	 (const unsigned char *)(p) < live_boot + sizeof(live_boot))

/* Looks the next functions up and calls malloc, malloc_usable_size and free once, all while
 * allocations still go to the buffer: whatever they initialise lazily (the glibc shim dlopens
 * libc on its first malloc_usable_size) allocates from the buffer, not through the counter. */
static void live_resolve(void)
{
	live_resolving = 1;
	__typeof__(live_next) next;
	next.malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
	next.free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	next.calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
	next.realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	next.posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
	next.aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
	next.memalign = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "memalign");
	next.valloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "valloc");
	next.pvalloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "pvalloc");
	next.usable = (size_t(*)(void *))dlsym(RTLD_NEXT, "malloc_usable_size");
	if (!next.malloc || !next.free || !next.usable)
		abort(); /* no allocator behind us: nothing could work */
	void *probe = next.malloc(16);
	(void)next.usable(probe);
	next.free(probe);
	live_next = next;
	live_resolving = 0;
}

/* True when the real functions are known; during the lookup itself, false (use the buffer). */
static inline int live_ready(void)
{
	if (__builtin_expect(live_next.free != NULL, 1))
		return 1;
	if (live_resolving)
		return 0;
	live_resolve();
	return 1;
}
#define LIVE_READY() live_ready()
#define LIVE_USABLE(p) live_next.usable(p)

LIVE_EXPORT void *live_bytes_next_malloc(void)
{
	(void)live_ready();
	return (void *)live_next.malloc;
}

LIVE_EXPORT void *live_bytes_next_symbol(const char *name)
{
	/* RTLD_NEXT searches after the object dlsym returns to: as a tail call it would return to
	 * the caller (the probe, preloaded last) and find the daemon's own allocator instead of the
	 * one after this sampler. The volatile result keeps the call a call. */
	void *volatile sym = dlsym(RTLD_NEXT, name);
	return sym;
}

#endif

static size_t live_total_bytes, live_total_blocks;
/* The most live bytes since the last live_bytes_take_max: a spike's high-water mark falls between
 * two reads of the counter. */
static size_t live_total_bytes_max;

#ifdef LIVE_BYTES_SIZE_CLASSES
/* Three relaxed atomic additions more per call (two per free), in the preloaded sampler only:
 * our resolver builds never pay for them. */
static struct live_size_class live_classes[LIVE_SIZE_CLASSES];

static inline int live_class_of(size_t usable)
{
	if (usable <= 16)
		return 0;
	int i = (int)(sizeof(unsigned long long) * 8) -
	        __builtin_clzll((unsigned long long)usable - 1) - 4;
	return i < LIVE_SIZE_CLASSES ? i : LIVE_SIZE_CLASSES - 1;
}

static inline void live_class_add(size_t usable)
{
	struct live_size_class *c = &live_classes[live_class_of(usable)];
	__atomic_fetch_add(&c->live_blocks, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&c->live_bytes, usable, __ATOMIC_RELAXED);
	__atomic_fetch_add(&c->allocs, 1, __ATOMIC_RELAXED);
}

static inline void live_class_sub(size_t usable)
{
	struct live_size_class *c = &live_classes[live_class_of(usable)];
	__atomic_fetch_sub(&c->live_blocks, 1, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&c->live_bytes, usable, __ATOMIC_RELAXED);
}

/* Not exported: inside a program that has its own counter (our resolver with the sampler
 * preloaded), the sampler must read its own classes. */
bool live_bytes_size_classes_read(struct live_size_class *out)
{
	for (int i = 0; i < LIVE_SIZE_CLASSES; i++) {
		out[i].live_blocks =
		    __atomic_load_n(&live_classes[i].live_blocks, __ATOMIC_RELAXED);
		out[i].live_bytes = __atomic_load_n(&live_classes[i].live_bytes, __ATOMIC_RELAXED);
		out[i].allocs = __atomic_load_n(&live_classes[i].allocs, __ATOMIC_RELAXED);
	}
	return true;
}
#else
#define live_class_add(usable) ((void)0)
#define live_class_sub(usable) ((void)0)
#endif

static inline void live_add(void *p)
{
	if (!p)
		return;
	size_t usable = LIVE_USABLE(p);
	size_t now = __atomic_add_fetch(&live_total_bytes, usable, __ATOMIC_RELAXED);
	__atomic_fetch_add(&live_total_blocks, 1, __ATOMIC_RELAXED);
	live_class_add(usable);
	/* One load and compare on every allocation; a store only while a new high is being set
	 * (the loop retries only when another thread raised the mark meanwhile). */
	size_t max = __atomic_load_n(&live_total_bytes_max, __ATOMIC_RELAXED);
	while (now > max && !__atomic_compare_exchange_n(&live_total_bytes_max, &max, now, true,
	                                                 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static inline void live_sub(size_t usable)
{
	__atomic_fetch_sub(&live_total_bytes, usable, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&live_total_blocks, 1, __ATOMIC_RELAXED);
	live_class_sub(usable);
}

LIVE_EXPORT bool live_bytes_read(struct live_bytes *out)
{
	out->bytes = __atomic_load_n(&live_total_bytes, __ATOMIC_RELAXED);
	out->blocks = __atomic_load_n(&live_total_blocks, __ATOMIC_RELAXED);
	return true;
}

LIVE_EXPORT bool live_bytes_take_max(size_t *out)
{
	/* Starting over from the bytes live now: the next mark is at least what is live at the
	 * read, even if nothing is allocated before the next one. */
	size_t now = __atomic_load_n(&live_total_bytes, __ATOMIC_RELAXED);
	size_t max = __atomic_exchange_n(&live_total_bytes_max, now, __ATOMIC_RELAXED);
	*out = max > now ? max : now;
	return true;
}

LIVE_EXPORT void *LIVE_FN(malloc)(size_t size)
{
#ifndef LIVE_BYTES_WRAP
	if (!LIVE_READY())
		return live_boot_alloc(size);
#endif
	void *p = LIVE_NEXT(malloc)(size);
	live_add(p);
	return p;
}

LIVE_EXPORT void LIVE_FN(free)(void *p)
{
	if (!p || LIVE_IN_BOOT(p))
		return;
	(void)LIVE_READY();
	live_sub(LIVE_USABLE(p));
	LIVE_NEXT(free)(p);
}

LIVE_EXPORT void *LIVE_FN(realloc)(void *p, size_t size)
{
#ifndef LIVE_BYTES_WRAP
	if (p && LIVE_IN_BOOT(p)) {
		/* Moving a lookup-time block to the real heap: its size is at most what is left. */
		void *q = LIVE_FN(malloc)(size);
		if (q) {
			size_t room = (size_t)(live_boot + sizeof(live_boot) - (unsigned char *)p);
			memcpy(q, p, size < room ? size : room);
		}
		return q;
	}
	if (!LIVE_READY())
		return p ? NULL : live_boot_alloc(size);
#endif
	size_t before = p ? LIVE_USABLE(p) : 0;
	void *q = LIVE_NEXT(realloc)(p, size);
	if (q) {
		if (p)
			live_sub(before);
		live_add(q);
	} else if (p && size == 0) {
		live_sub(before); /* glibc's realloc(p, 0) frees p and returns NULL */
	}
	return q;
}

LIVE_EXPORT void *LIVE_FN(aligned_alloc)(size_t align, size_t size)
{
	if (!LIVE_READY())
		return NULL;
	void *p = LIVE_NEXT(aligned_alloc)(align, size);
	live_add(p);
	return p;
}

#ifndef LIVE_BYTES_WRAP
/* The rest only in the dynamic layer: musl builds these on the wrapped functions above. */

LIVE_EXPORT void *LIVE_FN(calloc)(size_t n, size_t size)
{
	if (!LIVE_READY()) {
		size_t total;
		if (__builtin_mul_overflow(n, size, &total))
			return NULL;
		return live_boot_alloc(total); /* static storage: already zero */
	}
	void *p = LIVE_NEXT(calloc)(n, size);
	live_add(p);
	return p;
}

LIVE_EXPORT int LIVE_FN(posix_memalign)(void **out, size_t align, size_t size)
{
	if (!LIVE_READY())
		return ENOMEM;
	int rc = LIVE_NEXT(posix_memalign)(out, align, size);
	if (rc == 0)
		live_add(*out);
	return rc;
}

LIVE_EXPORT void *LIVE_FN(memalign)(size_t align, size_t size)
{
	if (!LIVE_READY())
		return NULL;
	void *p = LIVE_NEXT(memalign)(align, size);
	live_add(p);
	return p;
}

LIVE_EXPORT void *valloc(size_t size)
{
	if (!LIVE_READY())
		return NULL;
	void *p = live_next.valloc(size);
	live_add(p);
	return p;
}

LIVE_EXPORT void *pvalloc(size_t size)
{
	if (!LIVE_READY())
		return NULL;
	void *p = live_next.pvalloc(size);
	live_add(p);
	return p;
}

/* Some allocators (mimalloc) export their own reallocarray, which would not pass through realloc
 * above; glibc's is the same overflow check before realloc (and musl's, reached through the
 * wrapped realloc in a static link). */
LIVE_EXPORT void *LIVE_FN(reallocarray)(void *p, size_t n, size_t size)
{
	size_t total;
	if (__builtin_mul_overflow(n, size, &total)) {
		errno = ENOMEM;
		return NULL;
	}
	return LIVE_FN(realloc)(p, total);
}
#endif
