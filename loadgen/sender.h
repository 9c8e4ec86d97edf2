/* loadgen/sender.h - one target's UDP sockets (several source ports), sending batches with
 * sendmmsg. */
#ifndef ALLOCSPIKE_LOADGEN_SENDER_H
#define ALLOCSPIKE_LOADGEN_SENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "client_model.h"
#include "matcher.h"
#include "querystream.h"
#include "targets.h"

struct sender {
	int *fds; /* one connected UDP socket per source port */
	unsigned ports;
	unsigned batch_max;
	/* scratch for one batch: per_port messages for each port */
	unsigned per_port;
	struct mmsghdr *msgs;
	struct iovec *iov; /* two per message: the ID, then the stored message after its ID */
	uint8_t *ids;      /* two bytes per message */
	uint64_t *ks;      /* the query number of each message */
	unsigned *fill;    /* messages per port in this batch */
};

bool sender_open(struct sender *s, const struct target_spec *t, unsigned ports, unsigned batch_max,
                 char *err, size_t err_size);

/* Sends queries first .. first + n - 1 (n <= batch_max) and hands each one sent to m; a query the
 * socket refuses counts in send_errors. With clients, the queries of TCP clients are left out
 * (tcp_clients sends them). Returns how many left. */
unsigned sender_send(struct sender *s, const struct querystream *qs, struct matcher *m,
                     const struct client_model *clients, uint64_t first, unsigned n,
                     uint64_t now_ns);

void sender_close(struct sender *s);

#endif
