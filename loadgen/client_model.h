/* loadgen/client_model.h - which client sends each query, and over which transport. */
#ifndef ALLOCSPIKE_LOADGEN_CLIENT_MODEL_H
#define ALLOCSPIKE_LOADGEN_CLIENT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct schedule;

/* CLIENT_ELSEWHERE: a client of another shard (--shard I/N): another generator sends its queries.
 */
enum client_transport { CLIENT_UDP, CLIENT_TCP, CLIENT_DOT, CLIENT_ELSEWHERE };

/* --shard I/N (shard = I - 1, shards = N): a generator sends the queries of the clients c with
 * c mod N = I - 1, so that N generators together send the one stream, each client's queries from
 * one of them (its connections too). The one rule for a query file and a replay plan alike. */
static inline bool client_in_shard(uint64_t client, unsigned shard, unsigned shards)
{
	return shards <= 1 || client % shards == shard;
}

/* From query first_k on (to the next span's), the queries are spread over this many clients: a
 * schedule phase's '/clients=N' (docs/schedule.md), or the --clients. */
struct client_span {
	uint64_t first_k;
	uint64_t clients;
};

/* A query file names no clients, so query k belongs to client k mod clients: every client sends
 * an even share, in turn, and a run repeats exactly. tcp + dot of the clients keep a connection
 * (TCP, or DNS over TLS), spread evenly among them (client c is one when (c + 1) * (tcp + dot) /
 * clients steps up), and the DoT ones spread evenly among those the same way, so the share of
 * queries over each transport is the same at every moment, not only on average. */
struct client_model {
	uint64_t clients; /* >= 1 */
	uint64_t tcp;     /* tcp + dot <= clients */
	uint64_t dot;
	/* A connection spike (a schedule's '/clients=N'): query k belongs to client k mod the
	 * clients of its span. A client's transport is the same whatever the count (the even spread
	 * above repeats every `clients` clients), so a spike's extra clients keep the shares and
	 * the baseline's clients keep their connections. NULL (no span): every query among clients.
	 */
	const struct client_span *spans; /* sorted by first_k, the first at 0 */
	size_t nspans;
	uint64_t clients_max; /* the most clients at any time (>= clients): room for each */
	/* A replay plan (replay.h) names each query's client and transport: then these say them,
	 * and tcp is only how many clients have a query over TCP. NULL otherwise. */
	const uint32_t *client_of;
	const uint8_t *tcp_of;
	/* --shard with a query file: only the clients client_in_shard keeps are sent from here (a
	 * replay plan is cut to its shard when read: shards is then 0) */
	unsigned shard, shards;
};

/* The clients query k is spread among (a span's, or the --clients). */
static inline uint64_t client_model_clients_at(const struct client_model *m, uint64_t k)
{
	if (!m->nspans)
		return m->clients;
	size_t lo = 0, hi = m->nspans; /* the last span starting at or before k */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->spans[mid].first_k <= k)
			lo = mid;
		else
			hi = mid;
	}
	return m->spans[lo].clients;
}

static inline uint64_t client_model_client(const struct client_model *m, uint64_t k)
{
	return m->client_of ? m->client_of[k] : k % client_model_clients_at(m, k);
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

/* Of n clients (0 .. n - 1), how many keep a connection (TCP or DoT). */
static inline uint64_t client_model_streams(const struct client_model *m, uint64_t n)
{
	return n * (m->tcp + m->dot) / m->clients;
}

/* Spans for a schedule whose phases give '/clients=N' (the others: m->clients), merged where
 * neighbours have the same count, into m (m->spans then owns a buffer for client_model_free);
 * sets m->clients_max. No span (and true) when no phase gives clients; false when out of
 * memory. */
bool client_model_spans(struct client_model *m, const struct schedule *s, uint64_t total);

void client_model_free(struct client_model *m);

/* The transport query k is first sent over (a truncation retry then goes over TCP). */
static inline enum client_transport client_model_query_transport(const struct client_model *m,
                                                                 uint64_t k)
{
	if (m->shards > 1 && !client_in_shard(client_model_client(m, k), m->shard, m->shards))
		return CLIENT_ELSEWHERE;
	if (m->tcp_of)
		return m->tcp_of[k] ? CLIENT_TCP : CLIENT_UDP;
	return client_model_transport(m, client_model_client(m, k));
}

/* Of queries [from, to), those this generator sends (all but another shard's). */
static inline uint64_t client_model_owned(const struct client_model *m, uint64_t from, uint64_t to)
{
	if (!m || m->shards <= 1)
		return to - from;
	uint64_t n = 0;
	for (uint64_t k = from; k < to; k++)
		n += client_in_shard(client_model_client(m, k), m->shard, m->shards);
	return n;
}

#endif
