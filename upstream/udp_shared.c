/* upstream/udp_shared.c - the shared UDP socket: wildcard bind on lo, IP_PKTINFO both ways. */
#define _GNU_SOURCE
#include "udp_shared.h"

#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

int udp_shared_bind(int fd, int port, char *err, size_t err_size)
{
	/* the wildcard would otherwise take queries from every interface: the project serves
	 * loopback only */
	static const char device[] = "lo";
	if (setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, device, sizeof(device)) != 0) {
		int e = errno;
		snprintf(err, err_size, "cannot bind a UDP socket to device %s: %s", device,
		         strerror(e));
		return e;
	}
	int one = 1;
	if (setsockopt(fd, IPPROTO_IP, IP_PKTINFO, &one, sizeof(one)) != 0) {
		int e = errno;
		snprintf(err, err_size, "cannot ask for IP_PKTINFO: %s", strerror(e));
		return e;
	}
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	a.sin_addr.s_addr = htonl(INADDR_ANY);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		int e = errno;
		snprintf(err, err_size, "cannot bind UDP 0.0.0.0:%d on %s: %s", port, device,
		         strerror(e));
		return e;
	}
	return 0;
}

void udp_shared_expect_destination(struct msghdr *m, union udp_shared_control *c)
{
	m->msg_control = c->buf;
	m->msg_controllen = sizeof(c->buf);
}

bool udp_shared_destination(const struct msghdr *m, uint32_t *addr)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR((struct msghdr *)m, c)) {
		if (c->cmsg_level != IPPROTO_IP || c->cmsg_type != IP_PKTINFO)
			continue;
		struct in_pktinfo info;
		memcpy(&info, CMSG_DATA(c), sizeof(info));
		*addr = ntohl(info.ipi_addr.s_addr); /* the header's destination */
		return true;
	}
	return false;
}

void udp_shared_set_source(struct msghdr *m, union udp_shared_control *c, uint32_t addr)
{
	memset(c, 0, sizeof(*c));
	m->msg_control = c->buf;
	/* exactly one message: the kernel refuses a control area with an empty one after it */
	m->msg_controllen = CMSG_SPACE(sizeof(struct in_pktinfo));
	struct cmsghdr *h = CMSG_FIRSTHDR(m);
	h->cmsg_level = IPPROTO_IP;
	h->cmsg_type = IP_PKTINFO;
	h->cmsg_len = CMSG_LEN(sizeof(struct in_pktinfo));
	/* ifindex 0: the route decides the device (lo for every 127/8 address) */
	struct in_pktinfo info = {.ipi_ifindex = 0};
	info.ipi_spec_dst.s_addr = htonl(addr);
	memcpy(CMSG_DATA(h), &info, sizeof(info));
}
