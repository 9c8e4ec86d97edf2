/* common/atomic_write_file.h - writing a file so that a reader sees its old content or the whole new
 * one, never half: a temporary file beside it, flushed to disk, renamed over it. The one way every
 * program writes a file others read while it runs (ready files, JSON, query files, counts). */
#ifndef ALLOCSPIKE_ATOMIC_WRITE_FILE_H
#define ALLOCSPIKE_ATOMIC_WRITE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct atomic_file {
	FILE *f; /* write here between atomic_file_open and atomic_file_commit */
	char path[4096];
	char tmp[4096 + 32];
};

/* Opens PATH.tmp.PID for writing. On failure returns false with "FILE: reason" in err. */
bool atomic_file_open(struct atomic_file *af, const char *path, char *err, size_t err_size);

/* When ok: flushes, fsyncs, closes and renames the temporary file over the path. Otherwise, or when
 * a step fails, closes and removes it. Returns whether the path now holds the new content; on a
 * failure of its own "FILE: reason" is in err. */
bool atomic_file_commit(struct atomic_file *af, bool ok, char *err, size_t err_size);

/* len bytes of data to path, as above. */
bool atomic_write_file(const char *path, const void *data, size_t len, char *err, size_t err_size);

#endif
