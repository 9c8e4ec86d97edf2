/* agent/record.c - every read as one JSON line, and the record file of them (record.h). */
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_write_file.h"
#include "metrics.h"

size_t record_format(char *buf, size_t size, uint64_t seq, const struct agent_sample *a)
{
	size_t len = (size_t)snprintf(
	    buf, size, "{\"seq\": %" PRIu64 ", \"t_start_ns\": %" PRIu64 ", \"t_end_ns\": %" PRIu64,
	    seq, a->read_start_ns, a->read_end_ns);
	for (size_t i = 0; i < AGENT_METRICS_COUNT && len < size; i++) {
		double v = AGENT_METRICS[i].value(a);
		if (!isnan(v))
			len += (size_t)snprintf(buf + len, size - len, ", \"%s\": %.16g",
			                        AGENT_METRICS[i].key, v);
	}
	if (len < size)
		len += (size_t)snprintf(buf + len, size - len, "}\n");
	return len;
}

/* Lines in the regular file at path (0 for none, or a device); *cut when the last has no end. */
static uint64_t record_count_lines(const char *path, bool *cut)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	char buf[65536];
	ssize_t n;
	uint64_t lines = 0;
	char last = '\n';
	while (fd >= 0 && (n = read(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++)
			lines += buf[i] == '\n';
		last = buf[n - 1];
	}
	if (fd >= 0)
		close(fd);
	*cut = last != '\n';
	return lines + *cut;
}

int record_open(const char *path, uint64_t *next_seq)
{
	int fd = file_open_for_writing(path, O_CREAT | O_APPEND);
	bool cut = false;
	*next_seq = fd >= 0 ? record_count_lines(path, &cut) : 0;
	if (fd >= 0 && cut && write(fd, "\n", 1) != 1) {
		int saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	return fd;
}

bool record_read_from(const char *path, uint64_t from, char **text, size_t *len, char *err,
                      size_t err_size)
{
	FILE *in = fopen(path, "re");
	FILE *out = in ? open_memstream(text, len) : NULL;
	if (!out) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		if (in)
			fclose(in);
		return false;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	for (uint64_t index = 0; (n = getline(&line, &cap, in)) > 0; index++)
		if (index >= from && line[n - 1] == '\n')
			fwrite(line, 1, (size_t)n, out);
	free(line);
	bool ok = !ferror(in);
	if (!ok)
		snprintf(err, err_size, "%s: read error", path);
	fclose(in);
	if (fclose(out) != 0 && ok) {
		snprintf(err, err_size, "out of memory");
		ok = false;
	}
	if (!ok) {
		free(*text);
		*text = NULL;
	}
	return ok;
}
