/* controller/proc_group.c - a process group's members from /proc (proc_group.h). */
#include "proc_group.h"

#include <dirent.h>
#include <stdlib.h>

#include "proc_stat.h"

size_t proc_group_members(pid_t pgid, unsigned long long start_ticks, pid_t *out, size_t max)
{
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		struct proc_stat f;
		if (*end || pid <= 0 || !proc_stat_read((pid_t)pid, &f))
			continue;
		/* a zombie is dead already: it only waits for a parent that may never reap it */
		if (f.pgrp != (long)pgid || f.start_ticks < start_ticks || f.state == 'Z' ||
		    f.state == 'X')
			continue;
		if (n < max)
			out[n] = (pid_t)pid;
		n++;
	}
	closedir(d);
	return n;
}

pid_t proc_group_child(pid_t leader, unsigned long long start_ticks)
{
	pid_t members[256];
	size_t n = proc_group_members(leader, start_ticks, members, 256);
	for (size_t i = 0; i < n && i < 256; i++) {
		struct proc_stat f;
		if (members[i] != leader && proc_stat_read(members[i], &f) &&
		    f.ppid == (long)leader)
			return members[i];
	}
	return 0;
}

size_t proc_group_stale(pid_t pid, unsigned long long start_ticks, pid_t *out, size_t max)
{
	struct proc_stat f;
	if (proc_stat_read(pid, &f)) {
		if (f.start_ticks != start_ticks)
			return 0; /* reused: another process's now */
		/* the leader first, then the others of its group */
		size_t n = 0;
		if (max > 0)
			out[n] = pid;
		n++;
		pid_t members[256];
		size_t m = proc_group_members(pid, start_ticks, members, 256);
		for (size_t i = 0; i < m && i < 256; i++) {
			if (members[i] == pid)
				continue;
			if (n < max)
				out[n] = members[i];
			n++;
		}
		return n;
	}
	return proc_group_members(pid, start_ticks, out, max);
}
