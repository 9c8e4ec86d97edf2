/* loadgen/replay.h - a replay plan (docs/query-files.md, "Replay plans") as the generator sends
 * it: ready-made messages, each query's instant (the plan's times divided by the speed), client
 * and transport; optionally one shard of the plan's clients. */
#ifndef ALLOCSPIKE_LOADGEN_REPLAY_H
#define ALLOCSPIKE_LOADGEN_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "client_model.h"
#include "querystream.h"

struct replay {
	uint64_t *at_ns;  /* query k leaves at the start + at_ns[k] (nondecreasing) */
	uint32_t *client; /* query k's client: its number in the plan */
	uint8_t *tcp;     /* query k goes over TCP */
	size_t count;
	uint32_t clients;     /* one past the highest client number kept */
	uint64_t tcp_clients; /* clients with a query over TCP */
};

/* Reads the plan at path into qs (held in memory) and r: only the clients c with c % shards ==
 * shard (shards 1: all), at their plan times divided by speed (> 0), so every shard keeps the
 * plan's clock. False with "path:line: reason" or "path: reason" in err. */
bool replay_load(struct replay *r, struct querystream *qs, const char *path, double speed,
                 unsigned shard, unsigned shards, uint16_t edns_size, char *err, size_t err_size);
void replay_free(struct replay *r);

/* Who sends each query of r over what. */
void replay_client_model(const struct replay *r, struct client_model *m);

/* Queries due by t_ns after the start: those with at_ns <= t_ns. */
uint64_t replay_due(const struct replay *r, uint64_t t_ns);

#endif
