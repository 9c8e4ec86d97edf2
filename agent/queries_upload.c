/* agent/queries_upload.c - the query file carried to a shard's agent (queries_upload.h). */
#include "queries_upload.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_write_file.h"

/* dir/queries-DIGEST.txt: the digest is hex only, so the name stays inside dir. */
static void queries_upload_path(const char *dir, const char *digest, char *path, size_t size)
{
	snprintf(path, size, "%s/queries-%s.txt", dir, digest);
}

bool queries_upload_named(const char *queries)
{
	size_t n = strlen(QUERIES_UPLOAD_PREFIX);
	return strncmp(queries, QUERIES_UPLOAD_PREFIX, n) == 0 && sha256_hex_valid(queries + n);
}

bool queries_upload_take(const char *dir, const char *named, const void *body, size_t len,
                         int *status, char *err, size_t err_size)
{
	char got[SHA256_HEX_LEN + 1], path[4200];
	*status = 400;
	if (!sha256_hex_valid(named)) {
		snprintf(err, err_size,
		         "%s: the body's SHA-256, %d lowercase hex digits, is required",
		         SHA256_HEX_HEADER, SHA256_HEX_LEN);
		return false;
	}
	*status = 500;
	if (!sha256_hex_of(body, len, got)) {
		snprintf(err, err_size, "the body's SHA-256 could not be computed");
		return false;
	}
	if (strcmp(got, named) != 0) {
		*status = 400;
		snprintf(err, err_size,
		         "the body's SHA-256 is %s, not %s as %s says: the file was not received "
		         "whole; nothing kept",
		         got, named, SHA256_HEX_HEADER);
		return false;
	}
	queries_upload_path(dir, got, path, sizeof(path));
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == len) {
		*status = 200; /* the same digest, the same file: kept already */
		return true;
	}
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		snprintf(err, err_size, "--shard-dir %s: %s", dir, strerror(errno));
		return false;
	}
	if (!atomic_write_file(path, body, len, err, err_size))
		return false;
	*status = 201;
	return true;
}

bool queries_upload_resolve(const char *dir, const char *queries, char *path, size_t path_size,
                            char *err, size_t err_size)
{
	if (!queries_upload_named(queries)) {
		snprintf(path, path_size, "%s", queries);
		return true;
	}
	const char *digest = queries + strlen(QUERIES_UPLOAD_PREFIX);
	queries_upload_path(dir, digest, path, path_size);
	if (access(path, R_OK) == 0)
		return true;
	snprintf(err, err_size,
	         "no query file with SHA-256 %s was sent to this agent (PUT /queries before the "
	         "plan)",
	         digest);
	return false;
}
