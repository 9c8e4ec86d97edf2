/* querydata/capture.h - the DNS queries of a packet capture (pcap or pcapng, read by libpcap): each
 * with its capture time, its client and its transport, and the capture's statistics. */
#ifndef ALLOCSPIKE_QUERYDATA_CAPTURE_H
#define ALLOCSPIKE_QUERYDATA_CAPTURE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "capture_dns.h"
#include "capture_frame.h"

struct capture_stats {
	char link[64]; /* the capture's link type, by libpcap's name */
	uint64_t frames;
	uint64_t queries, queries_udp, queries_tcp, queries_ipv4, queries_ipv6;
	uint64_t responses; /* DNS messages with QR set (answers), skipped */
	uint64_t not_dns;   /* frames that are not UDP or TCP to the server port (or fragments) */
	uint64_t malformed; /* frames or messages to the server port that do not read as a query */
	uint64_t tcp_gaps, tcp_retransmissions; /* capture_tcp.h */
	uint64_t reordered; /* queries stamped before the one before them (written at its time) */
	uint64_t clients;
	uint64_t first_frame_ns, last_frame_ns; /* realtime stamps, 0 without frames */
	uint64_t first_query_ns, last_query_ns; /* the same for queries */
};

/* One query, handed over in capture order. */
struct capture_query {
	uint64_t t_ns; /* since the first query, never less than the one before */
	uint32_t client;
	const char *client_identity; /* its address in text when this is the client's first query,
	                                else NULL */
	enum capture_transport transport;
	const struct capture_dns_question *question;
};

typedef bool (*capture_query_fn)(void *ctx, const struct capture_query *q);

/* Reads the capture at path: the queries to server_port (0: to any port) over UDP and TCP, handed
 * to on_query (which returns false to stop: a write error) in capture order; fills st. False with
 * "path: reason" or "path: frame N: reason" in err when the file is not a capture libpcap reads,
 * its link type is not one capture_frame.h decodes, or a frame cannot be read (a truncated file). A
 * client is a source address (capture.c says why not address and port). */
bool capture_read(const char *path, uint16_t server_port, capture_query_fn on_query, void *ctx,
                  struct capture_stats *st, char *err, size_t err_size);

/* The statistics as one JSON object, and as readable text. */
json_t *capture_stats_to_json(const struct capture_stats *st, const char *path);
void capture_stats_print_text(const struct capture_stats *st, const char *path, FILE *out);

#endif
