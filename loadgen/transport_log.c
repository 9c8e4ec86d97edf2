/* loadgen/transport_log.c - transports.csv: per target, per interval and per transport, the
 * queries, answers, latency and connections (docs/run-folder.md). */
#include "transport_log.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char transport_log_header[] =
    "t_s,variant,transport,sent,answered,lat_p50_ms,lat_p95_ms,open,connects,handshakes,"
    "resumed,connect_failures,handshake_failures,resets,closed_by_server,closed_idle,"
    "lost_in_flight,dropped,retried,server_tcp_open,server_tls_open,server_conn_bytes";

enum { LOG_UDP, LOG_TCP, LOG_DOT };

/* Whether the clients of a target send over each transport (as the summary shows them). */
static bool transport_log_has(const struct tcp_clients *s, int transport)
{
	const struct client_model *m = s->model;
	switch (transport) {
	case LOG_UDP:
		return m->client_of || m->tcp + m->dot < m->clients;
	case LOG_TCP: /* TCP clients, UDP ones that retry over TCP, DoT ones of a dot=tcp target */
		return m->dot < m->clients || s->dot_as_tcp;
	default:
		return m->dot > 0 && !s->dot_as_tcp;
	}
}

/* A first line equal to the header, or none. */
static bool transport_log_header_ok(int fd, const char *path, char *err, size_t err_size)
{
	char line[sizeof(transport_log_header) + 1];
	ssize_t n = pread(fd, line, sizeof(line) - 1, 0);
	if (n < 0) {
		snprintf(err, err_size, "%s: %s", path, strerror(errno));
		return false;
	}
	line[n] = '\0';
	size_t want = strlen(transport_log_header);
	if (n == 0 || ((size_t)n == want + 1 && memcmp(line, transport_log_header, want) == 0 &&
	               line[want] == '\n'))
		return true;
	snprintf(err, err_size, "%s: another header than this generator's (%s)", path,
	         transport_log_header);
	return false;
}

bool transport_log_open(struct transport_log *log, const char *dir,
                        const struct client_model *model, char *err, size_t err_size)
{
	memset(log, 0, sizeof(*log));
	log->fd = -1;
	if (!dir || !model)
		return true;
	snprintf(log->path, sizeof(log->path), "%s/transports.csv", dir);
	int fd = open(log->path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0) {
		snprintf(err, err_size, "%s: %s", log->path, strerror(errno));
		return false;
	}
	struct stat st;
	if (!transport_log_header_ok(fd, log->path, err, err_size) || fstat(fd, &st) != 0) {
		close(fd);
		return false;
	}
	log->fd = fd;
	if (st.st_size == 0) {
		char line[sizeof(transport_log_header) + 1];
		snprintf(line, sizeof(line), "%s\n", transport_log_header);
		if (write(fd, line, strlen(line)) != (ssize_t)strlen(line)) {
			snprintf(err, err_size, "%s: %s", log->path, strerror(errno));
			transport_log_close(log);
			return false;
		}
	}
	return true;
}

bool transport_log_prev_init(struct transport_log_prev *prev, const struct pacer_target *t)
{
	memset(prev, 0, sizeof(*prev));
	prev->hist = calloc(3, sizeof(*prev->hist));
	if (!prev->hist)
		return false;
	latency_hist_snapshot(&t->counters.latency, &prev->hist[0]);
	latency_hist_snapshot(&t->tcp.counters.latency, &prev->hist[1]);
	latency_hist_snapshot(&t->tcp.dot_counters.latency, &prev->hist[2]);
	return true;
}

void transport_log_prev_free(struct transport_log_prev *prev)
{
	free(prev->hist);
	prev->hist = NULL;
}

/* Appends to the interval's rows; out of memory, sets log->short_of_memory (the row is dropped). */
static void transport_log_printf(struct transport_log *log, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		int n = -1;
		if (log->text) {
			va_start(ap, fmt);
			n = vsnprintf(log->text + log->len, log->cap - log->len, fmt, ap);
			va_end(ap);
			if (n < 0)
				return;
			if (log->len + (size_t)n < log->cap) {
				log->len += (size_t)n;
				return;
			}
		}
		size_t cap = log->cap ? 2 * log->cap : 4096;
		while (n >= 0 && cap <= log->len + (size_t)n)
			cap *= 2;
		char *grown = realloc(log->text, cap);
		if (!grown) {
			log->short_of_memory = true;
			return;
		}
		log->text = grown;
		log->cap = cap;
	}
}

/* A cell: empty when NAN. */
static void transport_log_cell(struct transport_log *log, double v, bool decimals)
{
	if (isnan(v))
		transport_log_printf(log, ",");
	else
		transport_log_printf(log, decimals ? ",%.3f" : ",%.0f", v);
}

static double transport_log_q_ms(const struct latency_hist *h, double q)
{
	double ns = latency_hist_quantile(h, q);
	return ns < 0 ? NAN : ns / 1e6;
}

static void tcp_counters_read(const struct tcp_counters *c, struct tcp_counters *out)
{
	out->sent = counters_read(&c->sent);
	out->retried = counters_read(&c->retried);
	out->answered = counters_read(&c->answered);
	out->dropped = counters_read(&c->dropped);
	out->connects = counters_read(&c->connects);
	out->open = counters_read(&c->open);
	out->connect_failures = counters_read(&c->connect_failures);
	out->closed_by_server = counters_read(&c->closed_by_server);
	out->resets = counters_read(&c->resets);
	out->closed_idle = counters_read(&c->closed_idle);
	out->lost_in_flight = counters_read(&c->lost_in_flight);
	out->handshakes = counters_read(&c->handshakes);
	out->handshake_failures = counters_read(&c->handshake_failures);
	out->resumed = counters_read(&c->resumed);
}

/* The histogram of the interval's answers over UDP: the target's less TCP's and DoT's, bucket by
 * bucket (never below 0: the three copies are not taken at one instant). */
static void transport_log_udp_hist(const struct latency_hist *all, const struct latency_hist *tcp,
                                   const struct latency_hist *dot, struct latency_hist *out)
{
	out->count = 0;
	for (unsigned b = 0; b < LATENCY_HIST_BUCKETS; b++) {
		uint64_t streams = tcp->buckets[b] + dot->buckets[b];
		out->buckets[b] = all->buckets[b] > streams ? all->buckets[b] - streams : 0;
		out->count += out->buckets[b];
	}
}

void transport_log_rows(struct transport_log *log, struct transport_log_prev *prev, double t_s,
                        const char *name, const struct pacer_target *t,
                        const struct control_stats *server)
{
	const struct client_model *m = t->tcp.model;
	if (log->fd < 0 || !m || !prev->hist)
		return;
	struct latency_hist *h = malloc(7 * sizeof(*h)); /* now x3, the interval's x3, UDP's */
	if (!h)
		return;
	latency_hist_snapshot(&t->counters.latency, &h[0]);
	latency_hist_snapshot(&t->tcp.counters.latency, &h[1]);
	latency_hist_snapshot(&t->tcp.dot_counters.latency, &h[2]);
	for (int i = 0; i < 3; i++)
		latency_hist_diff(&h[i], &prev->hist[i], &h[3 + i]);
	transport_log_udp_hist(&h[3], &h[4], &h[5], &h[6]);
	memcpy(prev->hist, h, 3 * sizeof(*h));

	struct tcp_counters now[2];
	tcp_counters_read(&t->tcp.counters, &now[0]);
	tcp_counters_read(&t->tcp.dot_counters, &now[1]);
	double sent_all = (double)counters_read(&t->counters.sent);
	double answered_all = (double)counters_read(&t->counters.answered);
	double tcp_open = server ? server->tcp_open : NAN,
	       tls_open = server ? server->tls_open : NAN;
	double conn_bytes = server ? server->tcp_conn_bytes : NAN;

	for (int tr = LOG_UDP; tr <= LOG_DOT; tr++) {
		if (!transport_log_has(&t->tcp, tr))
			continue;
		static const char *const names[] = {"udp", "tcp", "dot"};
		size_t row_start = log->len;
		transport_log_printf(log, "%.3f,%s,%s", t_s, name, names[tr]);
		const struct latency_hist *lat = tr == LOG_UDP ? &h[6] : &h[3 + tr];
		if (tr == LOG_UDP) {
			/* the target's counts less the streams' */
			double sent = sent_all - (double)now[0].sent - (double)now[1].sent;
			double answered =
			    answered_all - (double)now[0].answered - (double)now[1].answered;
			transport_log_printf(log, ",%.0f,%.0f", fmax(sent - prev->udp_sent, 0),
			                     fmax(answered - prev->udp_answered, 0));
			prev->udp_sent = sent;
			prev->udp_answered = answered;
		} else {
			const struct tcp_counters *n = &now[tr - 1], *p = &prev->stream[tr - 1];
			transport_log_printf(log, ",%llu,%llu",
			                     (unsigned long long)(n->sent - p->sent),
			                     (unsigned long long)(n->answered - p->answered));
		}
		transport_log_cell(log, transport_log_q_ms(lat, 0.5), true);
		transport_log_cell(log, transport_log_q_ms(lat, 0.95), true);
		if (tr == LOG_UDP) {
			transport_log_printf(log, ",,,,,,,,,,,,");
		} else {
			const struct tcp_counters *n = &now[tr - 1], *p = &prev->stream[tr - 1];
			uint64_t cells[] = {n->open,
			                    n->connects - p->connects,
			                    n->handshakes - p->handshakes,
			                    n->resumed - p->resumed,
			                    n->connect_failures - p->connect_failures,
			                    n->handshake_failures - p->handshake_failures,
			                    n->resets - p->resets,
			                    n->closed_by_server - p->closed_by_server,
			                    n->closed_idle - p->closed_idle,
			                    n->lost_in_flight - p->lost_in_flight,
			                    n->dropped - p->dropped,
			                    n->retried - p->retried};
			for (size_t i = 0; i < sizeof(cells) / sizeof(cells[0]); i++)
				transport_log_printf(log, ",%llu", (unsigned long long)cells[i]);
		}
		transport_log_cell(log, tcp_open, false);
		transport_log_cell(log, tls_open, false);
		transport_log_cell(log, conn_bytes, false);
		transport_log_printf(log, "\n");
		if (log->short_of_memory) { /* never half a row */
			log->len = row_start;
			log->short_of_memory = false;
		}
	}
	prev->stream[0] = now[0];
	prev->stream[1] = now[1];
	free(h);
}

bool transport_log_flush(struct transport_log *log)
{
	if (log->fd < 0 || log->len == 0)
		return log->fd >= 0 || !log->failed;
	size_t done = 0;
	while (done < log->len) {
		ssize_t n = write(log->fd, log->text + done, log->len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "allocspike-loadgen: %s: %s; no more rows written to it\n",
			        log->path, n < 0 ? strerror(errno) : strerror(ENOSPC));
			close(log->fd);
			log->fd = -1;
			log->failed = true;
			break;
		}
		done += (size_t)n;
	}
	log->len = 0;
	return !log->failed;
}

void transport_log_close(struct transport_log *log)
{
	transport_log_flush(log);
	if (log->fd >= 0)
		close(log->fd);
	log->fd = -1;
	free(log->text);
	log->text = NULL;
	log->len = log->cap = 0;
}
