/* tests/fuzz/fuzz_util.c - what several fuzz targets share (see fuzz_util.h). */
#define _GNU_SOURCE /* memfd_create */
#include "fuzz_util.h"

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int fuzz_memfile(const uint8_t *data, size_t size, char *path, size_t path_size)
{
	int fd = memfd_create("fuzz-input", MFD_CLOEXEC);
	if (fd < 0)
		abort();
	size_t off = 0;
	while (off < size) {
		ssize_t n = write(fd, data + off, size - off);
		if (n <= 0)
			abort();
		off += (size_t)n;
	}
	snprintf(path, path_size, "/proc/self/fd/%d", fd);
	return fd;
}

bool fuzz_next_chunk(const uint8_t **data, size_t *size, const uint8_t **chunk, size_t *len)
{
	if (*size < 2)
		return false;
	size_t want = (size_t)((*data)[0] << 8 | (*data)[1]);
	*data += 2;
	*size -= 2;
	*len = want < *size ? want : *size;
	*chunk = *data;
	*data += *len;
	*size -= *len;
	return true;
}

static char fuzz_socket_paths[4][108];
static int fuzz_n_socket_paths;

static void fuzz_socket_cleanup(void)
{
	for (int i = 0; i < fuzz_n_socket_paths; i++)
		unlink(fuzz_socket_paths[i]);
}

const char *fuzz_socket_path(const char *what)
{
	if (fuzz_n_socket_paths == 4)
		abort();
	char *p = fuzz_socket_paths[fuzz_n_socket_paths++];
	snprintf(p, sizeof(fuzz_socket_paths[0]), "/tmp/allocspike-fuzz-%s-%ld.sock", what,
	         (long)getpid());
	if (fuzz_n_socket_paths == 1)
		atexit(fuzz_socket_cleanup);
	return p;
}

static bool fuzz_would_block(void)
{
	return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
}

void fuzz_control_exchange(struct event_base *base, const char *path, const uint8_t *data,
                           size_t size)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		abort();
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0)
		abort(); /* the server must be listening: anything else is a bug of the target */
	fuzz_stream_exchange(base, fd, data, size, size);
}

void fuzz_stream_exchange(struct event_base *base, int fd, const uint8_t *data, size_t size,
                          size_t piece)
{
	size_t off = 0;
	bool closed_sending = false;
	char sink[4096];
	/* Bounded: a server that neither reads nor closes ends the exchange after the last round.
	 */
	for (int round = 0; round < 2000; round++) {
		if (off < size) {
			size_t want = size - off < piece ? size - off : piece;
			ssize_t n = send(fd, data + off, want, MSG_NOSIGNAL);
			if (n > 0)
				off += (size_t)n;
			else if (!fuzz_would_block())
				off = size; /* the server closed: the rest cannot be sent */
		}
		if (off == size && !closed_sending) {
			shutdown(fd, SHUT_WR);
			closed_sending = true;
		}
		event_base_loop(base, EVLOOP_NONBLOCK);
		ssize_t got = recv(fd, sink, sizeof(sink), 0);
		if ((got == 0 && closed_sending) || (got < 0 && !fuzz_would_block()))
			break;
	}
	close(fd);
	event_base_loop(base, EVLOOP_NONBLOCK); /* the server sees the close and frees its side */
}
