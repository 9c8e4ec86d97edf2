/* loadgen/receiver.c - waits on every target's sockets (epoll) and takes answers in with recvmmsg.
 */
#include "receiver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "monotonic.h"

bool receiver_init(struct receiver *r, unsigned max_sockets, char *err, size_t err_size)
{
	memset(r, 0, sizeof(*r));
	r->sockets = calloc(max_sockets, sizeof(*r->sockets));
	r->cap = max_sockets;
	r->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (r->epfd < 0 || !r->sockets) {
		snprintf(err, err_size, "epoll: %s", strerror(errno));
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

bool receiver_add(struct receiver *r, int fd, unsigned port, struct matcher *m, char *err,
                  size_t err_size)
{
	if (r->count == r->cap) {
		snprintf(err, err_size, "receiver: more sockets than announced");
		return false;
	}
	int on =
	    1; /* without timestamps answers are timed when read: later, when reads are batched */
	setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof(on));
	struct receiver_socket *rs = &r->sockets[r->count++];
	*rs = (struct receiver_socket){.fd = fd, .port = port, .matcher = m};
	struct epoll_event ev = {.events = EPOLLIN, .data.ptr = rs};
	if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, fd, &ev) != 0) {
		snprintf(err, err_size, "epoll_ctl: %s", strerror(errno));
		return false;
	}
	return true;
}

/* Reads what fd holds, a batch at a time, until it is empty or a round limit is reached (so one
 * busy target cannot starve the pacing). */
static int receiver_drain(struct receiver *r, int fd, struct matcher *m, unsigned port)
{
	int taken = 0;
	for (int round = 0; round < 16; round++) {
		for (int i = 0; i < RECEIVER_BATCH; i++) {
			r->msgs[i].msg_hdr.msg_control = r->control[i];
			r->msgs[i].msg_hdr.msg_controllen = sizeof(r->control[i]);
		}
		int n = recvmmsg(fd, r->msgs, RECEIVER_BATCH, MSG_DONTWAIT | MSG_TRUNC, NULL);
		if (n <= 0)
			break; /* EAGAIN, or ECONNREFUSED from a target that went away */
		uint64_t read_at = realtime_ns();
		for (int i = 0; i < n; i++) {
			const uint8_t *b = r->bufs[i];
			uint64_t now = read_at;
			struct cmsghdr *cm = CMSG_FIRSTHDR(&r->msgs[i].msg_hdr);
			if (cm && cm->cmsg_level == SOL_SOCKET &&
			    cm->cmsg_type == SCM_TIMESTAMPNS) {
				struct timespec ts;
				memcpy(&ts, CMSG_DATA(cm), sizeof(ts));
				now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
			}
			unsigned len = r->msgs[i].msg_len;
			counters_add(&m->counters->bytes_received, len);
			if (len < 12 || !(b[2] & 0x80)) { /* not a DNS response */
				counters_add(&m->counters->unexpected, 1);
				continue;
			}
			uint16_t id = (uint16_t)(b[0] << 8 | b[1]);
			if (matcher_answer(m, port, id, b[3] & 0x0f, now))
				taken++;
		}
		if (n < RECEIVER_BATCH)
			break;
	}
	return taken;
}

int receiver_poll(struct receiver *r, int64_t timeout_ns)
{
	struct epoll_event events[RECEIVER_EVENTS];
	struct timespec ts = {.tv_sec = timeout_ns > 0 ? timeout_ns / 1000000000 : 0,
	                      .tv_nsec = timeout_ns > 0 ? timeout_ns % 1000000000 : 0};
	int n = epoll_pwait2(r->epfd, events, RECEIVER_EVENTS, &ts, NULL);
	if (n < 0 && errno == ENOSYS) /* kernels before 5.11: millisecond sleeps */
		n = epoll_wait(r->epfd, events, RECEIVER_EVENTS,
		               timeout_ns > 0 ? (int)((timeout_ns + 999999) / 1000000) : 0);
	if (n < 0)
		return errno == EINTR ? -1 : 0;
	int taken = 0;
	for (int i = 0; i < n; i++) {
		struct receiver_socket *rs = events[i].data.ptr;
		taken += receiver_drain(r, rs->fd, rs->matcher, rs->port);
	}
	return taken;
}

void receiver_close(struct receiver *r)
{
	if (r->epfd >= 0)
		close(r->epfd);
	r->epfd = -1;
	free(r->sockets);
	r->sockets = NULL;
}
