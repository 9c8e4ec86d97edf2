/* loadgen/receiver.h - takes answers in: a libevent read event per socket, drained with recvmmsg
 * and timed by the kernel's receive timestamps. */
#ifndef ALLOCSPIKE_LOADGEN_RECEIVER_H
#define ALLOCSPIKE_LOADGEN_RECEIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "matcher.h"

struct event_base;
struct event;

#define RECEIVER_BATCH 64
/* The header and the question (a name of at most 255 octets, type, class) are read; MSG_TRUNC
 * still tells the real size. */
#define RECEIVER_BYTES (12 + 255 + 4)

/* One socket the receiver watches: what its read event points to. */
struct receiver_socket {
	int fd;
	unsigned port;
	struct matcher *matcher;
	struct receiver *receiver;
	struct event *ev;
};

struct receiver {
	struct event_base *base;
	struct receiver_socket *sockets;
	unsigned count, cap;
	bool watching; /* the read events are on */
	int ready_fd;  /* an epoll set of the sockets, asked which hold answers at each round */
	struct mmsghdr msgs[RECEIVER_BATCH];
	struct iovec iov[RECEIVER_BATCH];
	uint8_t bufs[RECEIVER_BATCH][RECEIVER_BYTES];
	/* room for one SCM_TIMESTAMPNS control message per datagram */
	uint64_t control[RECEIVER_BATCH][8];
};

/* Room for up to max_sockets sockets, watched on base. */
bool receiver_init(struct receiver *r, struct event_base *base, unsigned max_sockets, char *err,
                   size_t err_size);

/* Takes fd, the socket of port of the target whose queries m tracks, with a read event that drains
 * it and matches every answer whenever the socket is readable, once receiver_watch turns the
 * events on. */
bool receiver_add(struct receiver *r, int fd, unsigned port, struct matcher *m, char *err,
                  size_t err_size);

/* Turns the read events on (answers are taken as they come) or off (they wait in the sockets,
 * timed by the kernel, for receiver_drain_all). */
void receiver_watch(struct receiver *r, bool on);

/* Drains every socket that holds answers now (at each sending round, and between the batches of
 * a catch-up). Returns the number of answers taken in. */
int receiver_drain_all(struct receiver *r);

void receiver_close(struct receiver *r);

#endif
