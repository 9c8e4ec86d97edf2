/* common/bearer_token.c - the controller's and agents' shared token (bearer_token.h). */
#include "bearer_token.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool bearer_token_load(const char *path, char *token, size_t size, char *err, size_t err_size)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		snprintf(err, err_size, "%s: %s", path,
		         errno == ELOOP ? "a symbolic link (give the file itself)"
		                        : strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	if (!S_ISREG(st.st_mode) || (st.st_mode & 077) != 0) {
		if (!S_ISREG(st.st_mode))
			snprintf(err, err_size, "%s: not a regular file", path);
		else
			snprintf(err, err_size,
			         "%s: mode %04o lets others read the token; it must be 0600 or "
			         "stricter (chmod 600 %s)",
			         path, (unsigned)(st.st_mode & 07777), path);
		close(fd);
		return false;
	}
	char buf[BEARER_TOKEN_MAX + 2];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return false;
	}
	buf[n] = '\0';
	size_t len = strcspn(buf, "\r\n");
	bool visible = len > 0 && len <= BEARER_TOKEN_MAX && len < size;
	for (size_t i = 0; visible && i < len; i++)
		visible = buf[i] > ' ' && buf[i] < 127;
	if (!visible) {
		snprintf(err, err_size,
		         "%s: the first line must be the token, 1 to %d visible ASCII characters "
		         "(no space)",
		         path, BEARER_TOKEN_MAX);
		return false;
	}
	memcpy(token, buf, len);
	token[len] = '\0';
	return true;
}

bool bearer_token_matches(const char *header, const char *token)
{
	static const char scheme[] = "Bearer ";
	if (!header || strncmp(header, scheme, sizeof(scheme) - 1) != 0)
		return false;
	const char *given = header + sizeof(scheme) - 1;
	size_t want = strlen(token), got = strlen(given);
	/* every byte of the token compared, whatever differs first */
	unsigned char diff = want != got;
	for (size_t i = 0; i < want; i++)
		diff |= (unsigned char)token[i] ^ (unsigned char)(i < got ? given[i] : 0);
	return diff == 0;
}
