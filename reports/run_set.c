/* reports/run_set.c - a run folder, or the repeats in a folder of repeats. */
#include "run_set.h"
#include "grow.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Whether dir holds something named run.json: a link to nothing counts, so that reading it
 * refuses it by name rather than taking the folder for repeats. */
static bool has_run_json(const char *dir)
{
	char path[4096];
	struct stat st;
	if ((size_t)snprintf(path, sizeof(path), "%s/run.json", dir) >= sizeof(path))
		return false; /* no such path can be opened either */
	return lstat(path, &st) == 0;
}

/* N of a name "run-N" (N a whole number without sign or leading zero), else 0. */
static unsigned long repeat_number(const char *name)
{
	if (strncmp(name, "run-", 4) != 0 || name[4] < '1' || name[4] > '9')
		return 0;
	char *end;
	unsigned long n = strtoul(name + 4, &end, 10);
	return *end || n > 1000000 ? 0 : n;
}

struct repeat {
	unsigned long n;
	char *dir;
};

static int repeat_cmp(const void *a, const void *b)
{
	unsigned long x = ((const struct repeat *)a)->n, y = ((const struct repeat *)b)->n;
	return (x > y) - (x < y);
}

/* p, or the end after saying so: a report has no way on without memory (as strbuf). */
static void *checked(void *p)
{
	if (!p) {
		fprintf(stderr, "allocspike-report: out of memory\n");
		exit(2);
	}
	return p;
}

void run_set_expand(const char *path, struct run_set *set)
{
	*set = (struct run_set){0};
	struct repeat *found = NULL;
	size_t n = 0, cap = 0;
	size_t len = strlen(path);
	const char *sep = len && path[len - 1] == '/' ? "" : "/";
	DIR *d = !len || has_run_json(path) ? NULL : opendir(path);
	for (struct dirent *e; d && (e = readdir(d));) {
		unsigned long k = repeat_number(e->d_name);
		char dir[4096];
		if (!k ||
		    (size_t)snprintf(dir, sizeof(dir), "%s%s%s", path, sep, e->d_name) >=
		        sizeof(dir) ||
		    !has_run_json(dir))
			continue;
		found = checked(grow_room(found, &cap, n, sizeof(*found), 8));
		found[n++] = (struct repeat){k, checked(strdup(dir))};
	}
	if (d)
		closedir(d);
	if (n)
		qsort(found, n, sizeof(*found), repeat_cmp);
	set->dirs = checked(calloc(n ? n : 1, sizeof(*set->dirs)));
	for (size_t i = 0; i < n; i++)
		set->dirs[i] = found[i].dir;
	set->n = n;
	if (n == 0)
		set->dirs[set->n++] = checked(strdup(path));
	free(found);
}

void run_set_free(struct run_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		free(set->dirs[i]);
	free(set->dirs);
	*set = (struct run_set){0};
}
