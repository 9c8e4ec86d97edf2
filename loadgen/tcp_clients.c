/* loadgen/tcp_clients.c - one target's TCP and DoT clients: sends each such client's queries on
 * its own connection, and a truncated UDP answer's query again over its client's TCP connection. */
#include "tcp_clients.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monotonic.h"

bool tcp_clients_init(struct tcp_clients *s, const struct tcp_shared *shared,
                      const struct client_model *model, const struct tls_client *tls, char *err,
                      size_t err_size)
{
	memset(s, 0, sizeof(*s));
	const struct target_spec *t = shared->target;
	s->shared = *shared;
	s->shared.counters = &s->counters;
	s->shared.tls = NULL;
	s->shared.addr = &t->addr;
	s->shared.addr_len = t->addr_len;
	/* a target with dot=tcp has no DNS over TLS: its DoT clients are TCP clients to it */
	s->dot_as_tcp = t->dot_as_tcp;
	s->dot_shared = s->dot_as_tcp ? s->shared : *shared;
	if (!s->dot_as_tcp) {
		s->dot_shared.counters = &s->dot_counters;
		s->dot_shared.tls = tls;
		s->dot_shared.addr = t->has_dot_addr ? &t->dot_addr : &t->addr;
		s->dot_shared.addr_len = t->has_dot_addr ? t->dot_addr_len : t->addr_len;
	}
	s->model = model;
	latency_hist_init(&s->counters.latency);
	latency_hist_init(&s->dot_counters.latency);
	s->by_client = calloc(model->clients_max, sizeof(*s->by_client));
	if (!s->by_client) {
		snprintf(err, err_size, "target %s: out of memory for %llu TCP clients",
		         shared->target->name, (unsigned long long)model->clients_max);
		return false;
	}
	return true;
}

static bool tcp_clients_dot(const struct tcp_clients *s, uint64_t client)
{
	return client_model_transport(s->model, client) == CLIENT_DOT;
}

static struct tcp_client *tcp_clients_of(struct tcp_clients *s, uint64_t k)
{
	uint64_t client = client_model_client(s->model, k);
	struct tcp_client **c = &s->by_client[client];
	if (!*c)
		*c = tcp_client_new(tcp_clients_dot(s, client) ? &s->dot_shared : &s->shared);
	return *c;
}

/* Query k over its client's connection. */
static bool tcp_clients_write(struct tcp_clients *s, uint64_t k, uint64_t now_ns)
{
	struct tcp_client *c = tcp_clients_of(s, k);
	return c && tcp_client_send(c, k, now_ns);
}

void tcp_clients_send(struct tcp_clients *s, uint64_t first, unsigned n, uint64_t now_ns)
{
	struct matcher *m = s->shared.matcher;
	for (uint64_t k = first; k < first + n; k++) {
		enum client_transport transport = client_model_query_transport(s->model, k);
		if (transport == CLIENT_UDP || transport == CLIENT_ELSEWHERE)
			continue;
		if (!tcp_clients_write(s, k, now_ns)) {
			counters_add(&m->counters->send_errors, 1);
			continue;
		}
		size_t len;
		querystream_message(s->shared.queries, k, &len);
		matcher_sent(m, k, now_ns, querystream_question(s->shared.queries, k));
		counters_add(&m->counters->sent, 1);
		counters_add(&m->counters->bytes_sent, len);
		counters_add(
		    &(transport == CLIENT_DOT ? s->dot_shared.counters : &s->counters)->sent, 1);
	}
}

void tcp_clients_retry(void *arg, uint64_t k)
{
	struct tcp_clients *s = arg;
	if (tcp_clients_write(s, k, realtime_ns()))
		counters_add(&s->counters.retried, 1);
}

void tcp_clients_close(struct tcp_clients *s)
{
	if (s->by_client)
		for (uint64_t c = 0; c < s->model->clients_max; c++)
			tcp_client_free(s->by_client[c]);
	free(s->by_client);
	s->by_client = NULL;
}
