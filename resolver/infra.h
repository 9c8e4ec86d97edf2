/* resolver/infra.h - the infrastructure cache: what the resolver has learnt about each
 * authoritative server address (smoothed RTT, timeouts, hold-down), the server choice built on it,
 * and the per-request deadline. Pure: no I/O, no clock; the caller passes the time. */
#ifndef ALLOCSPIKE_RESOLVER_INFRA_H
#define ALLOCSPIKE_RESOLVER_INFRA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct chacha_rng;

/* Every constant, beside unbound's and kresd's own values, is in resolver/README.md
 * ("Server timing"). Times are milliseconds. */
#define INFRA_INITIAL_TIMEOUT_MS 376    /* first timeout of an unknown server */
#define INFRA_MIN_TIMEOUT_MS 50         /* floor of srtt + 4 * rttvar */
#define INFRA_MAX_TIMEOUT_MS 12000      /* cap of the backed-off timeout */
#define INFRA_DEAD_TIMEOUTS 4           /* timeouts in a row that put a server on hold */
#define INFRA_HOLD_BASE_MS 1000         /* first hold-down; doubles with every further timeout */
#define INFRA_HOLD_MAX_MS 120000        /* longest hold-down */
#define INFRA_HOST_TTL_MS (900 * 1000)  /* an entry is forgotten this long after it was made */
#define INFRA_EXPLORE_ONE_IN 20         /* one choice in 20 is random (epsilon-greedy) */
#define INFRA_EXPLORE_TIMEOUT_FACTOR 2  /* an explored server waits 2x the best at most */
#define INFRA_DEFAULT_CAPACITY 10000    /* server addresses remembered */
#define INFRA_WAYS 4                    /* entries per hash set; eviction is within a set */
#define INFRA_REQUEST_DEADLINE_MS 10000 /* total time of one client request */

struct infra;

/* Creates a table of at least `capacity` entries (rounded up to a power-of-two number of sets of
 * INFRA_WAYS); it never grows. NULL when out of memory or capacity is 0. */
struct infra *infra_create(uint32_t capacity);
void infra_destroy(struct infra *t);

/* One address a delegation offers; the caller leaves out those it must not use (tried too
 * often by this request, lame). */
#define INFRA_MAX_CANDIDATES 64 /* infra_choose considers the first 64 */
struct infra_candidate {
	const struct sockaddr *sa; /* AF_INET or AF_INET6; address and port are the key */
	socklen_t len;
};

struct infra_choice {
	int index;      /* into the candidates */
	int timeout_ms; /* wait this long for the reply (clamp it with infra_deadline_clamp) */
	bool explored;  /* the random one-in-INFRA_EXPLORE_ONE_IN choice */
	bool capped;    /* explored, timeout shortened: its timeout says nothing about the server */
	bool probe;     /* a held-down server's single retry after its hold-down */
};

/* Picks the server to ask: any server never measured first (every address gets measured once),
 * else the one with the smallest expected timeout (ties at random), except one time in
 * INFRA_EXPLORE_ONE_IN a random usable one. Held-down servers are skipped; when a hold-down has
 * run out, the first choice of that server is its probe and holds it down again until the probe
 * has had time to answer, so concurrent requests do not all retry a dead server at once.
 * Returns false (out->index -1) when n is 0 or every candidate is held down: the request should
 * fail at once, as unbound does when no target is usable. */
bool infra_choose(struct infra *t, const struct infra_candidate *cands, int n, uint64_t now_ms,
                  struct chacha_rng *rng, struct infra_choice *out);

/* A reply came after rtt_ms: RFC 6298 smoothing (first sample: srtt = R, rttvar = R / 2), the
 * timeout count and any hold-down cleared. */
void infra_report_reply(struct infra *t, const struct sockaddr *sa, socklen_t len, int rtt_ms,
                        uint64_t now_ms);
/* No reply within c->timeout_ms. The timeout doubles from the one that query used (not from the
 * current one, so many queries timing out together double it once), capped at
 * INFRA_MAX_TIMEOUT_MS. The timeout counts toward the hold-down only when the query was sent
 * after the server's previous counted timeout (a query already in flight then adds nothing
 * new) and was not capped. */
void infra_report_timeout(struct infra *t, const struct sockaddr *sa, socklen_t len,
                          const struct infra_choice *c, uint64_t now_ms);

/* What the table holds for one address (tests, stats). */
struct infra_server {
	int srtt_ms;
	int rttvar_ms;
	int timeout_ms;         /* what the next query would wait */
	unsigned timeouts;      /* counted timeouts in a row */
	uint64_t hold_until_ms; /* 0 when not held down */
};
/* False when the address is unknown (never reported, expired or evicted). */
bool infra_lookup(const struct infra *t, const struct sockaddr *sa, socklen_t len, uint64_t now_ms,
                  struct infra_server *out);

struct infra_stats {
	uint32_t capacity; /* entries */
	uint32_t entries;  /* in use (expired ones included until reused) */
	uint64_t evictions;
	size_t bytes; /* the table's memory, fixed at creation */
	/* Among the live entries at now_ms: */
	uint32_t measured;  /* with at least one reply */
	uint32_t held_down; /* not chosen until their hold-down ends */
	int srtt_max_ms;    /* the slowest measured server's smoothed RTT, 0 when none */
};
void infra_get_stats(const struct infra *t, uint64_t now_ms, struct infra_stats *out);

/* The total time one client request may take, shared with the lookups it spawns (a glueless
 * name-server lookup copies its parent's deadline). */
struct infra_deadline {
	uint64_t end_ms;
};
void infra_deadline_start(struct infra_deadline *d, uint64_t now_ms, uint32_t total_ms);
/* Milliseconds left; 0 once the deadline has passed. */
uint32_t infra_deadline_left_ms(const struct infra_deadline *d, uint64_t now_ms);
/* timeout_ms shortened to what is left; 0 when nothing is (the request should end SERVFAIL). */
int infra_deadline_clamp(const struct infra_deadline *d, uint64_t now_ms, int timeout_ms);

#endif
