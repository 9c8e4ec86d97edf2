/* querydata/capture_tcp.h - DNS over TCP in a capture: each client-to-server byte stream put back
 * together from its in-order segments and cut into messages at their 2-byte length prefixes. */
#ifndef ALLOCSPIKE_QUERYDATA_CAPTURE_TCP_H
#define ALLOCSPIKE_QUERYDATA_CAPTURE_TCP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture_frame.h"

struct capture_tcp_flow;

struct capture_tcp {
	struct capture_tcp_flow **buckets;
	size_t bucket_count;
	size_t flows;
	uint64_t gaps;            /* streams abandoned at a missing or out-of-order segment */
	uint64_t retransmissions; /* segments (or their parts) already seen, ignored */
};

/* Each message found: msg (len bytes, whole) of the packet whose segment completed it, and the
 * time the client sent it: the SYN's for a connection's first message (the client opened the
 * connection to send it, so a replay that opens it at that time sends it as the client did), the
 * completing frame's for the others. */
typedef void (*capture_tcp_message_fn)(void *ctx, const struct capture_packet *p,
                                       const uint8_t *msg, size_t len, uint64_t t_ns);

bool capture_tcp_init(struct capture_tcp *t);
void capture_tcp_free(struct capture_tcp *t);

/* One segment of a stream towards the server. The stream starts at a SYN, or at the first segment
 * seen (a capture begun mid-connection: taken to start at a message). A segment ahead of the next
 * expected byte (one missing or out of order) abandons the stream's partial message and ignores
 * the flow until a new SYN: counted in gaps. FIN and RST end the flow. frame_ns: the frame's
 * capture time. False when out of memory. */
bool capture_tcp_segment(struct capture_tcp *t, const struct capture_packet *p, uint64_t frame_ns,
                         capture_tcp_message_fn on_message, void *ctx);

#endif
