/* controller/run_registry.c - processes.tsv, the state folder and a killed run's leftovers
 * (run_registry.h). */
#include "run_registry.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic_write_file.h"
#include "json_file.h"
#include "proc_group.h"
#include "proc_stat.h"
#include "processes_file.h"

/* mkdir -p, new folders mode 0700. */
static bool registry_mkdirs(const char *path)
{
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0700) != 0 && errno != EEXIST)
			return false;
		*p = '/';
	}
	return mkdir(buf, 0700) == 0 || errno == EEXIST;
}

/* Ours, a folder, no link, writable by no one else. */
static bool registry_dir_private(const char *path, char *err, size_t err_size)
{
	struct stat st;
	if (lstat(path, &st) != 0) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return false;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		snprintf(err, err_size,
		         "%s: not a folder of ours alone (a link, another owner, or "
		         "writable by others)",
		         path);
		return false;
	}
	return true;
}

bool run_registry_dir(char *out, size_t out_size, char *err, size_t err_size)
{
	const char *given = getenv("ALLOCSPIKE_STATE_DIR");
	char parent[4096] = "";
	if (given && *given) {
		snprintf(out, out_size, "%s", given);
	} else {
		const char *base = getenv("XDG_RUNTIME_DIR");
		if (!base || !*base)
			base = getenv("TMPDIR");
		if (!base || !*base)
			base = "/tmp";
		snprintf(parent, sizeof(parent), "%s/allocspike-%lu", base,
		         (unsigned long)getuid());
		snprintf(out, out_size, "%s/runs", parent);
	}
	if (!registry_mkdirs(out)) {
		snprintf(err, err_size, "%s: %s", out, strerror(errno));
		return false;
	}
	return registry_dir_private(out, err, err_size) &&
	       (!*parent || registry_dir_private(parent, err, err_size));
}

bool run_registry_add(const char *state, pid_t owner, const char *run_dir, char *err,
                      size_t err_size)
{
	char path[4200], text[4200];
	snprintf(path, sizeof(path), "%s/%ld", state, (long)owner);
	int n = snprintf(text, sizeof(text), "%s\n", run_dir);
	return atomic_write_file(path, text, (size_t)n, err, err_size);
}

void run_registry_remove(const char *state, pid_t owner)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%ld", state, (long)owner);
	unlink(path);
}

int processes_file_create(const char *run_dir, char *err, size_t err_size)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/processes.tsv", run_dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return -1;
	}
	static const char header[] = "name\tpid\tstart_ticks\n";
	if (write(fd, header, sizeof(header) - 1) != (ssize_t)(sizeof(header) - 1)) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

bool processes_file_add(int fd, const char *name, pid_t pid, unsigned long long start_ticks)
{
	char line[256];
	int n = snprintf(line, sizeof(line), "%s\t%ld\t%llu\n", name, (long)pid, start_ticks);
	return n > 0 && (size_t)n < sizeof(line) && write(fd, line, (size_t)n) == n;
}

/* run.json of a killed run: failed, while it still says running. */
static void registry_mark_failed(const char *run_dir)
{
	char path[4200], err[4400], ended[32];
	snprintf(path, sizeof(path), "%s/run.json", run_dir);
	if (access(path, F_OK) != 0)
		return;
	json_t *run = json_file_load(path, err, sizeof(err));
	const char *status = json_string_value(json_object_get(run, "status"));
	if (status && strcmp(status, "running") == 0) {
		time_t now = time(NULL);
		struct tm tm;
		strftime(ended, sizeof(ended), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
		json_object_set_new(run, "status", json_string("failed"));
		json_object_set_new(run, "ended", json_string(ended));
		json_object_set_new(run, "failure",
		                    json_string("the scenario was killed (found by a later run)"));
		if (!json_file_write_atomic(path, run, err, sizeof(err)))
			fprintf(stderr, "allocspike-run: %s\n", err);
	}
	json_decref(run);
}

/* One killed run's processes.tsv: its owner gone? then its processes stopped into stopped. */
static bool registry_stop_leftovers(const char *run_dir, json_t *stopped)
{
	static struct proc_target rows[256];
	bool owner_alive;
	long count = processes_file_read(run_dir, rows, 256, &owner_alive);
	if (count < 0)
		return true; /* nothing recorded: nothing to stop */
	if (owner_alive)
		return false; /* another run in progress */
	for (long i = 0; i < count; i++) {
		pid_t members[256];
		size_t n = proc_group_stale(rows[i].pid, rows[i].start_ticks, members, 256);
		for (size_t j = 0; j < n && j < 256; j++) {
			if (kill(members[j], SIGKILL) != 0)
				continue;
			char text[160];
			snprintf(text, sizeof(text), "%.64s:%ld", rows[i].name, (long)members[j]);
			json_array_append_new(stopped, json_string(text));
		}
	}
	return true;
}

void run_registry_remove_ctl_dir(int at_fd, const char *name)
{
	int dfd = openat(at_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *ctl = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *f;
	while (ctl && (f = readdir(ctl)) != NULL)
		if (strcmp(f->d_name, ".") != 0 && strcmp(f->d_name, "..") != 0)
			unlinkat(dfd, f->d_name, 0);
	if (ctl)
		closedir(ctl);
	else if (dfd >= 0)
		close(dfd);
	unlinkat(at_fd, name, AT_REMOVEDIR);
}

/* The control folders of the killed run owner (STATE/ctl-OWNER.*) removed. */
static void registry_remove_ctl(const char *state, const char *owner)
{
	char prefix[300];
	snprintf(prefix, sizeof(prefix), "ctl-%s.", owner);
	DIR *d = opendir(state);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL)
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
			run_registry_remove_ctl_dir(dirfd(d), e->d_name);
	if (d)
		closedir(d);
}

unsigned run_registry_clean_stale(const char *state, run_registry_stale_fn found, void *ctx)
{
	DIR *d = opendir(state);
	if (!d)
		return 0;
	unsigned runs = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		char entry[4200], run_dir[4096];
		snprintf(entry, sizeof(entry), "%s/%s", state, e->d_name);
		struct stat st;
		if (e->d_name[0] == '.' || stat(entry, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		FILE *f = fopen(entry, "re");
		if (!f)
			continue;
		bool read = fgets(run_dir, sizeof(run_dir), f) != NULL;
		fclose(f);
		if (!read)
			run_dir[0] = '\0';
		run_dir[strcspn(run_dir, "\n")] = '\0';
		json_t *stopped = json_array();
		if (!registry_stop_leftovers(run_dir, stopped)) {
			json_decref(stopped);
			continue;
		}
		unlink(entry);
		registry_remove_ctl(state, e->d_name);
		runs++;
		fprintf(stderr,
		        "allocspike-run: a killed run was left behind: %s (%zu process(es) "
		        "stopped)\n",
		        run_dir, json_array_size(stopped));
		registry_mark_failed(run_dir);
		if (found)
			found(ctx, run_dir, stopped);
		json_decref(stopped);
	}
	closedir(d);
	return runs;
}
