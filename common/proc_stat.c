/* common/proc_stat.c - fields of /proc/PID/stat (proc_stat.h). */
#include "proc_stat.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool proc_stat_parse(const char *text, struct proc_stat *f)
{
	const char *p = strrchr(text, ')');
	if (!p)
		return false;
	/* fields from 3 on; priority and nice may be negative, so every field is skipped as a word
	 * rather than scanned as a number */
	const char *q = p + 1;
	int field = 2;
	memset(f, 0, sizeof(*f));
	while (*q && field < 22) {
		while (*q == ' ')
			q++;
		field++;
		const char *end = q;
		while (*end && *end != ' ')
			end++;
		if (field == 3)
			f->state = *q;
		else if (field == 4)
			f->ppid = strtol(q, NULL, 10);
		else if (field == 5)
			f->pgrp = strtol(q, NULL, 10);
		else if (field == 14)
			f->utime = strtoull(q, NULL, 10);
		else if (field == 15)
			f->stime = strtoull(q, NULL, 10);
		else if (field == 22)
			f->start_ticks = strtoull(q, NULL, 10);
		q = end;
	}
	return field == 22 && f->state;
}

bool proc_stat_read(pid_t pid, struct proc_stat *f)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return proc_stat_parse(buf, f);
}

bool proc_stat_same(pid_t pid, unsigned long long start_ticks)
{
	struct proc_stat f;
	return pid > 0 && proc_stat_read(pid, &f) && f.start_ticks == start_ticks;
}
