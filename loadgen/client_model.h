/* loadgen/client_model.h - which client sends each query, and over which transport. */
#ifndef ALLOCSPIKE_LOADGEN_CLIENT_MODEL_H
#define ALLOCSPIKE_LOADGEN_CLIENT_MODEL_H

#include <stdbool.h>
#include <stdint.h>

/* A query file names no clients, so query k belongs to client k mod clients: every client sends
 * an even share, in turn, and a run repeats exactly. tcp of the clients use TCP, spread evenly
 * among them (client c is one when (c + 1) * tcp / clients steps up), so the share of queries
 * over TCP is tcp / clients at every moment, not only on average. */
struct client_model {
	uint64_t clients; /* >= 1 */
	uint64_t tcp;     /* <= clients */
	/* A replay plan (replay.h) names each query's client and transport: then these say them,
	 * and tcp is only how many clients have a query over TCP. NULL otherwise. */
	const uint32_t *client_of;
	const uint8_t *tcp_of;
};

static inline uint64_t client_model_client(const struct client_model *m, uint64_t k)
{
	return m->client_of ? m->client_of[k] : k % m->clients;
}

static inline bool client_model_uses_tcp(const struct client_model *m, uint64_t client)
{
	return (client + 1) * m->tcp / m->clients > client * m->tcp / m->clients;
}

/* Query k goes over TCP (before any truncation retry). */
static inline bool client_model_query_tcp(const struct client_model *m, uint64_t k)
{
	if (m->tcp_of)
		return m->tcp_of[k];
	return m->tcp && client_model_uses_tcp(m, client_model_client(m, k));
}

#endif
