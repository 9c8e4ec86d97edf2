/* controller/proc_target.c - a process known by PID and start time (proc_target.h). */
#include "proc_target.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "identifier.h"
#include "proc_group.h"
#include "proc_stat.h"

/* Through the system calls: a C library without the wrappers still runs on a kernel with them. */
static int target_pidfd_open(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

static int target_pidfd_signal(int pidfd, int sig)
{
#ifdef SYS_pidfd_send_signal
	return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
#else
	(void)pidfd;
	(void)sig;
	errno = ENOSYS;
	return -1;
#endif
}

static void target_say_other(const struct proc_target *t)
{
	fprintf(stderr,
	        "allocspike-run: %s: pid %ld is no longer the process the run started; not "
	        "signalled\n",
	        t->name, (long)t->pid);
}

bool proc_target_open(struct proc_target *t)
{
	t->pidfd = target_pidfd_open(t->pid);
	/* checked after the open: a PID reused before it fails here, none can be after it */
	if (!proc_stat_same(t->pid, t->start_ticks)) {
		proc_target_close(t);
		return false;
	}
	return true;
}

void proc_target_close(struct proc_target *t)
{
	if (t->pidfd >= 0)
		close(t->pidfd);
	t->pidfd = -1;
}

bool proc_target_ended(const struct proc_target *t)
{
	struct proc_stat f;
	return !proc_stat_read(t->pid, &f) || f.start_ticks != t->start_ticks || f.state == 'Z' ||
	       f.state == 'X';
}

bool proc_target_signal(const struct proc_target *t, int sig)
{
	if (!proc_stat_same(t->pid, t->start_ticks)) {
		target_say_other(t);
		return false;
	}
	kill(-t->pid, sig);
	if (t->pidfd < 0 || target_pidfd_signal(t->pidfd, sig) != 0)
		kill(t->pid, sig);
	return true;
}

bool proc_target_signal_alone(const struct proc_target *t, int sig)
{
	if (!proc_stat_same(t->pid, t->start_ticks)) {
		target_say_other(t);
		return false;
	}
	if (t->pidfd < 0 || target_pidfd_signal(t->pidfd, sig) != 0)
		kill(t->pid, sig);
	return true;
}

bool proc_target_left(const struct proc_target *t)
{
	pid_t member;
	return !proc_target_ended(t) || proc_group_members(t->pid, t->start_ticks, &member, 1) > 0;
}

bool proc_target_parse(const char *text, struct proc_target *t)
{
	memset(t, 0, sizeof(*t));
	t->pidfd = -1;
	const char *colon = strchr(text, ':');
	if (!colon || colon == text || (size_t)(colon - text) >= sizeof(t->name))
		return false;
	snprintf(t->name, sizeof(t->name), "%.*s", (int)(colon - text), text);
	if (!identifier_valid(t->name[0] == '_' ? t->name + 1 : t->name, NULL, 0))
		return false;
	char *end;
	errno = 0;
	long pid = strtol(colon + 1, &end, 10);
	if (errno || end == colon + 1 || *end != ':' || pid <= 1)
		return false;
	const char *start = end + 1;
	t->start_ticks = strtoull(start, &end, 10);
	if (end == start || *end || *start == '-')
		return false;
	t->pid = (pid_t)pid;
	return true;
}
