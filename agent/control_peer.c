/* agent/control_peer.c - the PID of the process serving a Unix control socket (SO_PEERCRED). */
#include "control_peer.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "monotonic.h"

/* One connection: the peer's credentials, or -1 with errno from connect (ENOENT, ECONNREFUSED
 * while the resolver is not listening yet). */
static pid_t control_peer_once(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	struct ucred cred = {0};
	socklen_t len = sizeof(cred);
	pid_t pid = -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
	    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0)
		pid = cred.pid; /* 0: the peer is outside our PID namespace */
	int saved = errno;
	close(fd);
	errno = saved;
	return pid;
}

pid_t control_peer_pid(const char *path, double wait_s, char *err, size_t err_size)
{
	if (strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path)) {
		snprintf(err, err_size, "%s: the path is too long for a Unix socket", path);
		return 0;
	}
	uint64_t deadline = monotonic_ns() + (uint64_t)(wait_s * 1e9);
	for (;;) {
		pid_t pid = control_peer_once(path);
		if (pid > 0)
			return pid;
		if (pid == 0) {
			snprintf(err, err_size,
			         "%s: its process is in another PID namespace (a Pod needs "
			         "shareProcessNamespace: true)",
			         path);
			return 0;
		}
		if (monotonic_ns() >= deadline) {
			snprintf(err, err_size, "%s: nothing answered within %g s (%s)", path,
			         wait_s, strerror(errno));
			return 0;
		}
		nanosleep(&(struct timespec){.tv_nsec = 100000000}, NULL);
	}
}
