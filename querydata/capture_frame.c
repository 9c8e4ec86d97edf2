/* querydata/capture_frame.c - one captured frame taken apart: link layer, IPv4 or IPv6, UDP or TCP,
 * down to the transport's payload. */
#include "capture_frame.h"

#include <string.h>

#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_IPV6 0x86dd
#define ETHERTYPE_VLAN 0x8100
#define ETHERTYPE_QINQ 0x88a8
#define IPPROTO_NUMBER_TCP 6
#define IPPROTO_NUMBER_UDP 17

static uint16_t capture_be16(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

static uint32_t capture_be32(const uint8_t *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

bool capture_frame_link_supported(int link)
{
	switch (link) {
	case CAPTURE_LINK_NULL:
	case CAPTURE_LINK_ETHERNET:
	case CAPTURE_LINK_RAW:
	case CAPTURE_LINK_LOOP:
	case CAPTURE_LINK_LINUX_SLL:
	case CAPTURE_LINK_IPV4:
	case CAPTURE_LINK_IPV6:
	case CAPTURE_LINK_LINUX_SLL2:
		return true;
	default:
		return false;
	}
}

/* The transport header at b (have bytes at hand, wire bytes in the IP payload). */
static enum capture_frame_result capture_transport(int proto, const uint8_t *b, size_t have,
                                                   size_t wire, struct capture_packet *p)
{
	size_t header;
	if (proto == IPPROTO_NUMBER_UDP) {
		if (have < 8 || wire < 8)
			return CAPTURE_FRAME_MALFORMED;
		size_t udp_len = capture_be16(b + 4);
		if (udp_len < 8 || udp_len > wire)
			return CAPTURE_FRAME_MALFORMED;
		wire = udp_len;
		header = 8;
		p->transport = CAPTURE_UDP;
	} else if (proto == IPPROTO_NUMBER_TCP) {
		if (have < 20 || wire < 20)
			return CAPTURE_FRAME_MALFORMED;
		header = (size_t)(b[12] >> 4) * 4;
		if (header < 20 || header > wire || header > have)
			return CAPTURE_FRAME_MALFORMED;
		p->transport = CAPTURE_TCP;
		p->tcp_seq = capture_be32(b + 4);
		p->tcp_flags = b[13];
	} else {
		return CAPTURE_FRAME_OTHER;
	}
	p->src_port = capture_be16(b);
	p->dst_port = capture_be16(b + 2);
	p->payload = b + header;
	p->payload_cut = have < wire;
	p->payload_len = (have < wire ? have : wire) - header;
	return CAPTURE_FRAME_PACKET;
}

/* An IPv4 packet at b: have bytes captured. */
static enum capture_frame_result capture_ipv4(const uint8_t *b, size_t have,
                                              struct capture_packet *p)
{
	if (have < 20 || b[0] >> 4 != 4)
		return CAPTURE_FRAME_MALFORMED;
	size_t header = (size_t)(b[0] & 0x0f) * 4, total = capture_be16(b + 2);
	if (total == 0) /* segmentation offload: the sender's capture holds the unsplit packet */
		total = have;
	if (header < 20 || total < header || header > have)
		return CAPTURE_FRAME_MALFORMED;
	/* a fragment's DNS cannot be read without the others (not reassembled) */
	if ((capture_be16(b + 6) & 0x3fff) != 0)
		return CAPTURE_FRAME_OTHER;
	p->family = 4;
	memset(p->src, 0, sizeof(p->src));
	memset(p->dst, 0, sizeof(p->dst));
	memcpy(p->src, b + 12, 4);
	memcpy(p->dst, b + 16, 4);
	size_t at_hand = have < total ? have : total;
	return capture_transport(b[9], b + header, at_hand - header, total - header, p);
}

/* An IPv6 packet at b; extension headers other than hop-by-hop, routing and destination options
 * (a fragment header, ESP) end the decoding. */
static enum capture_frame_result capture_ipv6(const uint8_t *b, size_t have,
                                              struct capture_packet *p)
{
	if (have < 40 || b[0] >> 4 != 6)
		return CAPTURE_FRAME_MALFORMED;
	size_t wire = capture_be16(b + 4), at = 40;
	if (wire == 0) /* a jumbogram, or segmentation offload as for IPv4 */
		wire = have - 40;
	int next = b[6];
	p->family = 6;
	memcpy(p->src, b + 8, 16);
	memcpy(p->dst, b + 24, 16);
	have -= 40;
	while (next == 0 || next == 43 || next == 60) {
		if (have < 8 || wire < 8)
			return CAPTURE_FRAME_MALFORMED;
		size_t ext = ((size_t)b[at + 1] + 1) * 8;
		if (ext > have || ext > wire)
			return CAPTURE_FRAME_MALFORMED;
		next = b[at];
		at += ext;
		have -= ext;
		wire -= ext;
	}
	return capture_transport(next, b + at, have < wire ? have : wire, wire, p);
}

/* The IP packet at b, of the version its first nibble says (or the one the link named). */
static enum capture_frame_result capture_ip(const uint8_t *b, size_t have, int version,
                                            struct capture_packet *p)
{
	if (have < 1)
		return CAPTURE_FRAME_MALFORMED;
	if (version == 0)
		version = b[0] >> 4;
	if (version == 4)
		return capture_ipv4(b, have, p);
	if (version == 6)
		return capture_ipv6(b, have, p);
	return CAPTURE_FRAME_OTHER;
}

static int capture_ethertype_version(uint16_t type)
{
	return type == ETHERTYPE_IPV4 ? 4 : type == ETHERTYPE_IPV6 ? 6 : -1;
}

/* BSD's address families for IPv6 differ by system (24 NetBSD/OpenBSD, 28 FreeBSD, 30 macOS);
 * 2 is IPv4 everywhere, 10 is Linux's IPv6. */
static int capture_family_version(uint32_t family)
{
	if (family == 2)
		return 4;
	if (family == 10 || family == 24 || family == 28 || family == 30)
		return 6;
	return -1;
}

enum capture_frame_result capture_frame_decode(int link, const uint8_t *frame, size_t caplen,
                                               size_t len, struct capture_packet *p)
{
	(void)len; /* the IP header's own length says what the packet was */
	memset(p, 0, sizeof(*p));
	size_t at;
	int version;
	switch (link) {
	case CAPTURE_LINK_ETHERNET: {
		if (caplen < 14)
			return CAPTURE_FRAME_MALFORMED;
		uint16_t type = capture_be16(frame + 12);
		at = 14;
		while (type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ) {
			if (caplen < at + 4)
				return CAPTURE_FRAME_MALFORMED;
			type = capture_be16(frame + at + 2);
			at += 4;
		}
		version = capture_ethertype_version(type);
		break;
	}
	case CAPTURE_LINK_LINUX_SLL:
		if (caplen < 16)
			return CAPTURE_FRAME_MALFORMED;
		version = capture_ethertype_version(capture_be16(frame + 14));
		at = 16;
		break;
	case CAPTURE_LINK_LINUX_SLL2:
		if (caplen < 20)
			return CAPTURE_FRAME_MALFORMED;
		version = capture_ethertype_version(capture_be16(frame));
		at = 20;
		break;
	case CAPTURE_LINK_NULL:
	case CAPTURE_LINK_LOOP: {
		if (caplen < 4)
			return CAPTURE_FRAME_MALFORMED;
		uint32_t family;
		if (link == CAPTURE_LINK_LOOP)
			family = capture_be32(frame);
		else
			memcpy(&family, frame, 4); /* the capturing host's byte order */
		version = capture_family_version(family);
		if (version < 0 &&
		    link == CAPTURE_LINK_NULL) /* written on a host of the other order */
			version = capture_family_version(__builtin_bswap32(family));
		at = 4;
		break;
	}
	case CAPTURE_LINK_RAW:
		version = 0;
		at = 0;
		break;
	case CAPTURE_LINK_IPV4:
		version = 4;
		at = 0;
		break;
	case CAPTURE_LINK_IPV6:
		version = 6;
		at = 0;
		break;
	default:
		return CAPTURE_FRAME_OTHER;
	}
	if (version < 0)
		return CAPTURE_FRAME_OTHER;
	return capture_ip(frame + at, caplen - at, version, p);
}
