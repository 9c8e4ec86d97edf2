/* loadgen/receiver.h - waits on every target's sockets (epoll) and takes answers in with recvmmsg.
 */
#ifndef ALLOCSPIKE_LOADGEN_RECEIVER_H
#define ALLOCSPIKE_LOADGEN_RECEIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "matcher.h"

#define RECEIVER_BATCH 64
#define RECEIVER_EVENTS 64
/* Only the header is read (ID, flags, rcode); MSG_TRUNC still tells the real size. */
#define RECEIVER_BYTES 16

/* One socket the receiver watches: what an epoll event points to. */
struct receiver_socket {
	int fd;
	unsigned port;
	struct matcher *matcher;
};

struct receiver {
	int epfd;
	struct receiver_socket *sockets;
	unsigned count, cap;
	struct mmsghdr msgs[RECEIVER_BATCH];
	struct iovec iov[RECEIVER_BATCH];
	uint8_t bufs[RECEIVER_BATCH][RECEIVER_BYTES];
	/* room for one SCM_TIMESTAMPNS control message per datagram */
	uint64_t control[RECEIVER_BATCH][8];
};

/* Room for up to max_sockets sockets. */
bool receiver_init(struct receiver *r, unsigned max_sockets, char *err, size_t err_size);

/* Watches fd, the socket of port of the target whose queries m tracks. */
bool receiver_add(struct receiver *r, int fd, unsigned port, struct matcher *m, char *err,
                  size_t err_size);

/* Waits up to timeout_ns (0: only looks) for answers and matches every one that has arrived, timed
 * by the kernel's receive timestamp (so answers may wait in the socket without adding latency).
 * Returns the number of answers taken in; -1 when interrupted by a signal. */
int receiver_poll(struct receiver *r, int64_t timeout_ns);

void receiver_close(struct receiver *r);

#endif
