/* tests/test_files.h - files and folders the C unit tests make and remove (include after cmocka.h).
 */
#ifndef ALLOCSPIKE_TEST_FILES_H
#define ALLOCSPIKE_TEST_FILES_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes text to dir/name, replacing it. */
static inline void test_file_write(const char *dir, const char *name, const char *text)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* How many entries of dir have part in their name (a writer's temporary files: ".tmp."). */
static inline int test_dir_entries_named(const char *dir, const char *part)
{
	int n = 0;
	DIR *d = opendir(dir);
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));)
		n += strstr(e->d_name, part) != NULL;
	closedir(d);
	return n;
}

/* Removes dir and everything in it. */
static inline void test_dir_remove(const char *dir)
{
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

#endif
