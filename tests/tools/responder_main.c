/* tests/tools/responder_main.c - allocspike-test-responder: a UDP/TCP DNS server answering from
 * fixtures. */
#include "close_stdout.h"
#include "dns_tcp.h"
#include "parent_death.h"
#include "responder_count.h"
#include "responder_fixture.h"
#include "sockaddr_parse.h"
#include "tls_server.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <getopt.h>
#include <ldns/ldns.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define RESPONDER_MAX_LISTEN 16

struct responder {
	struct event_base *base;
	struct fixture_set fixtures;
	bool silent;
	FILE *log;
	const char *count_path;
	struct responder_count count;
	uint64_t received, answered, malformed;
	struct tls_server *tls; /* --tls-cert/--tls-key: the TCP port speaks DNS over TLS */
};

/* A reply waiting for its fixture's delay. */
struct responder_delayed {
	int fd;
	struct sockaddr_storage to;
	socklen_t to_len;
	uint8_t *wire;
	size_t wire_len;
};

static double responder_monotonic_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void responder_log_query(struct responder *r, const struct sockaddr *from, const ldns_pkt *q,
                                const char *transport)
{
	if (!r->log)
		return;
	struct timespec ts;
	char addr[80];
	clock_gettime(CLOCK_REALTIME, &ts);
	sockaddr_format(from, addr, sizeof(addr));
	if (!q) {
		fprintf(r->log, "%lld.%06ld %s - MALFORMED - %s\n", (long long)ts.tv_sec,
		        ts.tv_nsec / 1000, addr, transport);
		fflush(r->log);
		return;
	}
	char *qname = NULL;
	char *qtype = NULL;
	ldns_rr_list *ql = ldns_pkt_question(q);
	if (ldns_rr_list_rr_count(ql) > 0) {
		ldns_rr *rr = ldns_rr_list_rr(ql, 0);
		qname = ldns_rdf2str(ldns_rr_owner(rr));
		qtype = ldns_rr_type2str(ldns_rr_get_type(rr));
	}
	fprintf(r->log, "%lld.%06ld %s %u %s %s %s\n", (long long)ts.tv_sec, ts.tv_nsec / 1000,
	        addr, ldns_pkt_id(q), qname ? qname : "-", qtype ? qtype : "-", transport);
	fflush(r->log);
	free(qname);
	free(qtype);
}

/* Parses and logs one query and builds its reply; returns the delay in ms, or -1 for no reply. */
static int responder_handle(struct responder *r, const uint8_t *buf, size_t len,
                            const struct sockaddr *from, enum fixture_transport transport,
                            uint8_t **wire, size_t *wire_len)
{
	const char *tname = transport == FIXTURE_TCP ? "tcp" : "udp";
	r->received++;
	if (r->count_path)
		responder_count_note(&r->count, responder_monotonic_s());
	if (r->silent && !r->log)
		return -1; /* the counting mode: no parse needed */
	ldns_pkt *q = NULL;
	if (ldns_wire2pkt(&q, buf, len) != LDNS_STATUS_OK || ldns_pkt_qr(q) ||
	    ldns_rr_list_rr_count(ldns_pkt_question(q)) != 1) {
		r->malformed++;
		responder_log_query(r, from, NULL, tname);
		ldns_pkt_free(q);
		return -1;
	}
	responder_log_query(r, from, q, tname);
	if (r->silent) {
		ldns_pkt_free(q);
		return -1;
	}
	ldns_rr *qrr = ldns_rr_list_rr(ldns_pkt_question(q), 0);
	char *qname = ldns_rdf2str(ldns_rr_owner(qrr));
	const struct fixture_entry *e =
	    fixture_match(&r->fixtures, qname ? qname : "", (int)ldns_rr_get_type(qrr), transport);
	free(qname);
	int delay = -1;
	if (e) {
		if (fixture_reply(e, q, wire, wire_len))
			delay = e->delay_ms;
	} else {
		/* no fixture for it: REFUSED, so a test sees the gap instead of a timeout */
		ldns_pkt *p = ldns_pkt_new();
		ldns_pkt_set_id(p, ldns_pkt_id(q));
		ldns_pkt_set_qr(p, true);
		ldns_pkt_set_rd(p, ldns_pkt_rd(q));
		ldns_pkt_set_rcode(p, LDNS_RCODE_REFUSED);
		ldns_pkt_push_rr(p, LDNS_SECTION_QUESTION, ldns_rr_clone(qrr));
		if (ldns_pkt2wire(wire, p, wire_len) == LDNS_STATUS_OK)
			delay = 0;
		ldns_pkt_free(p);
	}
	ldns_pkt_free(q);
	if (delay >= 0)
		r->answered++;
	return delay;
}

static void responder_delayed_fire(evutil_socket_t fd, short what, void *arg)
{
	struct responder_delayed *d = arg;
	(void)sendto(d->fd, d->wire, d->wire_len, 0, (struct sockaddr *)&d->to, d->to_len);
	free(d->wire);
	free(d);
}

static void responder_udp_read(evutil_socket_t fd, short what, void *arg)
{
	struct responder *r = arg;
	uint8_t buf[65536];
	/* drain what is queued, bounded so the loop still serves timers and TCP */
	for (int n = 0; n < 256; n++) {
		struct sockaddr_storage from;
		socklen_t from_len = sizeof(from);
		ssize_t got =
		    recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &from_len);
		if (got < 0)
			return;
		/* a reply's delay counts from now, not from the loop's cached time of its last
		 * wake-up */
		event_base_update_cache_time(r->base);
		uint8_t *wire = NULL;
		size_t wire_len = 0;
		int delay = responder_handle(r, buf, (size_t)got, (struct sockaddr *)&from,
		                             FIXTURE_UDP, &wire, &wire_len);
		if (delay == 0) {
			(void)sendto(fd, wire, wire_len, 0, (struct sockaddr *)&from, from_len);
			free(wire);
		} else if (delay > 0) {
			struct responder_delayed *d = calloc(1, sizeof(*d));
			if (!d) {
				free(wire);
				continue;
			}
			d->fd = fd;
			d->to = from;
			d->to_len = from_len;
			d->wire = wire;
			d->wire_len = wire_len;
			struct timeval tv = {delay / 1000, (delay % 1000) * 1000};
			if (event_base_once(r->base, -1, EV_TIMEOUT, responder_delayed_fire, d,
			                    &tv) != 0) {
				free(wire);
				free(d);
			}
		}
	}
}

static void responder_tcp_event(struct bufferevent *bev, short what, void *arg)
{
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		bufferevent_free(bev);
}

static void responder_tcp_read(struct bufferevent *bev, void *arg)
{
	struct responder *r = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	uint8_t *msg;
	size_t len;
	while (dns_tcp_next(in, &msg, &len)) {
		struct sockaddr_storage from;
		socklen_t from_len = sizeof(from);
		memset(&from, 0, sizeof(from));
		getpeername(bufferevent_getfd(bev), (struct sockaddr *)&from, &from_len);
		uint8_t *wire = NULL;
		size_t wire_len = 0;
		/* delays apply to UDP only: a TCP reply goes out at once */
		int delay = responder_handle(r, msg, len, (struct sockaddr *)&from, FIXTURE_TCP,
		                             &wire, &wire_len);
		evbuffer_drain(in, len);
		if (delay >= 0) {
			dns_tcp_write(bev, wire, wire_len);
			free(wire);
		}
	}
}

static void responder_tcp_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
                                 int salen, void *arg)
{
	struct responder *r = arg;
	struct bufferevent *bev = bufferevent_socket_new(r->base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (!bev) {
		close(fd);
		return;
	}
	if (r->tls) {
		struct bufferevent *tls = tls_server_wrap(r->tls, bev, NULL, NULL);
		if (!tls) {
			bufferevent_free(bev);
			return;
		}
		bev = tls;
	}
	bufferevent_setcb(bev, responder_tcp_read, NULL, responder_tcp_event, r);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
}

static void responder_tick(evutil_socket_t fd, short what, void *arg)
{
	struct responder *r = arg;
	if (r->count_path && r->count.dirty)
		responder_count_write(&r->count, r->count_path);
}

static void responder_stop(evutil_socket_t sig, short what, void *arg)
{
	event_base_loopbreak(arg);
}

/* Binds a UDP and a TCP socket on addr (port 0: the kernel picks one free for both). */
static bool responder_bind(struct sockaddr_storage *addr, socklen_t len, int *udp, int *tcp)
{
	for (int attempt = 0; attempt < 20; attempt++) {
		struct sockaddr_storage a = *addr;
		*udp = socket(a.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (*udp < 0 || bind(*udp, (struct sockaddr *)&a, len) != 0)
			goto fail_udp;
		socklen_t alen = len;
		getsockname(*udp, (struct sockaddr *)&a, &alen);
		*tcp = socket(a.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		int one = 1;
		setsockopt(*tcp, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (*tcp >= 0 && bind(*tcp, (struct sockaddr *)&a, len) == 0 &&
		    listen(*tcp, 64) == 0) {
			*addr = a;
			return true;
		}
		/* TCP port taken: only worth retrying when the port was ours to choose */
		close(*tcp);
		close(*udp);
		if (((struct sockaddr_in *)addr)->sin_port != 0)
			return false;
		continue;
	fail_udp:
		if (*udp >= 0)
			close(*udp);
		return false;
	}
	return false;
}

static void responder_usage(FILE *out)
{
	fprintf(
	    out,
	    "usage: allocspike-test-responder --listen ADDR:PORT [--fixture FILE]... [options]\n"
	    "  --listen ADDR:PORT   UDP and TCP address (repeatable; port 0 picks a free port,\n"
	    "                       later port-0 addresses reuse the first one's port)\n"
	    "  --fixture FILE       canned answers (repeatable; format in tests/tools/README.md)\n"
	    "  --log FILE           one line per query: time src id qname qtype transport\n"
	    "  --silent             never answer (queries are still logged and counted)\n"
	    "  --count-file FILE    queries per whole second since the first query\n"
	    "  --ready-file FILE    also write the 'ready ADDR:PORT' line there\n"
	    "  --tls-cert FILE --tls-key FILE\n"
	    "                       the TCP port speaks DNS over TLS with this certificate "
	    "(PEM)\n");
}

int main(int argc, char **argv)
{
	close_stdout_at_exit("allocspike-test-responder");
	parent_death_arm("allocspike-test-responder");
	static const struct option opts[] = {
	    {"listen", required_argument, NULL, 'l'},
	    {"fixture", required_argument, NULL, 'f'},
	    {"log", required_argument, NULL, 'L'},
	    {"silent", no_argument, NULL, 's'},
	    {"count-file", required_argument, NULL, 'c'},
	    {"ready-file", required_argument, NULL, 'r'},
	    {"tls-cert", required_argument, NULL, 'C'},
	    {"tls-key", required_argument, NULL, 'K'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	static struct responder r; /* static: an early exit leaves what it holds reachable */
	const char *listen_text[RESPONDER_MAX_LISTEN];
	int nlisten = 0;
	const char *ready_path = NULL;
	const char *log_path = NULL;
	const char *tls_cert = NULL, *tls_key = NULL;
	char err[1024];
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			if (nlisten == RESPONDER_MAX_LISTEN) {
				fprintf(stderr, "--listen: at most %d addresses\n",
				        RESPONDER_MAX_LISTEN);
				return 2;
			}
			listen_text[nlisten++] = optarg;
			break;
		case 'f':
			if (!fixture_load(&r.fixtures, optarg, err, sizeof(err))) {
				fprintf(stderr, "--fixture: %s\n", err);
				fixture_free(&r.fixtures);
				return 2;
			}
			break;
		case 'L':
			log_path = optarg;
			break;
		case 's':
			r.silent = true;
			break;
		case 'c':
			r.count_path = optarg;
			break;
		case 'r':
			ready_path = optarg;
			break;
		case 'C':
			tls_cert = optarg;
			break;
		case 'K':
			tls_key = optarg;
			break;
		case 'h':
			responder_usage(stdout);
			return 0;
		default:
			responder_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "unexpected argument '%s'\n", argv[optind]);
		return 2;
	}
	if (nlisten == 0) {
		fprintf(stderr, "--listen ADDR:PORT is required\n");
		responder_usage(stderr);
		return 2;
	}
	if (!tls_cert != !tls_key) {
		fprintf(stderr, "--tls-cert and --tls-key go together\n");
		return 2;
	}
	if (tls_cert && !(r.tls = tls_server_open(tls_cert, tls_key, err, sizeof(err)))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	if (log_path) {
		r.log = fopen(log_path, "a");
		if (!r.log) {
			fprintf(stderr, "--log %s: %s\n", log_path, strerror(errno));
			return 2;
		}
	}
	signal(SIGPIPE, SIG_IGN);
	r.base = event_base_new();
	if (!r.base) {
		fprintf(stderr, "event_base_new failed\n");
		return 1;
	}
	char ready[128] = "";
	int chosen_port = 0;
	struct event *udp_events[RESPONDER_MAX_LISTEN];
	struct evconnlistener *listeners[RESPONDER_MAX_LISTEN];
	for (int i = 0; i < nlisten; i++) {
		struct sockaddr_storage a;
		socklen_t alen;
		if (!sockaddr_parse(listen_text[i], -1, &a, &alen, err, sizeof(err))) {
			fprintf(stderr, "--listen: %s\n", err);
			return 2;
		}
		struct sockaddr_in *a4 = (struct sockaddr_in *)&a;
		struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&a;
		in_port_t *port = a.ss_family == AF_INET ? &a4->sin_port : &a6->sin6_port;
		if (*port == 0 && chosen_port)
			*port = htons((uint16_t)chosen_port);
		int udp, tcp;
		if (!responder_bind(&a, alen, &udp, &tcp)) {
			fprintf(stderr, "--listen %s: cannot bind UDP and TCP: %s\n",
			        listen_text[i], strerror(errno));
			return 1;
		}
		if (!chosen_port)
			chosen_port = ntohs(*port);
		if (i == 0)
			sockaddr_format((struct sockaddr *)&a, ready, sizeof(ready));
		udp_events[i] =
		    event_new(r.base, udp, EV_READ | EV_PERSIST, responder_udp_read, &r);
		event_add(udp_events[i], NULL);
		listeners[i] = evconnlistener_new(r.base, responder_tcp_accept, &r,
		                                  LEV_OPT_CLOSE_ON_FREE, -1, tcp);
	}
	struct event *tick = event_new(r.base, -1, EV_PERSIST, responder_tick, &r);
	struct timeval second = {1, 0};
	event_add(tick, &second);
	struct event *sigterm = evsignal_new(r.base, SIGTERM, responder_stop, r.base);
	struct event *sigint = evsignal_new(r.base, SIGINT, responder_stop, r.base);
	event_add(sigterm, NULL);
	event_add(sigint, NULL);

	printf("ready %s\n", ready);
	fflush(stdout);
	if (ready_path) {
		FILE *f = fopen(ready_path, "w");
		if (!f) {
			fprintf(stderr, "--ready-file %s: %s\n", ready_path, strerror(errno));
			return 1;
		}
		fprintf(f, "ready %s\n", ready);
		fclose(f);
	}
	event_base_dispatch(r.base);

	if (r.count_path && !responder_count_write(&r.count, r.count_path))
		fprintf(stderr, "--count-file %s: cannot write\n", r.count_path);
	fprintf(stderr, "received %llu answered %llu malformed %llu\n",
	        (unsigned long long)r.received, (unsigned long long)r.answered,
	        (unsigned long long)r.malformed);
	for (int i = 0; i < nlisten; i++) {
		close(event_get_fd(udp_events[i]));
		event_free(udp_events[i]);
		evconnlistener_free(listeners[i]);
	}
	event_free(tick);
	event_free(sigterm);
	event_free(sigint);
	event_base_free(r.base);
	responder_count_free(&r.count);
	fixture_free(&r.fixtures);
	tls_server_close(r.tls);
	if (r.log)
		fclose(r.log);
	return 0;
}
