/* common/replay_plan.h - the replay plan (docs/query-files.md, "Replay plans"): queries with their
 * relative time, client and transport, one a line; written by allocspike-querydata capture, read by
 * allocspike-loadgen --replay. One writer and one reader, here. */
#ifndef ALLOCSPIKE_REPLAY_PLAN_H
#define ALLOCSPIKE_REPLAY_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define REPLAY_PLAN_HEADER "# allocspike replay plan 1"
/* Clients are numbered from 0 in the order of their first query. */
#define REPLAY_PLAN_CLIENTS_MAX 16777216u

struct replay_plan_entry {
	uint64_t t_ns; /* since the plan's first query */
	uint32_t client;
	bool tcp;         /* false: UDP */
	const char *name; /* presentation form, as the query file writes it */
	uint16_t qtype;
};

/* The header line, then "# source PATH" when source is not NULL. */
void replay_plan_write_header(FILE *out, const char *source);
/* A comment naming what client stands for ("# client 3 192.0.2.7"), before its first query. */
void replay_plan_write_client(FILE *out, uint32_t client, const char *identity);
/* One query: "SECONDS CLIENT udp|tcp NAME TYPE", seconds with 9 decimals. */
void replay_plan_write(FILE *out, const struct replay_plan_entry *e);

struct replay_plan;

/* Opens path (plain text; "-" is stdin); NULL with "path: reason" in err. */
struct replay_plan *replay_plan_open(const char *path, char *err, size_t err_size);
/* The next query: 1 (e valid until the next call), 0 at the end, -1 with replay_plan_error
 * ("path:line: reason"). A plan is written by a program, so any bad line is fatal: a missing
 * header, a time that goes backwards, a client past REPLAY_PLAN_CLIENTS_MAX, an unknown transport,
 * name or type. */
int replay_plan_next(struct replay_plan *rp, struct replay_plan_entry *e);
const char *replay_plan_error(const struct replay_plan *rp);
void replay_plan_close(struct replay_plan *rp);

#endif
