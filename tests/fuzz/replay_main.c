/* tests/fuzz/replay_main.c - main() for a fuzz target where libFuzzer is not available (gcc): runs
 * LLVMFuzzerTestOneInput once over every file named, and over every file in every folder named,
 * so the seed corpus and the regression inputs run in every build. A crash is the failure. */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Runs one file; false when it cannot be read. */
static bool replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return false;
	}
	size_t cap = 4096, len = 0, n;
	uint8_t *buf = malloc(cap);
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			uint8_t *bigger = realloc(buf, cap * 2);
			if (!bigger) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = bigger;
			cap *= 2;
		}
	}
	bool ok = buf && !ferror(f);
	fclose(f);
	if (!ok) {
		fprintf(stderr, "replay: %s: cannot read\n", path);
		free(buf);
		return false;
	}
	/* An exact-size copy, so that ASan (where present) sees a read past the input's end. */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact)
		abort();
	memcpy(exact, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	return true;
}

static int replay_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every regular file of a folder, in name order; returns how many; -1 when unreadable. */
static long replay_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	char **names = NULL;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || strstr(e->d_name, ".md"))
			continue;
		char **more = realloc(names, (n + 1) * sizeof(*names));
		if (!more)
			abort();
		names = more;
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), replay_name_cmp);
	long ran = 0;
	for (size_t i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && replay_file(path))
			ran++;
		free(names[i]);
	}
	free(names);
	return ran;
}

int main(int argc, char **argv)
{
	long ran = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (argv[i][0] == '-')
			continue; /* libFuzzer's options mean nothing here */
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i], strerror(errno));
			return 2;
		}
		long n = S_ISDIR(st.st_mode) ? replay_dir(argv[i]) : replay_file(argv[i]) ? 1 : -1;
		if (n < 0)
			return 2;
		ran += n;
	}
	printf("replay: %ld inputs ran without a crash\n", ran);
	return 0;
}
