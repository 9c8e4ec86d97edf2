/* upstream/udp_shared.h - one UDP socket for every server address: the wildcard address on the
 * loopback device, each query's destination and each reply's source in an IP_PKTINFO message. */
#ifndef ALLOCSPIKE_UPSTREAM_UDP_SHARED_H
#define ALLOCSPIKE_UPSTREAM_UDP_SHARED_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>

/* Room for the control messages of a query (its destination and its arrival time) or of a
 * reply (its source), aligned as the kernel wants it. */
union udp_shared_control {
	struct cmsghdr align;
	char buf[CMSG_SPACE(sizeof(struct in_pktinfo)) + CMSG_SPACE(sizeof(struct timespec))];
};

/* Binds fd (an IPv4 UDP socket) to 0.0.0.0:port on the loopback device only (nothing from
 * another interface reaches it) and asks for each query's destination. Returns 0, or the errno
 * of the step that failed with the reason in err. */
int udp_shared_bind(int fd, int port, char *err, size_t err_size);

/* Points m's control at c, with room for the destination and arrival time a receive fills in. */
void udp_shared_expect_destination(struct msghdr *m, union udp_shared_control *c);

/* The address (host order) a received message was sent to; false when the kernel gave none. */
bool udp_shared_destination(const struct msghdr *m, uint32_t *addr);

/* Makes the message m leave from addr (host order), using c for the control message. */
void udp_shared_set_source(struct msghdr *m, union udp_shared_control *c, uint32_t addr);

#endif
