/* loadgen/receiver.c - takes answers in: a libevent read event per socket, drained with recvmmsg
 * and timed by the kernel's receive timestamps. */
#include "receiver.h"

#include <errno.h>
#include <event2/event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "monotonic.h"

bool receiver_init(struct receiver *r, struct event_base *base, unsigned max_sockets, char *err,
                   size_t err_size)
{
	memset(r, 0, sizeof(*r));
	r->base = base;
	r->sockets = calloc(max_sockets, sizeof(*r->sockets));
	r->cap = max_sockets;
	r->ready_fd = epoll_create1(EPOLL_CLOEXEC);
	if (!r->sockets || r->ready_fd < 0) {
		snprintf(err, err_size, "receiver: %s",
		         r->sockets ? "cannot create an epoll set" : "out of memory");
		return false;
	}
	for (unsigned i = 0; i < RECEIVER_BATCH; i++) {
		r->iov[i].iov_base = r->bufs[i];
		r->iov[i].iov_len = RECEIVER_BYTES;
		r->msgs[i].msg_hdr.msg_iov = &r->iov[i];
		r->msgs[i].msg_hdr.msg_iovlen = 1;
	}
	return true;
}

/* Reads what the socket holds, a batch at a time, until it is empty or a round limit is reached
 * (so one busy target cannot starve the pacing; the event fires again for the rest). */
static int receiver_drain(struct receiver *r, const struct receiver_socket *rs)
{
	int taken = 0;
	for (int round = 0; round < 16; round++) {
		for (int i = 0; i < RECEIVER_BATCH; i++) {
			r->msgs[i].msg_hdr.msg_control = r->control[i];
			r->msgs[i].msg_hdr.msg_controllen = sizeof(r->control[i]);
		}
		int n = recvmmsg(rs->fd, r->msgs, RECEIVER_BATCH, MSG_DONTWAIT | MSG_TRUNC, NULL);
		if (n <= 0)
			break; /* EAGAIN, or ECONNREFUSED from a target that went away */
		uint64_t read_at = realtime_ns();
		for (int i = 0; i < n; i++) {
			uint64_t now = read_at;
			struct cmsghdr *cm = CMSG_FIRSTHDR(&r->msgs[i].msg_hdr);
			if (cm && cm->cmsg_level == SOL_SOCKET &&
			    cm->cmsg_type == SCM_TIMESTAMPNS) {
				struct timespec ts;
				memcpy(&ts, CMSG_DATA(cm), sizeof(ts));
				now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
			}
			size_t len = r->msgs[i].msg_len;
			size_t have = len < RECEIVER_BYTES ? len : RECEIVER_BYTES;
			if (matcher_answer(rs->matcher, rs->port, r->bufs[i], have, len, now))
				taken++;
		}
		if (n < RECEIVER_BATCH)
			break;
	}
	return taken;
}

static void receiver_on_read(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	struct receiver_socket *rs = arg;
	receiver_drain(rs->receiver, rs);
}

bool receiver_add(struct receiver *r, int fd, unsigned port, struct matcher *m, char *err,
                  size_t err_size)
{
	if (r->count == r->cap) {
		snprintf(err, err_size, "receiver: more sockets than announced");
		return false;
	}
	/* without timestamps answers are timed when read: later, when reads are batched */
	int on = 1;
	setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof(on));
	struct receiver_socket *rs = &r->sockets[r->count];
	*rs = (struct receiver_socket){.fd = fd, .port = port, .matcher = m, .receiver = r};
	struct epoll_event ready = {.events = EPOLLIN, .data.u32 = r->count};
	rs->ev = event_new(r->base, fd, EV_READ | EV_PERSIST, receiver_on_read, rs);
	if (!rs->ev || (r->watching && event_add(rs->ev, NULL) != 0) ||
	    epoll_ctl(r->ready_fd, EPOLL_CTL_ADD, fd, &ready) != 0) {
		snprintf(err, err_size, "receiver: cannot watch socket %d", fd);
		if (rs->ev)
			event_free(rs->ev);
		rs->ev = NULL;
		return false;
	}
	r->count++;
	return true;
}

void receiver_watch(struct receiver *r, bool on)
{
	if (on == r->watching)
		return;
	for (unsigned i = 0; i < r->count; i++)
		if (on)
			event_add(r->sockets[i].ev, NULL);
		else
			event_del(r->sockets[i].ev);
	r->watching = on;
}

int receiver_drain_all(struct receiver *r)
{
	/* one epoll_wait names the sockets holding answers: a round no longer costs a recvmmsg per
	 * socket (four per target), most of which found nothing at spike rates */
	struct epoll_event ready[RECEIVER_BATCH];
	int taken = 0;
	for (unsigned pass = 0; pass * RECEIVER_BATCH <= r->count; pass++) {
		int n = epoll_wait(r->ready_fd, ready, RECEIVER_BATCH, 0);
		if (n <
		    0) { /* cannot happen with a valid set; read everything rather than nothing */
			for (unsigned i = 0; i < r->count; i++)
				taken += receiver_drain(r, &r->sockets[i]);
			return taken;
		}
		for (int i = 0; i < n; i++)
			taken += receiver_drain(r, &r->sockets[ready[i].data.u32]);
		if (n < RECEIVER_BATCH)
			break;
	}
	return taken;
}

void receiver_close(struct receiver *r)
{
	for (unsigned i = 0; i < r->count; i++)
		event_free(r->sockets[i].ev);
	if (r->cap && r->ready_fd >= 0) /* cap: receiver_init ran (a zeroed receiver holds fd 0) */
		close(r->ready_fd);
	free(r->sockets);
	memset(r, 0, sizeof(*r));
}
