/* querydata/capture_frame.h - one captured frame taken apart: link layer, IPv4 or IPv6, UDP or TCP,
 * down to the transport's payload. No libpcap here: the link type is a number, the frame bytes. */
#ifndef ALLOCSPIKE_QUERYDATA_CAPTURE_FRAME_H
#define ALLOCSPIKE_QUERYDATA_CAPTURE_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The link types decoded (libpcap's DLT_ numbers as pcap_datalink returns them on Linux). */
#define CAPTURE_LINK_NULL 0        /* BSD loopback: 4-byte address family, host byte order */
#define CAPTURE_LINK_ETHERNET 1    /* with 802.1Q/802.1ad VLAN tags */
#define CAPTURE_LINK_RAW 12        /* raw IP, version from the first nibble (LINKTYPE_RAW 101) */
#define CAPTURE_LINK_LOOP 108      /* OpenBSD loopback: the family in network byte order */
#define CAPTURE_LINK_LINUX_SLL 113 /* Linux cooked capture (tcpdump -i any) */
#define CAPTURE_LINK_IPV4 228
#define CAPTURE_LINK_IPV6 229
#define CAPTURE_LINK_LINUX_SLL2 276

enum capture_transport { CAPTURE_UDP, CAPTURE_TCP };

#define CAPTURE_TCP_SYN 0x02
#define CAPTURE_TCP_FIN 0x01
#define CAPTURE_TCP_RST 0x04

struct capture_packet {
	int family;               /* 4 or 6 */
	uint8_t src[16], dst[16]; /* addresses (IPv4 in the first 4 bytes, the rest zero) */
	uint16_t src_port, dst_port;
	enum capture_transport transport;
	uint32_t tcp_seq;
	uint8_t tcp_flags;
	const uint8_t *payload;
	size_t payload_len; /* the bytes at hand (a snap length may have cut the frame) */
	bool payload_cut;   /* the frame was captured shorter than the packet: payload incomplete */
};

enum capture_frame_result {
	CAPTURE_FRAME_PACKET,    /* *p describes a UDP or TCP packet */
	CAPTURE_FRAME_OTHER,     /* not IP, not UDP/TCP, or a fragment: no DNS here */
	CAPTURE_FRAME_MALFORMED, /* headers cut short or inconsistent */
};

/* True when link is one of the types above. */
bool capture_frame_link_supported(int link);

/* Takes frame (caplen bytes captured of a wire length of len) of link type link apart. */
enum capture_frame_result capture_frame_decode(int link, const uint8_t *frame, size_t caplen,
                                               size_t len, struct capture_packet *p);

#endif
