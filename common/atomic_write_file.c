/* common/atomic_write_file.c - temporary file, fsync, rename (atomic_write_file.h). */
#include "atomic_write_file.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static bool fail(char *err, size_t err_size, const char *file, const char *what)
{
	snprintf(err, err_size, "%s: %s: %s", file, what, strerror(errno));
	return false;
}

bool atomic_file_open(struct atomic_file *af, const char *path, char *err, size_t err_size)
{
	af->f = NULL;
	if ((size_t)snprintf(af->path, sizeof(af->path), "%s", path) >= sizeof(af->path)) {
		errno = ENAMETOOLONG;
		return fail(err, err_size, path, "cannot write");
	}
	/* The pid keeps two writers of the same path (a test and a run) off each other's file. */
	snprintf(af->tmp, sizeof(af->tmp), "%s.tmp.%ld", path, (long)getpid());
	af->f = fopen(af->tmp, "w");
	return af->f ? true : fail(err, err_size, af->tmp, "cannot write");
}

bool atomic_file_commit(struct atomic_file *af, bool ok, char *err, size_t err_size)
{
	if (!af->f)
		return false;
	if (ok && (fflush(af->f) != 0 || fsync(fileno(af->f)) != 0))
		ok = fail(err, err_size, af->tmp, "cannot write");
	if (fclose(af->f) != 0 && ok)
		ok = fail(err, err_size, af->tmp, "cannot write");
	af->f = NULL;
	if (ok && rename(af->tmp, af->path) != 0)
		ok = fail(err, err_size, af->path, "cannot rename into place");
	if (!ok)
		unlink(af->tmp);
	return ok;
}

bool atomic_write_file(const char *path, const void *data, size_t len, char *err, size_t err_size)
{
	struct atomic_file af;
	if (!atomic_file_open(&af, path, err, err_size))
		return false;
	bool ok = fwrite(data, 1, len, af.f) == len;
	if (!ok)
		fail(err, err_size, af.tmp, "cannot write");
	return atomic_file_commit(&af, ok, err, err_size) && ok;
}
