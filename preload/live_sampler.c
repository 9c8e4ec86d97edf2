/* preload/live_sampler.c - optional sampler LD_PRELOADed first into a daemon: its live bytes and
 * its allocator's statistics, served like our resolver's control socket.
 *
 * The live-bytes counter (common/live_bytes.c, compiled in) interposes the allocation functions,
 * exactly as in our resolver builds, and forwards each call unchanged to the next definition: the
 * row's preloaded allocator, the glibc shim, or the daemon's own. When $ALLOCSPIKE_SAMPLER_SOCKET
 * names a path, a thread answers `stats` there with one JSON line holding live_bytes, live_blocks,
 * the `alloc` object (common/alloc_stats.c), `size_classes` (allocations by power-of-two size
 * class, live and ever allocated: the counter is built with LIVE_BYTES_SIZE_CLASSES here) and,
 * spliced in, the daemon's own figures from the
 * file $ALLOCSPIKE_SAMPLER_DAEMON_STATS (rewritten every second by the runner with
 * `<base>.sh stats`, see docs/daemons.md). The generator samples it on the same clock as our
 * builds, with no change. The allocator's name comes from $ALLOCSPIKE_SAMPLER_ALLOCATOR (the row's,
 * which the allocator probe checks) or, without it, from common/alloc_info.
 *
 * Inside a foreign process: the thread blocks every signal (the daemon's handlers stay on its own
 * threads), allocates nothing itself, and the JSON is written by hand (no jansson; see
 * alloc_probe.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "alloc_info.h"
#include "alloc_stats.h"
#include "live_bytes.h"

static int sampler_fd = -1;
static struct alloc_info sampler_info;
static char sampler_daemon_stats[4096];

/* The daemon's own figures: the inside of the one-object file, or "" when absent or malformed.
 * Its age goes with it, so a stalled runner shows. */
static void sampler_daemon_part(char *out, size_t size)
{
	out[0] = '\0';
	if (!sampler_daemon_stats[0])
		return;
	int fd = open(sampler_daemon_stats, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	char buf[1024];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	struct stat st;
	bool have_age = fstat(fd, &st) == 0;
	close(fd);
	if (n <= 2)
		return;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	if (buf[0] != '{' || buf[n - 1] != '}' || n <= 2 || memchr(buf, '\n', (size_t)n))
		return;
	buf[n - 1] = '\0';
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	double age = have_age ? (double)(now.tv_sec - st.st_mtim.tv_sec) +
	                            (double)(now.tv_nsec - st.st_mtim.tv_nsec) / 1e9
	                      : -1;
	snprintf(out, size, ",%s,\"daemon_stats_age_s\":%.3f", buf + 1, age);
}

static void sampler_put_bytes(char *buf, size_t size, long long v)
{
	if (v == ALLOC_STATS_UNKNOWN)
		snprintf(buf, size, "null");
	else
		snprintf(buf, size, "%lld", v);
}

/* Appends `"key":[v,...]` (SIZE_MAX as null) to out, which holds *len bytes; false when full. */
static bool sampler_put_array(char *out, size_t size, size_t *len, const char *key,
                              const size_t values[LIVE_SIZE_CLASSES])
{
	int n = snprintf(out + *len, size - *len, "%s\"%s\":[", *len ? "," : "", key);
	for (int i = 0; i <= LIVE_SIZE_CLASSES; i++) {
		if (n <= 0 || (size_t)n >= size - *len)
			return false;
		*len += (size_t)n;
		if (i == LIVE_SIZE_CLASSES)
			n = snprintf(out + *len, size - *len, "]");
		else if (values[i] == SIZE_MAX)
			n = snprintf(out + *len, size - *len, "%snull", i ? "," : "");
		else
			n = snprintf(out + *len, size - *len, "%s%zu", i ? "," : "", values[i]);
	}
	if (n <= 0 || (size_t)n >= size - *len)
		return false;
	*len += (size_t)n;
	return true;
}

/* The `size_classes` object (docs/daemons.md): the classes' upper limits ("le", null for the last)
 * and, per class, live blocks, live bytes and blocks ever allocated; "null" when not counted. */
static void sampler_size_classes(char *out, size_t size)
{
	struct live_size_class classes[LIVE_SIZE_CLASSES];
	size_t le[LIVE_SIZE_CLASSES], blocks[LIVE_SIZE_CLASSES], bytes[LIVE_SIZE_CLASSES],
	    allocs[LIVE_SIZE_CLASSES], len = 0;
	snprintf(out, size, "null");
	if (!live_bytes_size_classes_read || !live_bytes_size_classes_read(classes) || size < 8)
		return;
	for (int i = 0; i < LIVE_SIZE_CLASSES; i++) {
		le[i] = live_size_class_limit(i);
		blocks[i] = classes[i].live_blocks;
		bytes[i] = classes[i].live_bytes;
		allocs[i] = classes[i].allocs;
	}
	char *body = out + 1; /* after the '{'; room kept for "}" and the terminator */
	size_t room = size - 2;
	if (!sampler_put_array(body, room, &len, "le", le) ||
	    !sampler_put_array(body, room, &len, "live_blocks", blocks) ||
	    !sampler_put_array(body, room, &len, "live_bytes", bytes) ||
	    !sampler_put_array(body, room, &len, "allocs", allocs)) {
		snprintf(out, size, "null");
		return;
	}
	out[0] = '{';
	out[len + 1] = '}';
	out[len + 2] = '\0';
}

/* One `stats` line, in the resolver's keys where they mean the same. */
static size_t sampler_stats_line(char *out, size_t size)
{
	struct live_bytes live;
	live_bytes_read(&live);
	struct alloc_stats as;
	alloc_stats_read(&sampler_info, &as);
	char alloc[2048], daemon[1200], allocated[32], resident[32], classes[3072];
	if (!alloc_stats_json(&as, alloc, sizeof(alloc)))
		snprintf(alloc, sizeof(alloc), "null");
	sampler_daemon_part(daemon, sizeof(daemon));
	sampler_size_classes(classes, sizeof(classes));
	sampler_put_bytes(allocated, sizeof(allocated), as.allocated);
	sampler_put_bytes(resident, sizeof(resident), as.heap);
	int n = snprintf(out, size,
	                 "{\"live_bytes\":%zu,\"live_blocks\":%zu,\"alloc_allocated_bytes\":%s,"
	                 "\"alloc_resident_bytes\":%s,\"alloc\":%s,\"size_classes\":%s%s}\n",
	                 live.bytes, live.blocks, allocated, resident, alloc, classes, daemon);
	return n > 0 && (size_t)n < size ? (size_t)n : 0;
}

static void sampler_write_all(int fd, const char *text, size_t len)
{
	size_t off = 0;
	while (off < len) {
		ssize_t n = write(fd, text + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		off += (size_t)n;
	}
}

/* One client: lines until it closes or stays silent for a second. */
static void sampler_serve(int fd)
{
	char buf[256];
	size_t have = 0;
	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		if (poll(&pfd, 1, 1000) != 1)
			return;
		ssize_t n = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (n <= 0)
			return;
		have += (size_t)n;
		buf[have] = '\0';
		char *nl;
		while ((nl = strchr(buf, '\n'))) {
			*nl = '\0';
			if (nl > buf && nl[-1] == '\r')
				nl[-1] = '\0';
			if (strcmp(buf, "stats") == 0) {
				char line[8192];
				size_t len = sampler_stats_line(line, sizeof(line));
				sampler_write_all(fd, line, len);
			} else if (buf[0]) {
				static const char err[] = "error: unknown command (try: stats)\n";
				sampler_write_all(fd, err, sizeof(err) - 1);
			}
			have -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, have + 1);
		}
		if (have == sizeof(buf) - 1)
			return;
	}
}

static void *sampler_thread(void *arg)
{
	(void)arg;
	for (;;) {
		int fd = accept4(sampler_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			return NULL;
		}
		sampler_serve(fd);
		close(fd);
	}
}

static void sampler_fail(const char *path, const char *what)
{
	fprintf(stderr, "allocspike live sampler: %s: %s: %s\n", path, what, strerror(errno));
	if (sampler_fd >= 0)
		close(sampler_fd);
	sampler_fd = -1;
}

__attribute__((constructor)) static void sampler_init(void)
{
	const char *path = getenv("ALLOCSPIKE_SAMPLER_SOCKET");
	if (!path || !*path)
		return;
	const char *daemon = getenv("ALLOCSPIKE_SAMPLER_DAEMON_STATS");
	if (daemon)
		snprintf(sampler_daemon_stats, sizeof(sampler_daemon_stats), "%s", daemon);
	alloc_info_detect(&sampler_info);
	const char *allocator = getenv("ALLOCSPIKE_SAMPLER_ALLOCATOR");
	if (allocator && *allocator)
		snprintf(sampler_info.allocator, sizeof(sampler_info.allocator), "%s", allocator);

	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(sun.sun_path)) {
		errno = ENAMETOOLONG;
		sampler_fail(path, "socket path");
		return;
	}
	strcpy(sun.sun_path, path);
	unlink(path);
	sampler_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sampler_fd < 0 || bind(sampler_fd, (struct sockaddr *)&sun, sizeof(sun)) != 0 ||
	    listen(sampler_fd, 8) != 0) {
		sampler_fail(path, "listen");
		return;
	}
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	pthread_t thread;
	errno = pthread_create(&thread, &attr, sampler_thread, NULL);
	if (errno != 0)
		sampler_fail(path, "thread");
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}
