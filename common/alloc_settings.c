/* common/alloc_settings.c - the allocator's memory settings, read back from the allocator at run
 * time, so that a variant row can be refused when its environment did not take.
 *
 * Weak references (alloc_symbols.h): they resolve to whichever allocator serves this process. */
#define _GNU_SOURCE
#include "alloc_settings.h"
#include "alloc_symbols.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<mimalloc.h>)
#include <mimalloc.h>
#define ALLOC_SETTINGS_MIMALLOC 1
#endif
#endif

extern char **environ;

/* gperftools: the release rate, which only the C++ interface reports
 * (TCMallocImplementation::GetMemoryReleaseRate, called with the instance as `this`). */
extern void *_ZN15MallocExtension8instanceEv(void) __attribute__((weak));
extern double _ZN22TCMallocImplementation20GetMemoryReleaseRateEv(void *self) __attribute__((weak));
#ifdef ALLOC_SETTINGS_MIMALLOC
extern long mi_option_get(mi_option_t option) __attribute__((weak));
#endif

struct alloc_settings_out {
	struct alloc_setting *s;
	size_t n, max;
};

static void put_number(struct alloc_settings_out *o, const char *name, double v,
                       enum alloc_setting_type type)
{
	if (o->n >= o->max)
		return;
	struct alloc_setting *s = &o->s[o->n++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->type = type;
	s->number = v;
}

static void read_jemalloc(struct alloc_settings_out *o)
{
	static const char *const decays[] = {"opt.dirty_decay_ms", "opt.muzzy_decay_ms"};
	for (size_t i = 0; i < 2; i++) {
		ssize_t v;
		size_t len = sizeof(v);
		if (mallctl(decays[i], &v, &len, NULL, 0) == 0)
			put_number(o, decays[i], (double)v, ALLOC_SETTING_NUMBER);
	}
	static const char *const flags[] = {"opt.background_thread", "opt.retain", "opt.tcache",
	                                    "background_thread"};
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		bool v;
		size_t len = sizeof(v);
		if (mallctl(flags[i], &v, &len, NULL, 0) == 0)
			put_number(o, flags[i], v, ALLOC_SETTING_BOOL);
	}
	unsigned narenas;
	size_t len = sizeof(narenas);
	if (mallctl("opt.narenas", &narenas, &len, NULL, 0) == 0)
		put_number(o, "opt.narenas", narenas, ALLOC_SETTING_NUMBER);
}

static void read_tcmalloc(struct alloc_settings_out *o)
{
	if (_ZN15MallocExtension8instanceEv &&
	    _ZN22TCMallocImplementation20GetMemoryReleaseRateEv) {
		void *self = _ZN15MallocExtension8instanceEv();
		if (self)
			put_number(o, "TCMALLOC_RELEASE_RATE",
			           _ZN22TCMallocImplementation20GetMemoryReleaseRateEv(self),
			           ALLOC_SETTING_NUMBER);
	}
	if (!MallocExtension_GetNumericProperty)
		return;
	static const struct {
		const char *env, *property;
		enum alloc_setting_type type;
	} props[] = {
	    {"TCMALLOC_AGGRESSIVE_DECOMMIT", "tcmalloc.aggressive_memory_decommit",
	     ALLOC_SETTING_BOOL},
	    {"TCMALLOC_MAX_TOTAL_THREAD_CACHE_BYTES", "tcmalloc.max_total_thread_cache_bytes",
	     ALLOC_SETTING_NUMBER},
	    {"TCMALLOC_HEAP_LIMIT_MB", "tcmalloc.heap_limit_mb", ALLOC_SETTING_NUMBER},
	};
	for (size_t i = 0; i < sizeof(props) / sizeof(props[0]); i++) {
		size_t v;
		if (MallocExtension_GetNumericProperty(props[i].property, &v))
			put_number(o, props[i].env, (double)v, props[i].type);
	}
}

static void read_mimalloc(struct alloc_settings_out *o)
{
#if defined(ALLOC_SETTINGS_MIMALLOC) && MI_MALLOC_VERSION >= 200 && MI_MALLOC_VERSION < 210
	/* mimalloc 2.0's names; 2.1 renamed the decommit options to purge_*. */
	static const struct {
		const char *env;
		mi_option_t option;
	} opts[] = {
	    {"MIMALLOC_DECOMMIT_DELAY", mi_option_decommit_delay},
	    {"MIMALLOC_SEGMENT_DECOMMIT_DELAY", mi_option_segment_decommit_delay},
	    {"MIMALLOC_DECOMMIT_EXTEND_DELAY", mi_option_decommit_extend_delay},
	    {"MIMALLOC_ALLOW_DECOMMIT", mi_option_allow_decommit},
	    {"MIMALLOC_PAGE_RESET", mi_option_page_reset},
	    {"MIMALLOC_ABANDONED_PAGE_DECOMMIT", mi_option_abandoned_page_decommit},
	    {"MIMALLOC_EAGER_COMMIT", mi_option_eager_commit},
	};
	if (!mi_option_get)
		return;
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		put_number(o, opts[i].env, (double)mi_option_get(opts[i].option),
		           ALLOC_SETTING_NUMBER);
#else
	(void)o;
#endif
}

/* The program loader this process was started by (empty for a static executable). */
static bool loader_path(char *buf, size_t size)
{
	unsigned long base = getauxval(AT_BASE);
	Dl_info dl;
	if (!base || dladdr((void *)base, &dl) == 0 || !dl.dli_fname || dl.dli_fname[0] != '/')
		return false;
	snprintf(buf, size, "%s", dl.dli_fname);
	return true;
}

/* Whether this process's GLIBC_TUNABLES names the tunable ("a=1:b=2" names a and b). */
static bool tunable_named(const char *name)
{
	const char *env = getenv("GLIBC_TUNABLES");
	size_t n = strlen(name);
	for (const char *p = env; p && *p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL)
		if (strncmp(p, name, n) == 0 && p[n] == '=')
			return true;
	return false;
}

/* "glibc.malloc.NAME: VALUE (min: .., max: ..)" lines of `ld.so --list-tunables`. The loader lists
 * a tunable nobody set as 0, which reads as "disabled" (trim_threshold=0) where glibc uses its own
 * default: such a tunable is left out, one GLIBC_TUNABLES names is kept whatever its value. */
static void parse_tunables(struct alloc_settings_out *o, char *text)
{
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "glibc.malloc.", 13) != 0)
			continue;
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		char *end;
		unsigned long long v = strtoull(colon + 1, &end, 0);
		if (end != colon + 1 && (v != 0 || tunable_named(line)))
			put_number(o, line, (double)v, ALLOC_SETTING_NUMBER);
	}
}

static void read_glibc(struct alloc_settings_out *o)
{
	char loader[512];
	int fds[2];
	if (!loader_path(loader, sizeof(loader)) || pipe(fds) != 0)
		return;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
	char *argv[] = {loader, "--list-tunables", NULL};
	pid_t pid;
	/* The same environment: the loader parses GLIBC_TUNABLES exactly as it did for us. */
	int rc = posix_spawn(&pid, loader, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		return;
	}
	char text[16384];
	size_t used = 0;
	ssize_t got;
	while (used < sizeof(text) - 1 &&
	       (got = read(fds[0], text + used, sizeof(text) - 1 - used)) > 0)
		used += (size_t)got;
	text[used] = '\0';
	close(fds[0]);
	int status = 0;
	pid_t waited;
	while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (waited == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		parse_tunables(o, text);
}

size_t alloc_settings_read(const struct alloc_info *info, struct alloc_setting *out, size_t max)
{
	struct alloc_settings_out o = {out, 0, max};
	const char *name = info->allocator;
	if (strcmp(name, "jemalloc") == 0 && mallctl)
		read_jemalloc(&o);
	else if (strcmp(name, "tcmalloc") == 0)
		read_tcmalloc(&o);
	else if (strcmp(name, "mimalloc") == 0)
		read_mimalloc(&o);
	else if (strcmp(name, "glibc") == 0)
		read_glibc(&o);
	return o.n;
}
