/* querydata/capture.c - the DNS queries of a packet capture, read by libpcap.
 *
 * A client is a source address, not an address and port: stubs and forwarders pick a fresh random
 * source port for every UDP query (RFC 5452), and a TCP client's port names one connection, so a
 * port would make nearly every query a client of its own. The address is the host that sends. */
#include "capture.h"

#include <arpa/inet.h>
#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>

#include "capture_tcp.h"

struct capture_client {
	uint8_t family; /* 0: free */
	uint8_t addr[16];
	uint32_t id;
};

struct capture_reader {
	uint16_t server_port;
	capture_query_fn on_query;
	void *ctx;
	struct capture_stats *st;
	struct capture_client *clients; /* open addressing, at most half full */
	size_t client_slots;
	uint64_t frame_ns; /* the frame being read */
	uint64_t last_t_ns;
	bool stopped; /* on_query said stop */
	bool out_of_memory;
};

static uint64_t capture_addr_hash(int family, const uint8_t *addr)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)family;
	for (int i = 0; i < 16; i++)
		h = (h ^ addr[i]) * 1099511628211ull;
	return h ^ h >> 29;
}

static bool capture_clients_grow(struct capture_reader *r)
{
	size_t slots = r->client_slots ? r->client_slots * 2 : 1024;
	struct capture_client *c = calloc(slots, sizeof(*c));
	if (!c)
		return false;
	for (size_t i = 0; i < r->client_slots; i++) {
		const struct capture_client *old = &r->clients[i];
		if (!old->family)
			continue;
		size_t j = capture_addr_hash(old->family, old->addr) % slots;
		while (c[j].family)
			j = (j + 1) % slots;
		c[j] = *old;
	}
	free(r->clients);
	r->clients = c;
	r->client_slots = slots;
	return true;
}

/* The client id of p's source address; *is_new when this is its first query. */
static bool capture_client_of(struct capture_reader *r, const struct capture_packet *p,
                              uint32_t *id, bool *is_new)
{
	if ((r->st->clients + 1) * 2 > r->client_slots && !capture_clients_grow(r))
		return false;
	size_t j = capture_addr_hash(p->family, p->src) % r->client_slots;
	while (r->clients[j].family) {
		if (r->clients[j].family == p->family &&
		    memcmp(r->clients[j].addr, p->src, 16) == 0) {
			*id = r->clients[j].id;
			*is_new = false;
			return true;
		}
		j = (j + 1) % r->client_slots;
	}
	r->clients[j].family = (uint8_t)p->family;
	memcpy(r->clients[j].addr, p->src, 16);
	r->clients[j].id = (uint32_t)r->st->clients++;
	*id = r->clients[j].id;
	*is_new = true;
	return true;
}

/* A DNS message from p's client to the server, sent at t_ns (capture_tcp_message_fn): a query is
 * handed over, anything else counted. */
static void capture_message(void *ctx, const struct capture_packet *p, const uint8_t *msg,
                            size_t len, uint64_t t_ns)
{
	struct capture_reader *r = ctx;
	struct capture_stats *st = r->st;
	struct capture_dns_question q;
	enum capture_dns_kind kind = capture_dns_read(msg, len, &q);
	if (kind == CAPTURE_DNS_RESPONSE) {
		st->responses++;
		return;
	}
	if (kind != CAPTURE_DNS_QUERY || r->stopped) {
		st->malformed += kind != CAPTURE_DNS_QUERY;
		return;
	}
	uint32_t client;
	bool is_new;
	if (!capture_client_of(r, p, &client, &is_new)) {
		r->out_of_memory = true;
		return;
	}
	if (st->queries == 0)
		st->first_query_ns = t_ns;
	uint64_t t = t_ns > st->first_query_ns ? t_ns - st->first_query_ns : 0;
	if (t < r->last_t_ns) {
		st->reordered++;
		t = r->last_t_ns;
	}
	r->last_t_ns = t;
	st->last_query_ns = t_ns > st->last_query_ns ? t_ns : st->last_query_ns;
	st->queries++;
	if (p->transport == CAPTURE_TCP)
		st->queries_tcp++;
	else
		st->queries_udp++;
	if (p->family == 4)
		st->queries_ipv4++;
	else
		st->queries_ipv6++;
	char identity[INET6_ADDRSTRLEN] = "";
	if (is_new)
		inet_ntop(p->family == 4 ? AF_INET : AF_INET6, p->src, identity, sizeof(identity));
	struct capture_query cq = {.t_ns = t,
	                           .client = client,
	                           .client_identity = is_new ? identity : NULL,
	                           .transport = p->transport,
	                           .question = &q};
	if (!r->on_query(r->ctx, &cq))
		r->stopped = true;
}

/* One frame of the capture. False when out of memory. */
static bool capture_frame(struct capture_reader *r, struct capture_tcp *tcp, int link,
                          const struct pcap_pkthdr *h, const uint8_t *data)
{
	struct capture_stats *st = r->st;
	struct capture_packet p;
	switch (capture_frame_decode(link, data, h->caplen, h->len, &p)) {
	case CAPTURE_FRAME_OTHER:
		st->not_dns++;
		return true;
	case CAPTURE_FRAME_MALFORMED:
		st->malformed++;
		return true;
	case CAPTURE_FRAME_PACKET:
		break;
	}
	if (r->server_port && p.dst_port != r->server_port) {
		/* the server's own packets are answers; anything else is other traffic */
		if (p.src_port == r->server_port && p.payload_len > 0)
			st->responses++;
		else
			st->not_dns++;
		return true;
	}
	if (p.transport == CAPTURE_TCP)
		return capture_tcp_segment(tcp, &p, r->frame_ns, capture_message, r) &&
		       !r->out_of_memory;
	if (p.payload_cut)
		st->malformed++;
	else
		capture_message(r, &p, p.payload, p.payload_len, r->frame_ns);
	return !r->out_of_memory;
}

bool capture_read(const char *path, uint16_t server_port, capture_query_fn on_query, void *ctx,
                  struct capture_stats *st, char *err, size_t err_size)
{
	memset(st, 0, sizeof(*st));
	char pcap_err[PCAP_ERRBUF_SIZE] = "";
	pcap_t *pc =
	    pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, pcap_err);
	if (!pc) {
		snprintf(err, err_size, "%s: not a capture libpcap reads (pcap or pcapng): %s",
		         path, pcap_err);
		return false;
	}
	int link = pcap_datalink(pc);
	const char *link_name = pcap_datalink_val_to_name(link);
	snprintf(st->link, sizeof(st->link), "%s", link_name ? link_name : "unknown");
	if (!capture_frame_link_supported(link)) {
		snprintf(
		    err, err_size,
		    "%s: link type %d (%s) is not one allocspike reads (Ethernet, Linux cooked "
		    "SLL/SLL2, raw IP, BSD loopback)",
		    path, link, st->link);
		pcap_close(pc);
		return false;
	}
	struct capture_reader r = {
	    .server_port = server_port, .on_query = on_query, .ctx = ctx, .st = st};
	struct capture_tcp tcp;
	bool ok = capture_tcp_init(&tcp);
	if (!ok)
		snprintf(err, err_size, "%s: out of memory", path);
	struct pcap_pkthdr *h;
	const uint8_t *data;
	int rc = 0;
	while (ok && !r.stopped && (rc = pcap_next_ex(pc, &h, &data)) == 1) {
		st->frames++;
		r.frame_ns = (uint64_t)h->ts.tv_sec * 1000000000u + (uint64_t)h->ts.tv_usec;
		if (st->frames == 1)
			st->first_frame_ns = r.frame_ns;
		if (r.frame_ns > st->last_frame_ns)
			st->last_frame_ns = r.frame_ns;
		if (!capture_frame(&r, &tcp, link, h, data)) {
			snprintf(err, err_size, "%s: frame %llu: out of memory", path,
			         (unsigned long long)st->frames);
			ok = false;
		}
	}
	if (ok && rc == PCAP_ERROR) {
		snprintf(err, err_size, "%s: frame %llu: %s", path,
		         (unsigned long long)st->frames + 1, pcap_geterr(pc));
		ok = false;
	}
	if (ok && r.stopped) {
		snprintf(err, err_size, "write error");
		ok = false;
	}
	st->tcp_gaps = tcp.gaps;
	st->tcp_retransmissions = tcp.retransmissions;
	capture_tcp_free(&tcp);
	free(r.clients);
	pcap_close(pc);
	return ok;
}

static double capture_span_s(uint64_t first, uint64_t last)
{
	return last > first ? (double)(last - first) / 1e9 : 0;
}

json_t *capture_stats_to_json(const struct capture_stats *st, const char *path)
{
	return json_pack(
	    "{s:s, s:s, s:I, s:I, s:{s:I, s:I}, s:{s:I, s:I}, s:I, s:I, s:I, s:I, "
	    "s:I, s:I, s:I, s:f, s:f}",
	    "file", path, "link", st->link, "frames", (json_int_t)st->frames, "queries",
	    (json_int_t)st->queries, "transports", "udp", (json_int_t)st->queries_udp, "tcp",
	    (json_int_t)st->queries_tcp, "families", "ipv4", (json_int_t)st->queries_ipv4, "ipv6",
	    (json_int_t)st->queries_ipv6, "responses", (json_int_t)st->responses, "not_dns",
	    (json_int_t)st->not_dns, "malformed", (json_int_t)st->malformed, "tcp_gaps",
	    (json_int_t)st->tcp_gaps, "tcp_retransmissions", (json_int_t)st->tcp_retransmissions,
	    "reordered", (json_int_t)st->reordered, "clients", (json_int_t)st->clients,
	    "duration_s", capture_span_s(st->first_frame_ns, st->last_frame_ns),
	    "queries_duration_s", capture_span_s(st->first_query_ns, st->last_query_ns));
}

void capture_stats_print_text(const struct capture_stats *st, const char *path, FILE *out)
{
	double span = capture_span_s(st->first_query_ns, st->last_query_ns);
	fprintf(out, "capture: %s (link type %s)\n", path, st->link);
	fprintf(out, "frames: %llu over %.6f s\n", (unsigned long long)st->frames,
	        capture_span_s(st->first_frame_ns, st->last_frame_ns));
	fprintf(out, "queries: %llu (udp %llu, tcp %llu; ipv4 %llu, ipv6 %llu) over %.6f s",
	        (unsigned long long)st->queries, (unsigned long long)st->queries_udp,
	        (unsigned long long)st->queries_tcp, (unsigned long long)st->queries_ipv4,
	        (unsigned long long)st->queries_ipv6, span);
	if (span > 0)
		fprintf(out, ", %.1f per second", (double)(st->queries - 1) / span);
	fprintf(out, "\nclients: %llu (source addresses)\n", (unsigned long long)st->clients);
	fprintf(out, "skipped: %llu responses, %llu not DNS, %llu malformed\n",
	        (unsigned long long)st->responses, (unsigned long long)st->not_dns,
	        (unsigned long long)st->malformed);
	fprintf(out,
	        "tcp: %llu streams broken by a missing segment, %llu retransmissions ignored\n",
	        (unsigned long long)st->tcp_gaps, (unsigned long long)st->tcp_retransmissions);
	if (st->reordered)
		fprintf(out, "reordered: %llu queries stamped before the one before them\n",
		        (unsigned long long)st->reordered);
}
