/* preload/alloc_probe.c - LD_PRELOAD probe that records which allocator really serves malloc in a
 * daemon.
 *
 * A prebuilt daemon cannot answer --version --json the way our resolver does, and Debian's
 * kresd keeps jemalloc mapped whatever is preloaded, so "jemalloc is loaded" proves nothing.
 * Preloaded (after the allocator under test), this object's constructor runs before the
 * daemon's main(), asks common/alloc_info which object malloc resolves to, follows the glibc
 * routing shim (preload/glibc_malloc.c) to where it really goes, checks with glibc's own
 * mallinfo2() whether a malloc() lands in glibc's heap, does the same for jemalloc's mallocx
 * when the process has one (BIND allocates through it; preload/mallocx.c), and writes all of it
 * as one JSON object to the file named by $ALLOCSPIKE_ALLOC_PROBE. Without that variable it does
 * nothing. It runs once, before main(), while the process is still single-threaded.
 *
 * The JSON is written by hand, not with jansson: inside a foreign process jansson's internal
 * calls bind to the daemon's own symbols of the same name (kresd exports json_delete), and
 * Debian's static libjansson.a cannot go into a shared object. Every string is escaped. */
#define _GNU_SOURCE
#include "alloc_info.h"
#include "alloc_settings.h"
#include "allocators/allocator.h"
#include "atomic_write_file.h"
#include "live_bytes.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Exported by the glibc routing shim when it is loaded. */
extern void *allocspike_malloc_route_target(void) __attribute__((weak));
extern const char *gnu_get_libc_version(void) __attribute__((weak));

struct alloc_probe_mallinfo2 {
	size_t arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks,
	    keepcost;
};

/* The shared object holding addr, or "" when dladdr cannot tell (a static executable). */
static const char *alloc_probe_object(const void *addr)
{
	Dl_info dl;
	if (addr && dladdr(addr, &dl) != 0 && dl.dli_fname)
		return dl.dli_fname;
	return "";
}

/* glibc's own mallinfo2, taken from libc.so.6 itself since tcmalloc exports a mallinfo of its
 * own; NULL when glibc's is not there. */
typedef struct alloc_probe_mallinfo2 (*alloc_probe_mallinfo2_fn)(void);
static alloc_probe_mallinfo2_fn alloc_probe_glibc_mallinfo2(void)
{
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	if (!libc)
		return NULL;
	alloc_probe_mallinfo2_fn mi2 = (alloc_probe_mallinfo2_fn)dlsym(libc, "mallinfo2");
	dlclose(libc);
	return mi2;
}

/* jemalloc's non-standard entry points as the daemon's code finds them (BIND calls these). */
typedef void *(*alloc_probe_mallocx_fn)(size_t, int);
typedef void (*alloc_probe_dallocx_fn)(void *, int);

/* Whether a 4 KiB block (below any mmap threshold: an arena chunk in glibc) from malloc, or from
 * mallocx when use_mallocx, grows glibc's in-use bytes. -1 when it cannot be told. */
static int alloc_probe_glibc_heap_serves(bool use_mallocx)
{
	alloc_probe_mallinfo2_fn mi2 = alloc_probe_glibc_mallinfo2();
	alloc_probe_mallocx_fn mallocx_fn = (alloc_probe_mallocx_fn)dlsym(RTLD_DEFAULT, "mallocx");
	alloc_probe_dallocx_fn dallocx_fn = (alloc_probe_dallocx_fn)dlsym(RTLD_DEFAULT, "dallocx");
	if (!mi2 || (use_mallocx && (!mallocx_fn || !dallocx_fn)))
		return -1;
	size_t before = mi2().uordblks;
	char *volatile p = use_mallocx ? mallocx_fn(4096, 0) : malloc(4096);
	size_t after = mi2().uordblks;
	if (use_mallocx)
		dallocx_fn(p, 0);
	else
		free(p);
	return after >= before + 4096;
}

/* Writes s as a JSON string: quotes, backslashes and control characters escaped. */
static void alloc_probe_put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void alloc_probe_put_field(FILE *f, const char *key, const char *value, bool last)
{
	fprintf(f, "  \"%s\": ", key);
	if (value)
		alloc_probe_put_string(f, value);
	else
		fputs("null", f);
	fputs(last ? "\n" : ",\n", f);
}

/* "allocator_settings": the settings the allocator serving the daemon reports (docs/variants.md,
 * "Settings"), checked against the row's env cell as for our own binaries. */
static void alloc_probe_put_settings(FILE *f, const struct alloc_info *info)
{
	struct alloc_setting s[32];
	size_t n = alloc_settings_read(info, s, sizeof(s) / sizeof(s[0]));
	fputs("  \"allocator_settings\": {", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		alloc_probe_put_string(f, s[i].name);
		if (s[i].type == ALLOC_SETTING_BOOL)
			fputs(s[i].number != 0 ? ": true" : ": false", f);
		else if (s[i].type == ALLOC_SETTING_NUMBER)
			fprintf(f, ": %.17g", s[i].number);
		else {
			fputs(": ", f);
			alloc_probe_put_string(f, s[i].text);
		}
	}
	fputs("},\n", f);
}

/* Where malloc really goes when the glibc routing shim is what it resolved to; NULL otherwise. */
static const char *alloc_probe_route(struct alloc_info *info)
{
	if (!allocspike_malloc_route_target)
		return NULL;
	/* The shim counts only if malloc really resolved to it (it could be loaded but shadowed).
	 */
	if (strcmp(alloc_probe_object(alloc_info_malloc_address()),
	           alloc_probe_object((void *)allocspike_malloc_route_target)) != 0)
		return NULL;
	const char *routed_to = alloc_probe_object(allocspike_malloc_route_target());
	if (gnu_get_libc_version &&
	    strcmp(routed_to, alloc_probe_object((void *)gnu_get_libc_version)) == 0) {
		snprintf(info->allocator, sizeof(info->allocator), "%s", allocator_glibc.name);
		allocator_glibc.version(info->allocator_version, sizeof(info->allocator_version));
	}
	return routed_to;
}

/* NAME as the process resolves it, seen through the live-bytes counter when that is preloaded
 * (it defines the malloc family only to count and forward). */
static void *alloc_probe_resolve(const char *name)
{
	void *sym = dlsym(RTLD_DEFAULT, name);
	if (sym && live_bytes_next_symbol &&
	    strcmp(alloc_probe_object(sym), alloc_probe_object((void *)live_bytes_next_symbol)) ==
	        0)
		sym = live_bytes_next_symbol(name);
	return sym;
}

/* Whether what takes memory back (free, realloc, operator delete plain and sized) comes from the
 * object malloc comes from, so that every block is released by the allocator that made it.
 * libstdc++'s operator delete only calls free, so it matches too; an absent symbol is null.
 * Writes "release_objects" and "release_matches_malloc". */
static void alloc_probe_put_release(FILE *f)
{
	static const char *const names[][2] = {{"free", "free"},
	                                       {"realloc", "realloc"},
	                                       {"_ZdlPv", "operator delete"},
	                                       {"_ZdlPvm", "operator delete (sized)"}};
	const char *malloc_object = alloc_probe_object(alloc_probe_resolve("malloc"));
	bool match = true;
	fputs("  \"release_objects\": {", f);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		void *sym = alloc_probe_resolve(names[i][0]);
		const char *object = sym ? alloc_probe_object(sym) : NULL;
		fprintf(f, "%s", i ? ", " : "");
		alloc_probe_put_string(f, names[i][1]);
		fputs(": ", f);
		if (object)
			alloc_probe_put_string(f, object);
		else
			fputs("null", f);
		if (object && *object && *malloc_object && strcmp(object, malloc_object) != 0 &&
		    !strstr(object, "libstdc++"))
			match = false;
	}
	fprintf(f, "},\n  \"release_matches_malloc\": %s,\n", match ? "true" : "false");
}

static const char *alloc_probe_tristate(int value)
{
	return value < 0 ? "null" : value ? "true" : "false";
}

static void alloc_probe_write(const char *out)
{
	struct alloc_info info;
	alloc_info_detect(&info);
	const char *routed_to = alloc_probe_route(&info);
	int glibc_heap = alloc_probe_glibc_heap_serves(false);
	void *mallocx_ptr = dlsym(RTLD_DEFAULT, "mallocx");
	const char *mallocx_object = mallocx_ptr ? alloc_probe_object(mallocx_ptr) : NULL;
	int glibc_heap_mallocx = alloc_probe_glibc_heap_serves(true);

	struct atomic_file af;
	char err[1024];
	if (!atomic_file_open(&af, out, err, sizeof(err))) {
		fprintf(stderr, "allocspike alloc probe: %s\n", err);
		return;
	}
	FILE *f = af.f;
	fprintf(f, "{\n  \"pid\": %ld,\n", (long)getpid());
	alloc_probe_put_settings(f, &info);
	alloc_probe_put_field(f, "allocator", info.allocator, false);
	alloc_probe_put_field(f, "allocator_version", info.allocator_version, false);
	alloc_probe_put_field(f, "libc", info.libc, false);
	alloc_probe_put_field(f, "libc_version", info.libc_version, false);
	alloc_probe_put_field(f, "malloc_object", info.malloc_object, false);
	alloc_probe_put_field(f, "malloc_routed_to", routed_to, false);
	alloc_probe_put_release(f);
	alloc_probe_put_field(f, "mallocx_object", mallocx_object, false);
	fprintf(f, "  \"glibc_heap_serves_malloc\": %s,\n", alloc_probe_tristate(glibc_heap));
	fprintf(f, "  \"glibc_heap_serves_mallocx\": %s\n}\n",
	        alloc_probe_tristate(glibc_heap_mallocx));
	/* Renamed into place only when complete, so a reader never sees half an object. */
	if (!atomic_file_commit(&af, !ferror(f), err, sizeof(err)))
		fprintf(stderr, "allocspike alloc probe: %s: cannot write%s%s\n", out,
		        err[0] ? ": " : "", err);
}

__attribute__((constructor)) static void alloc_probe_init(void)
{
	const char *out = getenv("ALLOCSPIKE_ALLOC_PROBE");
	if (out && *out)
		alloc_probe_write(out);
}
