/* common/allocators/glibc_tunables.c - glibc's malloc tunables, read back by running the loader
 * that started this process with --list-tunables, in the same environment. */
#define _GNU_SOURCE
#include "glibc_tunables.h"

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

extern char **environ;

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
			alloc_settings_put(o, line, (double)v, ALLOC_SETTING_NUMBER);
	}
}

void glibc_tunables_read(struct alloc_settings_out *o)
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
