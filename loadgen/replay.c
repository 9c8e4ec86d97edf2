/* loadgen/replay.c - a replay plan as the generator sends it. */
#include "replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "question.h"
#include "queryfile.h"
#include "replay_plan.h"

static bool replay_grow(struct replay *r, size_t *cap)
{
	if (r->count < *cap)
		return true;
	size_t n = *cap ? *cap * 2 : 4096;
	uint64_t *at = realloc(r->at_ns, n * sizeof(*at));
	if (at)
		r->at_ns = at;
	uint32_t *client = at ? realloc(r->client, n * sizeof(*client)) : NULL;
	if (client)
		r->client = client;
	uint8_t *tcp = client ? realloc(r->tcp, n) : NULL;
	if (!tcp)
		return false;
	r->tcp = tcp;
	*cap = n;
	return true;
}

bool replay_load(struct replay *r, struct querystream *qs, const char *path, double speed,
                 unsigned shard, unsigned shards, uint16_t edns_size, char *err, size_t err_size)
{
	memset(r, 0, sizeof(*r));
	memset(qs, 0, sizeof(*qs));
	struct replay_plan *rp = replay_plan_open(path, err, err_size);
	if (!rp)
		return false;
	uint8_t *tcp_seen = NULL; /* per client: a query over TCP was kept */
	size_t cap = 0, seen_cap = 0;
	struct replay_plan_entry e;
	int rc;
	uint8_t msg[QUERYFEED_MESSAGE_MAX];
	while ((rc = replay_plan_next(rp, &e)) == 1) {
		if (!client_in_shard(e.client, shard, shards))
			continue;
		size_t len = queryfile_wire_query(e.name, strlen(e.name), e.qtype, 0, edns_size,
		                                  msg, sizeof(msg));
		uint32_t question;
		if (len == 0 || !question_hash(msg, len, &question)) {
			snprintf(err, err_size, "%s: %s does not fit a query", path, e.name);
			goto fail;
		}
		if (e.client >= seen_cap) {
			size_t n = seen_cap ? seen_cap : 1024;
			while (n <= e.client)
				n *= 2;
			uint8_t *s = realloc(tcp_seen, n);
			if (!s)
				goto oom;
			memset(s + seen_cap, 0, n - seen_cap);
			tcp_seen = s;
			seen_cap = n;
		}
		if (!replay_grow(r, &cap) || !querystream_push(qs, msg, len, question))
			goto oom;
		r->at_ns[r->count] = (uint64_t)((double)e.t_ns / speed);
		r->client[r->count] = e.client;
		r->tcp[r->count] = e.tcp;
		r->count++;
		if (e.client + 1 > r->clients)
			r->clients = e.client + 1;
		if (e.tcp && !tcp_seen[e.client]) {
			tcp_seen[e.client] = 1;
			r->tcp_clients++;
		}
	}
	if (rc < 0) {
		snprintf(err, err_size, "%s", replay_plan_error(rp));
		goto fail;
	}
	if (r->count == 0) {
		snprintf(err, err_size, "%s: no query%s", path,
		         shards > 1 ? " in this shard" : " in the plan");
		goto fail;
	}
	free(tcp_seen);
	replay_plan_close(rp);
	return true;
oom:
	snprintf(err, err_size, "%s: out of memory after %zu queries", path, r->count);
fail:
	free(tcp_seen);
	replay_plan_close(rp);
	replay_free(r);
	querystream_free(qs);
	return false;
}

void replay_free(struct replay *r)
{
	free(r->at_ns);
	free(r->client);
	free(r->tcp);
	memset(r, 0, sizeof(*r));
}

void replay_client_model(const struct replay *r, struct client_model *m)
{
	*m = (struct client_model){.clients = r->clients,
	                           .tcp = r->tcp_clients,
	                           .clients_max = r->clients,
	                           .client_of = r->client,
	                           .tcp_of = r->tcp};
}

uint64_t replay_due(const struct replay *r, uint64_t t_ns)
{
	size_t lo = 0, hi = r->count; /* the first query after t_ns is in [lo, hi] */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->at_ns[mid] <= t_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
