/* loadgen/client_model.h - which client sends each query, and over which transport. */
#ifndef ALLOCSPIKE_LOADGEN_CLIENT_MODEL_H
#define ALLOCSPIKE_LOADGEN_CLIENT_MODEL_H

#include <stdbool.h>
#include <stdint.h>

enum client_transport { CLIENT_UDP, CLIENT_TCP, CLIENT_DOT };

/* A query file names no clients, so query k belongs to client k mod clients: every client sends
 * an even share, in turn, and a run repeats exactly. tcp + dot of the clients keep a connection
 * (TCP, or DNS over TLS), spread evenly among them (client c is one when (c + 1) * (tcp + dot) /
 * clients steps up), and the DoT ones spread evenly among those the same way, so the share of
 * queries over each transport is the same at every moment, not only on average. */
struct client_model {
	uint64_t clients; /* >= 1 */
	uint64_t tcp;     /* tcp + dot <= clients */
	uint64_t dot;
	/* A replay plan (replay.h) names each query's client and transport: then these say them,
	 * and tcp is only how many clients have a query over TCP. NULL otherwise. */
	const uint32_t *client_of;
	const uint8_t *tcp_of;
};

static inline uint64_t client_model_client(const struct client_model *m, uint64_t k)
{
	return m->client_of ? m->client_of[k] : k % m->clients;
}

/* Whether member i of whole is one of the part spread evenly among them. */
static inline bool client_model_spread(uint64_t i, uint64_t part, uint64_t whole)
{
	return (i + 1) * part / whole > i * part / whole;
}

static inline enum client_transport client_model_transport(const struct client_model *m,
                                                           uint64_t client)
{
	uint64_t streams = m->tcp + m->dot;
	if (!streams || !client_model_spread(client, streams, m->clients))
		return CLIENT_UDP;
	return client_model_spread(client * streams / m->clients, m->dot, streams) ? CLIENT_DOT
	                                                                           : CLIENT_TCP;
}

/* The transport query k is first sent over (a truncation retry then goes over TCP). */
static inline enum client_transport client_model_query_transport(const struct client_model *m,
                                                                 uint64_t k)
{
	if (m->tcp_of)
		return m->tcp_of[k] ? CLIENT_TCP : CLIENT_UDP;
	return client_model_transport(m, client_model_client(m, k));
}

#endif
