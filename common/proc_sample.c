/* common/proc_sample.c - a process's memory and CPU from /proc (status, stat, smaps_rollup),
 * reuse-safe. */
#include "proc_sample.h"

#include "proc_stat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int proc_open(pid_t pid, const char *name)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/%s", (long)pid, name);
	return open(path, O_RDONLY | O_CLOEXEC);
}

/* Reads the whole file from the start; -1 when the process is gone (ESRCH) or unreadable. */
static ssize_t proc_read(int fd, char *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return n;
}

static long status_field_kb(const char *text, const char *key)
{
	const char *p = strstr(text, key);
	if (!p)
		return -1;
	return strtol(p + strlen(key), NULL, 10);
}

bool proc_watch_open(struct proc_watch *w, pid_t pid, char *err, size_t err_size)
{
	memset(w, 0, sizeof(*w));
	w->pid = pid;
	w->status_fd = w->stat_fd = w->smaps_fd = -1;
	char buf[1024];
	struct proc_stat f;
	w->stat_fd = proc_open(pid, "stat");
	w->status_fd = proc_open(pid, "status");
	if (w->stat_fd < 0 || w->status_fd < 0 || proc_read(w->stat_fd, buf, sizeof(buf)) < 0 ||
	    !proc_stat_parse(buf, &f)) {
		if (err)
			snprintf(err, err_size, "pid %ld: no such process (/proc/%ld: %s)",
			         (long)pid, (long)pid, strerror(errno ? errno : ESRCH));
		proc_watch_close(w);
		return false;
	}
	w->start_ticks = f.start_ticks;
	w->smaps_fd =
	    proc_open(pid, "smaps_rollup"); /* absent before Linux 4.14: Pss stays empty */
	return true;
}

enum proc_sample_result proc_watch_sample(struct proc_watch *w, bool with_pss,
                                          struct proc_sample *out)
{
	out->rss_kb = out->anon_kb = out->hwm_kb = out->pss_kb = -1;
	out->cpu_user_s = out->cpu_sys_s = 0;
	if (w->gone)
		return PROC_SAMPLE_GONE;
	static long ticks;
	if (!ticks)
		ticks = sysconf(_SC_CLK_TCK) > 0 ? sysconf(_SC_CLK_TCK) : 100;
	char buf[4096];
	struct proc_stat f;
	if (proc_read(w->stat_fd, buf, sizeof(buf)) < 0 || !proc_stat_parse(buf, &f) ||
	    f.start_ticks != w->start_ticks || f.state == 'Z' || f.state == 'X') {
		w->gone = true;
		return PROC_SAMPLE_GONE;
	}
	out->cpu_user_s = (double)f.utime / (double)ticks;
	out->cpu_sys_s = (double)f.stime / (double)ticks;
	if (proc_read(w->status_fd, buf, sizeof(buf)) < 0) {
		w->gone = true;
		return PROC_SAMPLE_GONE;
	}
	out->rss_kb = status_field_kb(buf, "\nVmRSS:");
	out->anon_kb = status_field_kb(buf, "\nRssAnon:");
	out->hwm_kb = status_field_kb(buf, "\nVmHWM:");
	if (with_pss && w->smaps_fd >= 0 && proc_read(w->smaps_fd, buf, sizeof(buf)) >= 0)
		out->pss_kb = status_field_kb(buf, "\nPss:");
	return PROC_SAMPLE_OK;
}

long proc_self_anon_kb(void)
{
	char buf[2048];
	int fd = proc_open(getpid(), "status");
	if (fd < 0)
		return -1;
	long kb = proc_read(fd, buf, sizeof(buf)) < 0 ? -1 : status_field_kb(buf, "\nRssAnon:");
	close(fd);
	return kb;
}

void proc_watch_close(struct proc_watch *w)
{
	if (w->status_fd >= 0)
		close(w->status_fd);
	if (w->stat_fd >= 0)
		close(w->stat_fd);
	if (w->smaps_fd >= 0)
		close(w->smaps_fd);
	w->status_fd = w->stat_fd = w->smaps_fd = -1;
}
