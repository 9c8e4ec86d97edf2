/* loadgen/tcp_clients.h - one target's TCP and DoT clients: sends each such client's queries on
 * its own connection, and a truncated UDP answer's query again over its client's TCP connection. */
#ifndef ALLOCSPIKE_LOADGEN_TCP_CLIENTS_H
#define ALLOCSPIKE_LOADGEN_TCP_CLIENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "client_model.h"
#include "tcp_client.h"

struct tcp_clients {
	struct tcp_shared shared,
	    dot_shared; /* the TCP clients' (retries' too), the DoT clients' */
	const struct client_model *model;
	struct tcp_client *
	    *by_client; /* model->clients_max entries, each made at its first query */
	struct tcp_counters counters, dot_counters;
	bool dot_as_tcp; /* the target's dot=tcp: the DoT clients count as TCP ones */
};

/* Room for every client of model (any may retry over TCP), none connected yet; the DoT clients
 * with tls (NULL when the model has none). */
bool tcp_clients_init(struct tcp_clients *s, const struct tcp_shared *shared,
                      const struct client_model *model, const struct tls_client *tls, char *err,
                      size_t err_size);

/* Sends, among queries first .. first + n - 1, those of TCP and DoT clients, each on its client's
 * connection, and tells the matcher of each sent; one that cannot go counts in send_errors. */
void tcp_clients_send(struct tcp_clients *s, uint64_t first, unsigned n, uint64_t now_ns);

/* The matcher's retry_truncated (arg: the tcp_clients): query k again, over TCP, by its client.
 * One that cannot go stays outstanding and times out. */
void tcp_clients_retry(void *arg, uint64_t k);

void tcp_clients_close(struct tcp_clients *s);

#endif
