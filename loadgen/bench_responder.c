/* loadgen/bench_responder.c - allocspike-bench-responder: the trivial UDP DNS responder the
 * benchmark loads (each query comes back as its own NOERROR answer), so the generators, not it, are
 * measured. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "close_stdout.h"
#include "sockaddr_parse.h"

#define BATCH 64
#define BUF 512

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

int main(int argc, char **argv)
{
	close_stdout_at_exit("allocspike-bench-responder");
	if (argc != 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		fprintf(
		    stderr,
		    "usage: allocspike-bench-responder ADDR:PORT (loopback; port 0 picks one)\n");
		return argc == 2 ? 0 : 1;
	}
	struct sockaddr_storage sa;
	socklen_t len;
	char err[256];
	if (!sockaddr_parse(argv[1], 0, &sa, &len, err, sizeof(err)) ||
	    !sockaddr_is_loopback((struct sockaddr *)&sa)) {
		fprintf(stderr, "allocspike-bench-responder: %s: %s\n", argv[1],
		        err[0] ? err : "not a loopback address");
		return 1;
	}
	int fd = socket(sa.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	int size = 8 << 20;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) != 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, len) != 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
		fprintf(stderr, "allocspike-bench-responder: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	struct sigaction act = {.sa_handler = on_signal};
	sigaction(SIGINT, &act, NULL);
	sigaction(SIGTERM, &act, NULL);
	printf("ready %s\n", sockaddr_format((struct sockaddr *)&sa, err, sizeof(err)));
	fflush(stdout);

	static uint8_t bufs[BATCH][BUF];
	static struct sockaddr_storage from[BATCH];
	static struct iovec iov[BATCH];
	static struct mmsghdr msgs[BATCH];
	unsigned long long answered = 0;
	while (!stopping) {
		for (int i = 0; i < BATCH; i++) {
			iov[i] = (struct iovec){.iov_base = bufs[i], .iov_len = BUF};
			msgs[i].msg_hdr = (struct msghdr){.msg_name = &from[i],
			                                  .msg_namelen = sizeof(from[i]),
			                                  .msg_iov = &iov[i],
			                                  .msg_iovlen = 1};
		}
		/* blocks for the first, then takes what is queued; a signal ends the wait */
		int n = recvmmsg(fd, msgs, BATCH, MSG_WAITFORONE, NULL);
		if (n <= 0)
			continue;
		int out = 0;
		for (int i = 0; i < n; i++) {
			if (msgs[i].msg_len < 12 || (bufs[i][2] & 0x80))
				continue;   /* not a query */
			bufs[i][2] |= 0x80; /* QR */
			bufs[i][3] &= 0xf0; /* RCODE 0 (NOERROR) */
			iov[i].iov_len = msgs[i].msg_len;
			msgs[out++] = msgs[i];
		}
		for (int done = 0; done < out;) {
			int r = sendmmsg(fd, msgs + done, (unsigned)(out - done), 0);
			if (r <= 0)
				break;
			done += r;
		}
		answered += (unsigned long long)out;
	}
	fprintf(stderr, "answered %llu\n", answered);
	return 0;
}
