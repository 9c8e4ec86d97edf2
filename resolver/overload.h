/* resolver/overload.h - what happens to a new client request when the resolver is past capacity,
 * as the daemon each memory layout imitates decides it (docs/resolver.md, "Overload").
 *
 * unbound: a request list of num-queries-per-thread entries. The first half of the list (the
 * "forever" half) runs to completion; requests admitted once it is full go to the "jostle" half,
 * oldest first. When the list is full, a new request replaces the oldest jostle entry if that one
 * has run longer than jostle-timeout (its clients get no answer: overwritten), else the new
 * request is dropped (exceeded).
 * kresd: no request list; every request is admitted (the hard ceiling, --max-inflight, is the
 * caller's, like kresd's open-files limit), and each gives up after its time limit.
 *
 * No clock and no I/O here: the caller passes the time, so tests can use a fake clock. */
#ifndef ALLOCSPIKE_RESOLVER_OVERLOAD_H
#define ALLOCSPIKE_RESOLVER_OVERLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memory.h"

enum overload_policy {
	OVERLOAD_UNBOUND = 0,
	OVERLOAD_KRESD = 1,
};

/* unbound's defaults (unbound.conf(5), built with libevent as Debian's is). */
#define OVERLOAD_UNBOUND_REQUEST_LIST 1024 /* num-queries-per-thread */
#define OVERLOAD_UNBOUND_JOSTLE_MS 200     /* jostle-timeout */

enum overload_half { OVERLOAD_OFF_LIST = 0, OVERLOAD_FOREVER, OVERLOAD_JOSTLE };

/* One admitted client request's place in the list; lives inside the request. */
struct overload_entry {
	struct overload_entry *prev, *next; /* jostle half only, oldest first */
	uint64_t start_ms;
	enum overload_half half;
};

struct overload {
	enum overload_policy policy;
	size_t list_size, max_forever;
	uint64_t jostle_ms;
	size_t n_forever, n_jostle;
	struct overload_entry *jostle_first, *jostle_last;
	uint64_t exceeded, overwritten; /* unbound's requestlist.exceeded and .overwritten */
};

enum overload_verdict {
	OVERLOAD_ADMIT,   /* room: overload_enter the new request */
	OVERLOAD_REPLACE, /* *victim is to be freed (overload_leave), then the new one entered */
	OVERLOAD_DROP,    /* no room and nothing old enough to replace */
};

void overload_init(struct overload *o, enum overload_policy policy, size_t list_size,
                   uint64_t jostle_ms);
/* The decision for a new client request at now_ms; counts exceeded and overwritten. */
enum overload_verdict overload_admit(struct overload *o, uint64_t now_ms,
                                     struct overload_entry **victim);
/* A request admitted at now_ms takes its place (no-op under the kresd policy). */
void overload_enter(struct overload *o, struct overload_entry *e, uint64_t now_ms);
/* The request is done or replaced; no-op for an entry not on the list. */
void overload_leave(struct overload *o, struct overload_entry *e);
/* Entries on the list now (unbound's requestlist.current.all for client requests). */
size_t overload_current(const struct overload *o);

/* The policy of the daemon a memory layout imitates: heap -> unbound, kresd -> kresd. */
enum overload_policy overload_policy_for_layout(enum memory_layout layout);
const char *overload_policy_name(enum overload_policy policy);
int overload_policy_parse(const char *text, enum overload_policy *out);

#endif
