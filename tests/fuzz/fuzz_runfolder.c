/* tests/fuzz/fuzz_runfolder.c - libFuzzer target over the run-folder reader
 * (common/runfolder_reader, docs/run-folder.md): run.json, events.jsonl, timeline.csv, phases.csv
 * and latency_hist.csv, and its limits (docs/run-folder.md, "Limits").
 *
 * Input: the files' contents in that order, separated by NUL bytes. The first three are always
 * written (a missing part is an empty file); phases.csv and latency_hist.csv only when their part
 * is there (absent, they are the older run folders' fallback); a fifth NUL and what follows belong
 * to latency_hist.csv. What the reader accepts must keep its promises: every spike number within
 * RUNFOLDER_MAX_SPIKE, every target an identifier within the limits. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "identifier.h"
#include "runfolder_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fuzz_dir[64];

#define FUZZ_FILES 5
static const char *const files[FUZZ_FILES] = {"run.json", "events.jsonl", "timeline.csv",
                                              "phases.csv", "latency_hist.csv"};

static void fuzz_dir_remove(void)
{
	char path[128];
	for (int i = 0; i < FUZZ_FILES; i++) {
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
	const uint8_t *p = data, *end = data + size;
	bool present = true;
	for (int i = 0; i < FUZZ_FILES; i++) {
		const uint8_t *cut = i < FUZZ_FILES - 1 ? memchr(p, 0, (size_t)(end - p)) : NULL;
		const uint8_t *stop = cut ? cut : end;
		if (present || i < 3) {
			fuzz_write(files[i], p, (size_t)(stop - p));
		} else {
			char path[128];
			snprintf(path, sizeof(path), "%s/%s", fuzz_dir, files[i]);
			unlink(path);
		}
		present = cut != NULL;
		p = cut ? cut + 1 : end;
	}
	struct runfolder rf;
	char err[512];
	if (runfolder_read(fuzz_dir, &rf, err, sizeof(err))) {
		for (size_t i = 0; i < rf.n_rows; i++)
			if (rf.rows[i].spike < 0 || rf.rows[i].spike > RUNFOLDER_MAX_SPIKE)
				abort();
		for (size_t i = 0; i < rf.n_phase_rows; i++)
			if (rf.phase_rows[i].spike < 0 ||
			    rf.phase_rows[i].spike > RUNFOLDER_MAX_SPIKE)
				abort();
		if (rf.n_variants > RUNFOLDER_MAX_VARIANTS || rf.n_harness > RUNFOLDER_MAX_HARNESS)
			abort();
		for (size_t t = 0; t < rf.n_targets; t++)
			if (!identifier_valid(rf.targets[t], NULL, 0) ||
			    runfolder_target_index(&rf, rf.targets[t]) != (int)t)
				abort();
	}
	runfolder_free(&rf); /* safe after a failed read too, by contract */
	return 0;
}
