/* tests/fuzz/fuzz_runfolder.c - libFuzzer target over the run-folder reader
 * (common/runfolder_reader, docs/run-folder.md): run.json, events.jsonl and timeline.csv.
 *
 * Input: the three files' contents in that order, separated by NUL bytes (a missing part is an
 * empty file; a third NUL and what follows belong to timeline.csv). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runfolder_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fuzz_dir[64];

static void fuzz_dir_remove(void)
{
	static const char *const files[] = {"run.json", "events.jsonl", "timeline.csv"};
	char path[128];
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", fuzz_dir, files[i]);
		unlink(path);
	}
	rmdir(fuzz_dir);
}

static void fuzz_write(const char *name, const uint8_t *data, size_t size)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", fuzz_dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fuzz_dir[0]) {
		/* /dev/shm when there is one: a file system in memory, thousands of inputs a second
		 */
		snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/allocspike-fuzz-XXXXXX",
		         access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
		if (!mkdtemp(fuzz_dir))
			abort();
		atexit(fuzz_dir_remove);
	}
	static const char *const files[] = {"run.json", "events.jsonl", "timeline.csv"};
	const uint8_t *p = data, *end = data + size;
	for (int i = 0; i < 3; i++) {
		const uint8_t *cut = i < 2 ? memchr(p, 0, (size_t)(end - p)) : NULL;
		const uint8_t *stop = cut ? cut : end;
		fuzz_write(files[i], p, (size_t)(stop - p));
		p = cut ? cut + 1 : end;
	}
	struct runfolder rf;
	char err[512];
	runfolder_read(fuzz_dir, &rf, err, sizeof(err));
	runfolder_free(&rf); /* safe after a failed read too, by contract */
	return 0;
}
