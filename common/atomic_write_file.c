/* common/atomic_write_file.c - an unpredictable temporary file, fsync, rename; nothing written
 * through a link (atomic_write_file.h). */
#include "atomic_write_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static bool fail(char *err, size_t err_size, const char *file, const char *what)
{
	snprintf(err, err_size, "%s: %s: %s", file, what, strerror(errno));
	return false;
}

static bool refuse(char *err, size_t err_size, const char *file, const char *found)
{
	snprintf(err, err_size,
	         "%s: %s; not replaced (only a regular file, a character device or a "
	         "FIFO is written)",
	         file, found);
	errno = EEXIST;
	return false;
}

static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode)    ? "is a folder"
	       : S_ISBLK(mode)  ? "is a block device"
	       : S_ISSOCK(mode) ? "is a socket"
	       : S_ISLNK(mode)  ? "is a symbolic link"
	                        : "is not a regular file";
}

/* Six letters a planted link cannot guess: from the kernel's random source, or, if it has none
 * (an old kernel), the clock and the pid; O_EXCL makes a collision a retry, never a write through.
 */
static void random_suffix(char out[7])
{
	static const char letters[] =
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char bytes[6];
	if (getrandom(bytes, sizeof(bytes), GRND_NONBLOCK) != (ssize_t)sizeof(bytes)) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		unsigned long x = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16) ^
		                  (unsigned long)ts.tv_sec;
		for (size_t i = 0; i < sizeof(bytes); i++, x = x * 6364136223846793005UL + 1)
			bytes[i] = (unsigned char)(x >> 33);
	}
	for (size_t i = 0; i < 6; i++)
		out[i] = letters[bytes[i] % (sizeof(letters) - 1)];
	out[6] = 0;
}

/* Creates NAME.tmp.XXXXXX in dirfd, exclusively and never through a link; its name into tmp.
 * Returns the descriptor, or -1 with errno set. */
static int temp_create_at(int dirfd, const char *name, char *tmp, size_t tmp_size)
{
	for (int attempt = 0; attempt < 100; attempt++) {
		char suffix[7];
		random_suffix(suffix);
		/* the name kept short enough that NAME.tmp.XXXXXX fits any file system */
		snprintf(tmp, tmp_size, "%.200s.tmp.%s", name, suffix);
		int fd =
		    openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

static bool device_or_fifo(mode_t mode)
{
	return S_ISCHR(mode) || S_ISFIFO(mode);
}

/* Opens the character device or FIFO at NAME in dirfd for writing with FLAGS, through a link there
 * only when follow. The descriptor; or -1 with errno: ENODEV when NAME is no such file (a link not
 * followed is none, nor is one whose target cannot be looked at), ELOOP when what was opened is
 * not what was looked at (replaced in between: refused rather than written somewhere else), else
 * the open's own. */
static int device_open_at(int dirfd, const char *name, int flags, bool follow)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, follow ? 0 : AT_SYMLINK_NOFOLLOW) != 0 ||
	    !device_or_fifo(st.st_mode)) {
		errno = ENODEV;
		return -1;
	}
	int fd = openat(dirfd, name,
	                flags | O_WRONLY | O_CLOEXEC | O_NOCTTY | (follow ? 0 : O_NOFOLLOW));
	if (fd >= 0 && (fstat(fd, &st) != 0 || !device_or_fifo(st.st_mode))) {
		close(fd);
		errno = ELOOP;
		return -1;
	}
	return fd;
}

static bool atomic_file_start(struct atomic_file *af, bool follow_device_link, char *err,
                              size_t err_size)
{
	struct stat st;
	bool found = fstatat(af->dirfd, af->name, &st, AT_SYMLINK_NOFOLLOW) == 0;
	if (!found && errno != ENOENT)
		return fail(err, err_size, af->path, "cannot write");
	if (found && !S_ISREG(st.st_mode)) {
		/* a device or FIFO is written in place; anything else there is refused */
		int fd = device_open_at(af->dirfd, af->name, 0,
		                        S_ISLNK(st.st_mode) && follow_device_link);
		if (fd < 0 && errno == ENODEV)
			return refuse(err, err_size, af->path, file_kind(st.st_mode));
		if (fd < 0 || !(af->f = fdopen(fd, "w"))) {
			if (fd >= 0)
				close(fd);
			return fail(err, err_size, af->path, "cannot write");
		}
		af->in_place = true;
		return true;
	}
	int fd = temp_create_at(af->dirfd, af->name, af->tmp, sizeof(af->tmp));
	if (fd < 0)
		return fail(err, err_size, af->path, "cannot create a temporary file");
	af->f = fdopen(fd, "w");
	if (!af->f) {
		close(fd);
		unlinkat(af->dirfd, af->tmp, 0);
		return fail(err, err_size, af->path, "cannot write");
	}
	return true;
}

static void atomic_file_reset(struct atomic_file *af)
{
	af->f = NULL;
	af->dirfd = -1;
	af->own_dirfd = false;
	af->in_place = false;
	af->name[0] = af->tmp[0] = af->path[0] = 0;
}

static bool name_fits(struct atomic_file *af, const char *name, char *err, size_t err_size)
{
	if (!*name || strchr(name, '/') || strlen(name) >= sizeof(af->name)) {
		errno = EINVAL;
		return fail(err, err_size, af->path, "cannot write (not a file name)");
	}
	snprintf(af->name, sizeof(af->name), "%s", name);
	return true;
}

bool atomic_file_open_at(struct atomic_file *af, int dirfd, const char *name, const char *shown,
                         char *err, size_t err_size)
{
	atomic_file_reset(af);
	snprintf(af->path, sizeof(af->path), "%s", shown);
	if (!name_fits(af, name, err, err_size))
		return false;
	af->dirfd = dirfd;
	return atomic_file_start(af, false, err, err_size);
}

/* PATH's last component: the file's name within its folder. */
static const char *path_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* Opens the folder PATH names a file in, as given (the caller's folder: links followed). The
 * descriptor, or -1 with errno set. */
static int path_dir_open(const char *path)
{
	const char *name = path_name(path);
	/* "name": this folder; "/name": the root; "a/b/name": "a/b" */
	size_t len = name == path ? 1 : name - path == 1 ? 1 : (size_t)(name - path - 1);
	char dir[4096];
	if (len >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	snprintf(dir, sizeof(dir), "%.*s", (int)len, name == path ? "." : path);
	return open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

bool atomic_file_open(struct atomic_file *af, const char *path, char *err, size_t err_size)
{
	atomic_file_reset(af);
	if ((size_t)snprintf(af->path, sizeof(af->path), "%s", path) >= sizeof(af->path)) {
		errno = ENAMETOOLONG;
		return fail(err, err_size, path, "cannot write");
	}
	if (!name_fits(af, path_name(path), err, err_size))
		return false;
	af->dirfd = path_dir_open(path);
	if (af->dirfd < 0)
		return fail(err, err_size, af->path, "cannot write");
	af->own_dirfd = true;
	if (atomic_file_start(af, true, err, err_size))
		return true;
	int e = errno;
	close(af->dirfd);
	af->dirfd = -1;
	errno = e;
	return false;
}

int file_open_for_writing(const char *path, int flags)
{
	int fd = open(path, flags | O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0666);
	if (fd >= 0 || errno != ELOOP)
		return fd;
	/* a link: followed only to a device or FIFO, which is opened as it is */
	fd = device_open_at(AT_FDCWD, path, flags & ~(O_CREAT | O_TRUNC | O_EXCL), true);
	if (fd < 0 && errno == ENODEV)
		errno = ELOOP;
	return fd;
}

int atomic_file_create_temp(const char *path, char *tmp, size_t tmp_size)
{
	const char *name = path_name(path);
	if (!*name || strlen(name) >= 256) {
		errno = ENAMETOOLONG;
		return -1;
	}
	int dirfd = path_dir_open(path);
	if (dirfd < 0)
		return -1;
	char tmp_name[256];
	int fd = temp_create_at(dirfd, name, tmp_name, sizeof(tmp_name));
	int e = errno;
	close(dirfd);
	errno = e;
	/* the temporary file's path: PATH's folder part as given, then its name */
	if (fd >= 0 && (size_t)snprintf(tmp, tmp_size, "%.*s%s", (int)(name - path), path,
	                                tmp_name) >= tmp_size) {
		close(fd);
		errno = ENAMETOOLONG;
		return -1;
	}
	return fd;
}

bool atomic_file_commit(struct atomic_file *af, bool ok, char *err, size_t err_size)
{
	if (!af->f)
		return false;
	if (ok && fflush(af->f) != 0)
		ok = fail(err, err_size, af->path, "cannot write");
	if (ok && !af->in_place && fsync(fileno(af->f)) != 0)
		ok = fail(err, err_size, af->path, "cannot write");
	if (fclose(af->f) != 0 && ok)
		ok = fail(err, err_size, af->path, "cannot write");
	af->f = NULL;
	if (!af->in_place) {
		if (ok && renameat(af->dirfd, af->tmp, af->dirfd, af->name) != 0)
			ok = fail(err, err_size, af->path, "cannot rename into place");
		if (!ok)
			unlinkat(af->dirfd, af->tmp, 0);
	}
	if (af->own_dirfd)
		close(af->dirfd);
	af->dirfd = -1;
	return ok;
}

bool atomic_write_file(const char *path, const void *data, size_t len, char *err, size_t err_size)
{
	struct atomic_file af;
	if (!atomic_file_open(&af, path, err, err_size))
		return false;
	bool ok = fwrite(data, 1, len, af.f) == len;
	if (!ok)
		fail(err, err_size, af.path, "cannot write");
	return atomic_file_commit(&af, ok, err, err_size) && ok;
}
