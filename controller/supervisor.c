/* controller/supervisor.c - starting, watching and stopping the run's processes (supervisor.h). */
#include "supervisor.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomic_write_file.h"
#include "launch.h"
#include "monotonic.h"
#include "parent_death.h"
#include "proc_stat.h"
#include "proc_stop.h"
#include "run_registry.h"

static double supervisor_now_s(void)
{
	return (double)monotonic_ns() / 1e9;
}

static sigset_t supervisor_signals(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	return set;
}

bool supervisor_init(struct supervisor *s, struct events_log *events, int processes_fd)
{
	memset(s, 0, sizeof(*s));
	s->who = "allocspike-run";
	s->events = events;
	s->processes_fd = processes_fd;
	sigset_t set = supervisor_signals();
	if (sigprocmask(SIG_BLOCK, &set, NULL) != 0)
		return false;
	s->signal_fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	return s->signal_fd >= 0;
}

void supervisor_close(struct supervisor *s)
{
	for (unsigned i = 0; i < s->count; i++)
		proc_target_close(&s->procs[i].target);
	if (s->signal_fd >= 0)
		close(s->signal_fd);
	s->signal_fd = -1;
}

/* In the child, between fork and exec: only async-signal-safe calls. */
static void supervisor_child(const struct plan_process *spec, pid_t controller, int log_fd,
                             int null_fd)
{
	dup2(null_fd, STDIN_FILENO);
	dup2(log_fd, STDOUT_FILENO);
	dup2(log_fd, STDERR_FILENO);
	launch_exec(controller, spec->name, spec->cpus[0] ? &spec->cpu_set : NULL, spec->cpus,
	            (char **)spec->argv);
}

struct supervised *supervisor_start(struct supervisor *s, const struct plan_process *spec)
{
	if (s->count >= SUPERVISOR_MAX_PROCESSES) {
		fprintf(stderr, "%s: %s: more than %d processes in one run\n", s->who, spec->name,
		        SUPERVISOR_MAX_PROCESSES);
		return NULL;
	}
	int log_fd = file_open_for_writing(spec->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC);
	if (log_fd < 0 && errno == ENOENT) {
		/* logs/NAME.log in a new run folder: its folder made once */
		char dir[4096];
		snprintf(dir, sizeof(dir), "%s", spec->log);
		char *slash = strrchr(dir, '/');
		if (slash && slash != dir) {
			*slash = '\0';
			mkdir(dir, 0755);
		}
		log_fd =
		    file_open_for_writing(spec->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC);
	}
	int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (log_fd < 0 || null_fd < 0) {
		fprintf(stderr, "%s: %s: %s: %s\n", s->who, spec->name, spec->log, strerror(errno));
		if (log_fd >= 0)
			close(log_fd);
		if (null_fd >= 0)
			close(null_fd);
		return NULL;
	}
	/* our programs under a wrapper (perf stat) arm the same signal themselves */
	char controller_text[32];
	pid_t controller = getpid();
	snprintf(controller_text, sizeof(controller_text), "%ld", (long)controller);
	setenv(PARENT_DEATH_ENV, controller_text, 1);
	pid_t pid = fork();
	if (pid == 0)
		supervisor_child(spec, controller, log_fd, null_fd);
	int fork_errno = errno;
	close(log_fd);
	close(null_fd);
	if (pid < 0) {
		fprintf(stderr, "%s: %s: fork: %s\n", s->who, spec->name, strerror(fork_errno));
		return NULL;
	}
	struct supervised *p = &s->procs[s->count++];
	memset(p, 0, sizeof(*p));
	p->spec = spec;
	snprintf(p->target.name, sizeof(p->target.name), "%s", spec->name);
	p->target.pid = pid;
	/* our child until reaped, so its PID cannot be reused before its start time is read */
	struct proc_stat st;
	p->target.start_ticks = proc_stat_read(pid, &st) ? st.start_ticks : 0;
	proc_target_open(&p->target);
	if (!processes_file_add(s->processes_fd, spec->name, pid, p->target.start_ticks))
		fprintf(stderr, "%s: processes.tsv: %s: %s\n", s->who, spec->name, strerror(errno));
	if (s->events)
		events_log_add(s->events, spec->name, "started",
		               json_pack("{s:i}", "pid", (int)pid));
	return p;
}

static void supervisor_record_exit(struct supervisor *s, struct supervised *p, int status)
{
	p->status = status;
	if (!s->events)
		return;
	const char *name = p->spec->name;
	pid_t pid = p->target.pid;
	json_t *extra;
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		const char *abbrev = sigabbrev_np(sig);
		extra = json_pack("{s:i, s:s, s:i, s:b}", "signal", sig, "signal_name",
		                  abbrev ? abbrev : "", "pid", (int)pid, "requested", p->asked);
		if (!p->asked) /* a crash: what the controller stopped is no news */
			fprintf(stderr, "%s: %s (pid %ld) exited by signal %s\n", s->who, name,
			        (long)pid, abbrev ? abbrev : "?");
	} else {
		int code = WEXITSTATUS(status);
		extra = json_pack("{s:i, s:i, s:b}", "code", code, "pid", (int)pid, "requested",
		                  p->asked);
		if (code != 0 && !p->asked)
			fprintf(stderr, "%s: %s (pid %ld) exited with code %d\n", s->who, name,
			        (long)pid, code);
	}
	events_log_add(s->events, name, "exited", extra);
}

/* Every process that has ended: what it forked killed while its zombie still holds the PID (so
 * the group cannot be anyone else's), then reaped and its exit recorded. */
static void supervisor_collect_exits(struct supervisor *s)
{
	for (unsigned i = 0; i < s->count; i++) {
		struct supervised *p = &s->procs[i];
		if (p->reaped)
			continue;
		siginfo_t info = {0};
		pid_t pid = p->target.pid;
		if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
		    info.si_pid != pid)
			continue;
		kill(-pid, SIGKILL);
		int status = 0;
		if (waitpid(pid, &status, 0) != pid)
			continue;
		p->reaped = true;
		proc_target_close(&p->target);
		supervisor_record_exit(s, p, status);
	}
}

static void supervisor_read_signals(struct supervisor *s)
{
	struct signalfd_siginfo info;
	while (read(s->signal_fd, &info, sizeof(info)) == (ssize_t)sizeof(info)) {
		int sig = (int)info.ssi_signo;
		if (sig == SIGCHLD)
			continue;
		/* a second signal, even one that came before the stop began, drops the grace */
		if (s->stopping || s->signal) {
			if (!s->hurry)
				fprintf(stderr,
				        "%s: signal during the stop: killing what "
				        "is left at once\n",
				        s->who);
			s->hurry = true;
		} else if (!s->signal) {
			s->signal = sig;
			fprintf(stderr,
			        "%s: interrupted by SIG%s: stopping every process of the "
			        "run\n",
			        s->who, sigabbrev_np(sig));
		}
	}
}

void supervisor_poll(struct supervisor *s, double timeout_s)
{
	struct pollfd fds[SUPERVISOR_MAX_PROCESSES + 1];
	nfds_t n = 0;
	fds[n++] = (struct pollfd){.fd = s->signal_fd, .events = POLLIN};
	/* a pidfd turns readable when its process ends; without pidfds SIGCHLD wakes the poll */
	for (unsigned i = 0; i < s->count; i++)
		if (!s->procs[i].reaped && s->procs[i].target.pidfd >= 0)
			fds[n++] =
			    (struct pollfd){.fd = s->procs[i].target.pidfd, .events = POLLIN};
	int ms = timeout_s <= 0 ? 0 : (int)(timeout_s * 1000 + 0.5);
	poll(fds, n, ms);
	supervisor_read_signals(s);
	supervisor_collect_exits(s);
}

/* "ready ADDR:PORT" in path (its first such line), ADDR:PORT into addr. */
static bool supervisor_ready_line(const char *path, char *addr, size_t addr_size)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	char line[512];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f))
		if (strncmp(line, "ready ", 6) == 0 && strchr(line, '\n')) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(addr, addr_size, "%s", line + 6);
			found = true;
		}
	fclose(f);
	return found;
}

enum supervisor_ready supervisor_ready_now(struct supervised *p, char *addr, size_t addr_size)
{
	addr[0] = '\0';
	if (!p->spec->ready_file[0])
		return p->reaped ? READY_EXITED : READY_YES;
	if (supervisor_ready_line(p->spec->ready_file, addr, addr_size))
		return READY_YES;
	return p->reaped ? READY_EXITED : READY_NOT_YET;
}

enum supervisor_ready supervisor_wait_ready(struct supervisor *s, struct supervised *p, char *addr,
                                            size_t addr_size)
{
	double deadline = supervisor_now_s() + p->spec->ready_timeout_s;
	for (;;) {
		enum supervisor_ready now = supervisor_ready_now(p, addr, addr_size);
		if (now != READY_NOT_YET)
			return now;
		if (s->signal)
			return READY_SIGNAL;
		if (supervisor_now_s() >= deadline)
			return READY_TIMEOUT;
		supervisor_poll(s, 0.05);
	}
}

static void supervisor_wait(void *ctx, double timeout_s)
{
	supervisor_poll(ctx, timeout_s);
}

static struct proc_stop_waiter supervisor_waiter(struct supervisor *s)
{
	return (struct proc_stop_waiter){.wait = supervisor_wait, .ctx = s, .hurry = &s->hurry};
}

void supervisor_stop_some(struct supervisor *s, struct supervised **ps, size_t count,
                          double grace_s)
{
	struct proc_target *targets[SUPERVISOR_MAX_PROCESSES];
	size_t n = 0;
	for (size_t i = 0; i < count && n < SUPERVISOR_MAX_PROCESSES; i++) {
		if (ps[i]->reaped)
			continue;
		ps[i]->asked = true;
		targets[n++] = &ps[i]->target;
	}
	if (n == 0)
		return;
	struct proc_stop_waiter w = supervisor_waiter(s);
	proc_stop_targets(targets, n, grace_s, &w);
	supervisor_collect_exits(s);
}

void supervisor_stop(struct supervisor *s, struct supervised *p, double grace_s)
{
	supervisor_stop_some(s, &p, 1, grace_s);
}

void supervisor_stop_all(struct supervisor *s, double grace_s)
{
	/* the first signal, if it came before, interrupts the run and is no reason to hurry */
	supervisor_read_signals(s);
	s->stopping = true;
	for (unsigned i = s->count; i-- > 0;)
		supervisor_stop(s, &s->procs[i], grace_s);
}

bool supervisor_leftovers_wait(struct supervisor *s, char *text, size_t size)
{
	struct proc_target *targets[SUPERVISOR_MAX_PROCESSES];
	for (unsigned i = 0; i < s->count; i++)
		targets[i] = &s->procs[i].target;
	struct proc_stop_waiter w = supervisor_waiter(s);
	return proc_stop_leftovers(targets, s->count, &w, text, size);
}
