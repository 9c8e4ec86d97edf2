/* controller/ask.c - allocspike-run ask (ask.h). */
#include "ask.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "cli_parse.h"
#include "monotonic.h"
#include "request_words.h"
#include "serve.h"

/* A controller just started may not listen yet: it is given this long. */
#define ASK_CONNECT_WAIT_NS (5ull * 1000000000ull)

void ask_usage(FILE *out)
{
	fprintf(out,
	        "allocspike-run ask SOCKET REQUEST [WORD...]\n"
	        "  one request to a served run (supervise --serve); prints the answer, exit 1\n"
	        "  when it is an error or none came\n");
}

/* Connected to path, retrying while nothing listens there yet; -1 (said) when it never does. */
static int ask_connect(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "allocspike-run ask: %s: path longer than %zu bytes\n", path,
		        sizeof(sa.sun_path) - 1);
		return -1;
	}
	strcpy(sa.sun_path, path);
	uint64_t deadline = monotonic_ns() + ASK_CONNECT_WAIT_NS;
	for (;;) {
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			break;
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			return fd;
		int e = errno;
		close(fd);
		if ((e != ENOENT && e != ECONNREFUSED) || monotonic_ns() >= deadline) {
			fprintf(stderr,
			        "allocspike-run ask: %s: %s (is the run's controller gone?)\n",
			        path, strerror(e));
			return -1;
		}
		nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
	}
	fprintf(stderr, "allocspike-run ask: socket: %s\n", strerror(errno));
	return -1;
}

int ask_main(int argc, char **argv)
{
	if (argc < 3) {
		ask_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	/* the scenario's Ctrl-C is its to handle: an answer it waits for is never cut off */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	static char line[SERVE_LINE_MAX + 2];
	if (!request_words_encode(argv + 2, (size_t)(argc - 2), line, SERVE_LINE_MAX)) {
		fprintf(stderr, "allocspike-run ask: the request is longer than %d bytes\n",
		        SERVE_LINE_MAX);
		return CLI_EXIT_USAGE;
	}
	int fd = ask_connect(argv[1]);
	if (fd < 0)
		return CLI_EXIT_FAILED;
	strcat(line, "\n");
	size_t len = strlen(line), off = 0;
	while (off < len) {
		ssize_t n = send(fd, line + off, len - off, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "allocspike-run ask: %s: send: %s\n", argv[1],
			        strerror(errno));
			close(fd);
			return CLI_EXIT_FAILED;
		}
		off += (size_t)n;
	}
	/* the answer reuses the buffer: one line, as long as a request at most */
	len = 0;
	while (!memchr(line, '\n', len) && len < SERVE_LINE_MAX) {
		ssize_t n = recv(fd, line + len, SERVE_LINE_MAX - len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	char *nl = memchr(line, '\n', len);
	if (!nl) {
		fprintf(stderr,
		        "allocspike-run ask: %s: no answer to '%s' (the controller is gone)\n",
		        argv[1], argv[2]);
		return CLI_EXIT_FAILED;
	}
	*nl = '\0';
	if (strncmp(line, "error", 5) == 0) {
		fprintf(stderr, "allocspike-run ask: %s: %s\n", argv[2], line);
		return CLI_EXIT_FAILED;
	}
	printf("%s\n", line);
	return CLI_EXIT_OK;
}
