/* loadgen/sender.c - one target's UDP sockets (several source ports), sending batches with
 * sendmmsg. */
#include "sender.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Large buffers so that a burst of answers (or of catch-up sends) is not dropped by our own
 * sockets; SO_*BUFFORCE lifts the sysctl cap when we may, the plain option is the fallback. */
static void sender_buffers(int fd)
{
	int size = 8 << 20;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) != 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof(size)) != 0)
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
}

bool sender_open(struct sender *s, const struct target_spec *t, unsigned ports, unsigned batch_max,
                 char *err, size_t err_size)
{
	memset(s, 0, sizeof(*s));
	s->ports = ports;
	s->batch_max = batch_max;
	/* A batch is a window of consecutive queries; each port takes runs of MATCHER_CHUNK of
	 * them, so one port meets at most batch / (chunk * ports) + 2 of its runs in a batch. */
	unsigned runs = batch_max / (MATCHER_CHUNK * ports) + 2;
	s->per_port = runs * MATCHER_CHUNK < batch_max ? runs * MATCHER_CHUNK : batch_max;
	size_t msgs = (size_t)s->per_port * ports;
	s->fds = malloc(ports * sizeof(*s->fds));
	s->msgs = calloc(msgs, sizeof(*s->msgs));
	s->iov = calloc(msgs * 2, sizeof(*s->iov));
	s->ids = calloc(msgs * 2, 1);
	s->ks = calloc(msgs, sizeof(*s->ks));
	s->fill = calloc(ports, sizeof(*s->fill));
	if (!s->fds || !s->msgs || !s->iov || !s->ids || !s->ks || !s->fill) {
		snprintf(err, err_size, "target %s: out of memory", t->name);
		sender_close(s);
		return false;
	}
	for (unsigned p = 0; p < ports; p++)
		s->fds[p] = -1;
	for (unsigned p = 0; p < ports; p++) {
		int fd = socket(t->addr.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fd < 0 || connect(fd, (const struct sockaddr *)&t->addr, t->addr_len) != 0) {
			snprintf(err, err_size, "target %s: UDP socket: %s", t->name,
			         strerror(errno));
			if (fd >= 0)
				close(fd);
			sender_close(s);
			return false;
		}
		sender_buffers(fd);
		s->fds[p] = fd;
	}
	for (size_t i = 0; i < msgs; i++) {
		s->iov[2 * i].iov_base = s->ids + 2 * i;
		s->iov[2 * i].iov_len = 2;
		s->msgs[i].msg_hdr.msg_iov = &s->iov[2 * i];
		s->msgs[i].msg_hdr.msg_iovlen = 2;
	}
	return true;
}

/* sendmmsg on one port; a connected UDP socket reports an earlier ICMP "port unreachable" as
 * ECONNREFUSED on a later send without sending it, so that send is tried again. */
static unsigned sender_flush_port(struct sender *s, unsigned p, const struct querystream *qs,
                                  struct matcher *m, uint64_t now_ns)
{
	struct mmsghdr *msgs = s->msgs + (size_t)p * s->per_port;
	unsigned n = s->fill[p], done = 0;
	int refused = 0;
	while (done < n) {
		int r = sendmmsg(s->fds[p], msgs + done, n - done, 0);
		if (r < 0) {
			if ((errno == ECONNREFUSED && refused++ < 4) || errno == EINTR)
				continue;
			break;
		}
		done += (unsigned)r;
	}
	const uint64_t *ks = s->ks + (size_t)p * s->per_port;
	for (unsigned i = 0; i < done; i++)
		matcher_sent(m, ks[i], now_ns, querystream_question(qs, ks[i]));
	counters_add(&m->counters->sent, done);
	if (done < n)
		counters_add(&m->counters->send_errors, n - done);
	uint64_t bytes = 0;
	for (unsigned i = 0; i < done; i++)
		bytes += msgs[i].msg_len;
	counters_add(&m->counters->bytes_sent, bytes);
	return done;
}

unsigned sender_send(struct sender *s, const struct querystream *qs, struct matcher *m,
                     const struct client_model *clients, uint64_t first, unsigned n,
                     uint64_t now_ns)
{
	memset(s->fill, 0, s->ports * sizeof(*s->fill));
	for (uint64_t k = first; k < first + n; k++) {
		if (clients && client_model_query_transport(clients, k) != CLIENT_UDP)
			continue;
		unsigned p;
		uint16_t id;
		matcher_slot(m, k, &p, &id);
		size_t i = (size_t)p * s->per_port + s->fill[p]++;
		size_t len;
		const uint8_t *msg = querystream_message(qs, k, &len);
		s->ids[2 * i] = (uint8_t)(id >> 8);
		s->ids[2 * i + 1] = (uint8_t)id;
		s->iov[2 * i + 1].iov_base = (void *)(msg + 2);
		s->iov[2 * i + 1].iov_len = len - 2;
		s->ks[i] = k;
	}
	unsigned sent = 0;
	for (unsigned p = 0; p < s->ports; p++)
		if (s->fill[p])
			sent += sender_flush_port(s, p, qs, m, now_ns);
	return sent;
}

void sender_close(struct sender *s)
{
	if (s->fds)
		for (unsigned p = 0; p < s->ports; p++)
			if (s->fds[p] >= 0)
				close(s->fds[p]);
	free(s->fds);
	free(s->msgs);
	free(s->iov);
	free(s->ids);
	free(s->ks);
	free(s->fill);
	memset(s, 0, sizeof(*s));
}
