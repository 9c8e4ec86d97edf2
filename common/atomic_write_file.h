/* common/atomic_write_file.h - writing a file so that a reader sees its old content or the whole
 * new one, never half: a temporary file beside it, flushed to disk, renamed over it. The one way
 * every program writes a file others read while it runs (ready files, JSON, query files, counts).
 *
 * The folder written into may be someone else's (a run folder from an archive, a shared temporary
 * folder), so nothing is written through a link planted there: the temporary file has an
 * unpredictable name and is created exclusively without following links, and only a regular file
 * (or nothing) is replaced. A character device or FIFO at the path (/dev/stdout, a pipe) is written
 * in place, as a plain write; anything else there (a folder, a block device, a socket, a link to
 * a regular file) is refused with what was found. */
#ifndef ALLOCSPIKE_ATOMIC_WRITE_FILE_H
#define ALLOCSPIKE_ATOMIC_WRITE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct atomic_file {
	FILE *f;         /* write here between atomic_file_open and atomic_file_commit */
	int dirfd;       /* the folder the file is renamed within */
	bool own_dirfd;  /* opened by atomic_file_open (closed at commit) */
	bool in_place;   /* a character device or FIFO: written directly, nothing renamed */
	char name[256];  /* the file's name within dirfd */
	char tmp[256];   /* the temporary file's name within dirfd */
	char path[4096]; /* as shown in messages */
};

/* Opens a temporary file beside PATH for writing. PATH's folder is the caller's (followed as
 * given); its last component is never followed unless it is a link to a character device or a FIFO.
 * On failure returns false with "FILE: reason" in err. */
bool atomic_file_open(struct atomic_file *af, const char *path, char *err, size_t err_size);

/* The same for NAME (one path component) within the open folder DIRFD (borrowed), never following
 * a link at NAME: for files inside a folder that is not the caller's (a run folder's charts/).
 * SHOWN is the path messages name. */
bool atomic_file_open_at(struct atomic_file *af, int dirfd, const char *name, const char *shown,
                         char *err, size_t err_size);

/* When ok: flushes, fsyncs, closes and renames the temporary file over the path. Otherwise, or when
 * a step fails, closes and removes it. Returns whether the path now holds the new content; on a
 * failure of its own "FILE: reason" is in err. */
bool atomic_file_commit(struct atomic_file *af, bool ok, char *err, size_t err_size);

/* For a writer that streams into its temporary file through a descriptor and renames it into
 * place itself: creates PATH.tmp.XXXXXX beside PATH as above (exclusively, unpredictable, never
 * through a link), its path into tmp. Returns the descriptor, or -1 with errno set. */
int atomic_file_create_temp(const char *path, char *tmp, size_t tmp_size);

/* Opens PATH for writing with FLAGS (O_APPEND, O_CREAT, O_TRUNC...), as the files a run streams
 * into are: never through a link, except one to a character device or a FIFO (/dev/full, a pipe),
 * the same rule as above. Returns the descriptor, or -1 with errno set (ELOOP: a link). */
int file_open_for_writing(const char *path, int flags);

/* len bytes of data to path, as above. */
bool atomic_write_file(const char *path, const void *data, size_t len, char *err, size_t err_size);

#endif
