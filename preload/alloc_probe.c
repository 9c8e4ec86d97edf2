/* preload/alloc_probe.c - LD_PRELOAD probe that records which allocator really serves malloc in a
 * daemon.
 *
 * A prebuilt daemon cannot answer --version --json the way our resolver does, and Debian's
 * kresd keeps jemalloc mapped whatever is preloaded, so "jemalloc is loaded" proves nothing.
 * Preloaded (after the allocator under test), this object's constructor runs before the
 * daemon's main(), asks common/alloc_info which object malloc resolves to, follows the glibc
 * routing shim (preload/glibc_malloc.c) to where it really goes, checks with glibc's own
 * mallinfo2() whether a malloc() lands in glibc's heap, and writes all of it as one JSON object
 * to the file named by $ALLOCSPIKE_ALLOC_PROBE. Without that variable it does nothing.
 *
 * The JSON is written by hand, not with jansson: inside a foreign process jansson's internal
 * calls bind to the daemon's own symbols of the same name (kresd exports json_delete), and
 * Debian's static libjansson.a cannot go into a shared object. Every string is escaped. */
#define _GNU_SOURCE
#include "alloc_info.h"
#include "alloc_settings.h"

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

/* Whether a malloc() grows glibc's in-use bytes: glibc's mallinfo2 is taken from libc.so.6
 * itself, since tcmalloc exports a mallinfo of its own. -1 when glibc's is not there. */
static int alloc_probe_glibc_heap_serves(void)
{
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	if (!libc)
		return -1;
	struct alloc_probe_mallinfo2 (*mi2)(void) =
	    (struct alloc_probe_mallinfo2(*)(void))dlsym(libc, "mallinfo2");
	dlclose(libc);
	if (!mi2)
		return -1;
	size_t before = mi2().uordblks;
	char *volatile p = malloc(4096); /* below any mmap threshold: an arena chunk in glibc */
	size_t after = mi2().uordblks;
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
	void *(*volatile malloc_ptr)(size_t) = malloc;
	/* The shim counts only if malloc really resolved to it (it could be loaded but shadowed).
	 */
	if (strcmp(alloc_probe_object((void *)malloc_ptr),
	           alloc_probe_object((void *)allocspike_malloc_route_target)) != 0)
		return NULL;
	const char *routed_to = alloc_probe_object(allocspike_malloc_route_target());
	if (gnu_get_libc_version &&
	    strcmp(routed_to, alloc_probe_object((void *)gnu_get_libc_version)) == 0) {
		snprintf(info->allocator, sizeof(info->allocator), "glibc");
		snprintf(info->allocator_version, sizeof(info->allocator_version), "%s",
		         gnu_get_libc_version());
	}
	return routed_to;
}

static void alloc_probe_write(const char *out)
{
	struct alloc_info info;
	alloc_info_detect(&info);
	const char *routed_to = alloc_probe_route(&info);
	int glibc_heap = alloc_probe_glibc_heap_serves();

	char tmp[4096];
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", out, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "allocspike alloc probe: %s: cannot write: %s\n", tmp,
		        strerror(errno));
		return;
	}
	fprintf(f, "{\n  \"pid\": %ld,\n", (long)getpid());
	alloc_probe_put_settings(f, &info);
	alloc_probe_put_field(f, "allocator", info.allocator, false);
	alloc_probe_put_field(f, "allocator_version", info.allocator_version, false);
	alloc_probe_put_field(f, "libc", info.libc, false);
	alloc_probe_put_field(f, "libc_version", info.libc_version, false);
	alloc_probe_put_field(f, "malloc_object", info.malloc_object, false);
	alloc_probe_put_field(f, "malloc_routed_to", routed_to, false);
	fprintf(f, "  \"glibc_heap_serves_malloc\": %s\n}\n",
	        glibc_heap < 0 ? "null"
	        : glibc_heap   ? "true"
	                       : "false");
	/* Renamed into place only when complete, so a reader never sees half an object. */
	if (fclose(f) != 0 || rename(tmp, out) != 0) {
		fprintf(stderr, "allocspike alloc probe: %s: cannot write: %s\n", out,
		        strerror(errno));
		unlink(tmp);
	}
}

__attribute__((constructor)) static void alloc_probe_init(void)
{
	const char *out = getenv("ALLOCSPIKE_ALLOC_PROBE");
	if (out && *out)
		alloc_probe_write(out);
}
