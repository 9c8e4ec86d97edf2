/* controller/shard_queries.c - the query file carried to the shards' agents (shard_queries.h). */
#include "shard_queries.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

bool shard_queries_open(struct shard_queries *q, const char *path, char *err, size_t err_size)
{
	*q = (struct shard_queries){0};
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	const char *why = fd < 0 || fstat(fd, &st) != 0 ? strerror(errno)
	                  : !S_ISREG(st.st_mode)        ? "not a regular file"
	                                                : NULL;
	if (why) {
		snprintf(err, err_size, "--queries %s: %s", path, why);
		if (fd >= 0)
			close(fd);
		return false;
	}
	q->len = (size_t)st.st_size;
	/* mapped, not read: the agents are sent it from the page cache, once per agent */
	q->data = q->len ? mmap(NULL, q->len, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	int map_errno = errno;
	close(fd);
	if (q->data == MAP_FAILED) {
		q->data = NULL;
		snprintf(err, err_size, "--queries %s: %s", path, strerror(map_errno));
		return false;
	}
	if (!sha256_hex_of(q->data ? q->data : "", q->len, q->sha256)) {
		snprintf(err, err_size, "--queries %s: its SHA-256 could not be computed", path);
		shard_queries_close(q);
		return false;
	}
	snprintf(q->named, sizeof(q->named), "sha256:%s", q->sha256);
	return true;
}

void shard_queries_close(struct shard_queries *q)
{
	if (q->data)
		munmap(q->data, q->len);
	*q = (struct shard_queries){0};
}
