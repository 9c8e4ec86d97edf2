/* tests/daemons/answers.c - allocspike-test-answers: asks one resolver every distinct query of a
 * query file and prints each answer in a normalised form, so two resolvers' outputs can be diffed.
 *
 * Usage: allocspike-test-answers -s ADDR:PORT -d QUERYFILE [--count N] [--inflight N]
 *                                [--timeout-ms MS] [--tries N]
 * Output, one line per distinct (name, type) in file order, tab-separated:
 *   NAME TYPE RCODE ANSWER AA
 * NAME is lower-cased with a trailing dot; RCODE is the mnemonic, or TIMEOUT after --tries
 * attempts; ANSWER is the answer section with TTLs zeroed, names in canonical (lower) case, one
 * record a string, sorted and joined by " | " ("-" when empty). Order and TTLs are thus ignored.
 * AA is "aa" when the answer is authoritative, which from a recursive resolver means it came from
 * its own local data (unbound's and kresd's special-use zones) rather than from iteration; "-"
 * otherwise.
 * Traffic goes only to loopback, at most --inflight queries at a time. */
#define _GNU_SOURCE
#include "close_stdout.h"
#include "queryfile.h"
#include "sockaddr_parse.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <ldns/ldns.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct answers_query {
	char *name; /* lower case, trailing dot */
	uint16_t qtype;
	char *result; /* "RCODE\tANSWER\tAA", NULL while pending */
	int tries;
	long long deadline_ms;
	uint16_t id;
	bool inflight;
};

struct answers_opts {
	struct sockaddr_storage server;
	socklen_t server_len;
	const char *file;
	size_t count, inflight;
	int timeout_ms, tries;
};

static long long answers_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void answers_die(const char *what)
{
	fprintf(stderr, "allocspike-test-answers: %s\n", what);
	exit(2);
}

/* Distinct (name, type) pairs, first count of them, in file order; names lower-cased. */
static struct answers_query *answers_load(const struct answers_opts *o, size_t *n)
{
	char err[512];
	struct queryfile *qf =
	    queryfile_open(o->file, false, queryfile_report_stderr, NULL, err, sizeof(err));
	if (!qf)
		answers_die(err);
	struct answers_query *q = calloc(o->count, sizeof(*q));
	/* Open-addressing set of "type:name" keys; 4x the wanted count keeps probes short. */
	size_t slots = o->count * 4 + 1;
	char **set = calloc(slots, sizeof(*set));
	if (!q || !set)
		answers_die("out of memory");
	struct queryfile_entry e;
	int rc;
	*n = 0;
	while (*n < o->count && (rc = queryfile_next(qf, &e)) == 1) {
		char key[QUERYFILE_NAME_MAX + 16];
		int len = snprintf(key, sizeof(key), "%u:%s%s", e.qtype, e.name,
		                   e.name_len && e.name[e.name_len - 1] == '.' ? "" : ".");
		for (char *c = key; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		size_t h = 5381;
		for (int i = 0; i < len; i++)
			h = h * 33 + (unsigned char)key[i];
		size_t at = h % slots;
		while (set[at] && strcmp(set[at], key) != 0)
			at = (at + 1) % slots;
		if (set[at])
			continue;
		set[at] = strdup(key);
		q[*n].name = strdup(strchr(set[at], ':') + 1);
		q[*n].qtype = e.qtype;
		(*n)++;
	}
	if (rc < 0)
		answers_die(queryfile_error(qf));
	queryfile_close(qf);
	for (size_t i = 0; i < slots; i++)
		free(set[i]);
	free(set);
	return q;
}

static int answers_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "RCODE\tANSWER\tAA" for a parsed response, normalised as the header comment says. */
static char *answers_normalise(ldns_pkt *pkt)
{
	char *rcode = ldns_pkt_rcode2str(ldns_pkt_get_rcode(pkt));
	ldns_rr_list *an = ldns_pkt_answer(pkt);
	size_t n = an ? ldns_rr_list_rr_count(an) : 0;
	char **rrs = calloc(n + 1, sizeof(*rrs));
	size_t total = strlen(rcode) + 16;
	for (size_t i = 0; i < n; i++) {
		ldns_rr *rr = ldns_rr_clone(ldns_rr_list_rr(an, i));
		ldns_rr_set_ttl(rr, 0);
		ldns_rr2canonical(rr); /* lower-cases the owner and the names inside rdata */
		rrs[i] = ldns_rr2str(rr);
		ldns_rr_free(rr);
		size_t len = strlen(rrs[i]);
		while (len && (rrs[i][len - 1] == '\n' || rrs[i][len - 1] == ' '))
			rrs[i][--len] = '\0';
		for (char *c = rrs[i]; *c; c++)
			if (*c == '\t')
				*c = ' ';
		total += len + 3;
	}
	qsort(rrs, n, sizeof(*rrs), answers_cmp);
	char *out = malloc(total);
	size_t at = (size_t)sprintf(out, "%s\t", rcode);
	if (n == 0)
		at += (size_t)sprintf(out + at, "-");
	for (size_t i = 0; i < n; i++) {
		at += (size_t)sprintf(out + at, "%s%s", i ? " | " : "", rrs[i]);
		free(rrs[i]);
	}
	sprintf(out + at, "\t%s", ldns_pkt_aa(pkt) ? "aa" : "-");
	free(rrs);
	free(rcode);
	return out;
}

/* A truncated UDP answer is asked again over TCP, synchronously (rare: EDNS 4096 is offered). */
static ldns_pkt *answers_tcp(const struct answers_opts *o, const uint8_t *query, size_t len)
{
	struct timeval tv = {.tv_sec = o->timeout_ms / 1000,
	                     .tv_usec = (o->timeout_ms % 1000) * 1000};
	ldns_buffer *qbuf = ldns_buffer_new(len);
	ldns_buffer_write(qbuf, query, len);
	ldns_buffer_flip(qbuf);
	size_t answer_len = 0;
	uint8_t *answer = NULL;
	ldns_pkt *pkt = NULL;
	if (ldns_tcp_send(&answer, qbuf, &o->server, o->server_len, tv, &answer_len) ==
	    LDNS_STATUS_OK) {
		if (ldns_wire2pkt(&pkt, answer, answer_len) != LDNS_STATUS_OK)
			pkt = NULL;
	}
	free(answer);
	ldns_buffer_free(qbuf);
	return pkt;
}

static void answers_parse_opts(int argc, char **argv, struct answers_opts *o)
{
	static const struct option longopts[] = {
	    {"count", required_argument, NULL, 'c'},
	    {"inflight", required_argument, NULL, 'i'},
	    {"timeout-ms", required_argument, NULL, 't'},
	    {"tries", required_argument, NULL, 'r'},
	    {NULL, 0, NULL, 0},
	};
	memset(o, 0, sizeof(*o));
	o->count = 10000;
	o->inflight = 50;
	o->timeout_ms = 3000;
	o->tries = 3;
	char err[256];
	int c;
	while ((c = getopt_long(argc, argv, "s:d:", longopts, NULL)) != -1) {
		char *end = NULL;
		long v = 0;
		if (c == 'c' || c == 'i' || c == 't' || c == 'r') {
			v = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || v <= 0 || v > 10000000) {
				fprintf(stderr,
				        "allocspike-test-answers: --%s: '%s' is not a positive "
				        "number\n",
				        c == 'c'   ? "count"
				        : c == 'i' ? "inflight"
				        : c == 't' ? "timeout-ms"
				                   : "tries",
				        optarg);
				exit(2);
			}
		}
		switch (c) {
		case 's':
			if (!sockaddr_parse(optarg, 53, &o->server, &o->server_len, err,
			                    sizeof(err))) {
				fprintf(stderr, "allocspike-test-answers: -s: %s\n", err);
				exit(2);
			}
			if (!sockaddr_is_loopback((struct sockaddr *)&o->server))
				answers_die("-s: only loopback servers may be queried");
			break;
		case 'd':
			o->file = optarg;
			break;
		case 'c':
			o->count = (size_t)v;
			break;
		case 'i':
			o->inflight = v > 1000 ? 1000 : (size_t)v;
			break;
		case 't':
			o->timeout_ms = (int)v;
			break;
		case 'r':
			o->tries = (int)v;
			break;
		default:
			answers_die(
			    "usage: allocspike-test-answers -s ADDR:PORT -d QUERYFILE [--count N] "
			    "[--inflight N] [--timeout-ms MS] [--tries N]");
		}
	}
	if (!o->file || o->server_len == 0)
		answers_die("-s ADDR:PORT and -d QUERYFILE are required");
}

int main(int argc, char **argv)
{
	close_stdout_at_exit("allocspike-test-answers");
	struct answers_opts o;
	answers_parse_opts(argc, argv, &o);
	size_t n;
	struct answers_query *q = answers_load(&o, &n);

	int fd = socket(o.server.ss_family, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&o.server, o.server_len) != 0)
		answers_die(strerror(errno));
	/* id -> query index + 1; a reply is also checked against its question before it counts. */
	static size_t by_id[65536];
	uint16_t next_id = (uint16_t)getpid();
	size_t next = 0, done = 0, inflight = 0, nretry = 0;
	size_t *retry = calloc(n + 1, sizeof(*retry));
	uint8_t buf[65536];
	while (done < n) {
		long long now = answers_now_ms();
		/* Expired queries are asked again, or given up after --tries attempts. */
		for (size_t i = 0; i < n && inflight; i++) {
			if (!q[i].inflight || q[i].deadline_ms > now)
				continue;
			q[i].inflight = false;
			inflight--;
			by_id[q[i].id] = 0;
			if (q[i].tries >= o.tries) {
				q[i].result = strdup("TIMEOUT\t-\t-");
				done++;
			} else {
				retry[nretry++] = i;
			}
		}
		/* Fill the window: retries first, then new queries in file order. */
		while (inflight < o.inflight && (nretry || next < n)) {
			size_t i = nretry ? retry[--nretry] : next++;
			uint8_t wire[512];
			while (by_id[next_id])
				next_id++;
			size_t len = queryfile_wire_query(q[i].name, strlen(q[i].name), q[i].qtype,
			                                  next_id, 4096, wire, sizeof(wire));
			if (len == 0) {
				q[i].result = strdup("BADNAME\t-\t-");
				done++;
				continue;
			}
			/* A failed send counts as a try; the deadline brings it back. */
			if (send(fd, wire, len, 0) != (ssize_t)len && errno != EAGAIN &&
			    errno != ECONNREFUSED)
				answers_die(strerror(errno));
			q[i].id = next_id++;
			by_id[q[i].id] = i + 1;
			q[i].inflight = true;
			q[i].tries++;
			q[i].deadline_ms = now + o.timeout_ms;
			inflight++;
		}
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		if (poll(&pfd, 1, 50) <= 0)
			continue;
		ssize_t got;
		while ((got = recv(fd, buf, sizeof(buf), 0)) > 0) {
			if (got < 12)
				continue;
			uint16_t id = (uint16_t)(buf[0] << 8 | buf[1]);
			size_t slot = by_id[id];
			ldns_pkt *pkt = NULL;
			if (slot == 0 || ldns_wire2pkt(&pkt, buf, (size_t)got) != LDNS_STATUS_OK)
				continue;
			struct answers_query *a = &q[slot - 1];
			ldns_rr_list *qs = ldns_pkt_question(pkt);
			ldns_rr *question =
			    qs && ldns_rr_list_rr_count(qs) ? ldns_rr_list_rr(qs, 0) : NULL;
			char *qname = question ? ldns_rdf2str(ldns_rr_owner(question)) : NULL;
			bool match = qname && strcasecmp(qname, a->name) == 0 &&
			             ldns_rr_get_type(question) == a->qtype;
			free(qname);
			if (!match) {
				ldns_pkt_free(pkt);
				continue;
			}
			if (ldns_pkt_tc(pkt)) {
				uint8_t wire[512];
				size_t len = queryfile_wire_query(
				    a->name, strlen(a->name), a->qtype, id, 0, wire, sizeof(wire));
				ldns_pkt_free(pkt);
				pkt = answers_tcp(&o, wire, len);
			}
			by_id[id] = 0;
			a->inflight = false;
			inflight--;
			if (!pkt) { /* TCP failed: asked again, or given up, like a lost UDP answer
				     */
				if (a->tries >= o.tries) {
					a->result = strdup("TIMEOUT\t-\t-");
					done++;
				} else {
					retry[nretry++] = (size_t)(a - q);
				}
				continue;
			}
			a->result = answers_normalise(pkt);
			ldns_pkt_free(pkt);
			done++;
		}
	}
	for (size_t i = 0; i < n; i++) {
		char type[16];
		queryfile_type_format(q[i].qtype, type, sizeof(type));
		printf("%s\t%s\t%s\n", q[i].name, type, q[i].result);
		free(q[i].name);
		free(q[i].result);
	}
	free(q);
	free(retry);
	close(fd);
	return 0;
}
