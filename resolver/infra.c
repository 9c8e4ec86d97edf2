/* resolver/infra.c - per-server RTT estimates, timeouts and hold-downs, server choice, and the
 * request deadline. The constants are explained in resolver/README.md ("Server timing"). */
#include "infra.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "chacha_rng.h"
#include "mix64.h"

/* An address as the table keys it: family, address bytes (IPv4 in the first 4) and port. */
struct infra_key {
	uint8_t addr[16];
	uint16_t port;
	uint8_t family;
};

struct infra_entry {
	struct infra_key key;
	bool used;
	bool measured;    /* at least one reply */
	uint8_t timeouts; /* counted timeouts since the last reply (saturates) */
	int32_t srtt;
	int32_t rttvar;
	int32_t timeout;       /* next query's wait: srtt + 4 * rttvar, or backed off */
	uint64_t expires;      /* made + INFRA_HOST_TTL_MS */
	uint64_t last_used;    /* for eviction within the set */
	uint64_t last_timeout; /* when the last counted timeout was reported */
	uint64_t hold_until;   /* 0: not held down */
};

struct infra {
	struct infra_entry *entries; /* n_sets * INFRA_WAYS */
	uint32_t n_sets;             /* a power of two */
	uint32_t in_use;
	uint64_t evictions;
};

static bool infra_key_from(const struct sockaddr *sa, socklen_t len, struct infra_key *k)
{
	memset(k, 0, sizeof(*k));
	if (sa->sa_family == AF_INET && len >= (socklen_t)sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *v4 = (const struct sockaddr_in *)sa;
		memcpy(k->addr, &v4->sin_addr, 4);
		k->port = v4->sin_port;
	} else if (sa->sa_family == AF_INET6 && len >= (socklen_t)sizeof(struct sockaddr_in6)) {
		const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)sa;
		memcpy(k->addr, &v6->sin6_addr, 16);
		k->port = v6->sin6_port;
	} else {
		return false;
	}
	k->family = (uint8_t)sa->sa_family;
	return true;
}

static uint32_t infra_set_of(const struct infra *t, const struct infra_key *k)
{
	uint64_t lo, hi;
	memcpy(&lo, k->addr, 8);
	memcpy(&hi, k->addr + 8, 8);
	uint64_t h = mix64(lo ^ mix64(hi ^ ((uint64_t)k->port << 8 | k->family)));
	return (uint32_t)h & (t->n_sets - 1);
}

static bool infra_key_equal(const struct infra_key *a, const struct infra_key *b)
{
	return a->family == b->family && a->port == b->port && memcmp(a->addr, b->addr, 16) == 0;
}

static bool infra_expired(const struct infra_entry *e, uint64_t now)
{
	return now >= e->expires;
}

/* The live entry for k, or NULL (absent or expired: both mean "never measured"). */
static struct infra_entry *infra_find(const struct infra *t, const struct infra_key *k,
                                      uint64_t now)
{
	struct infra_entry *set = &t->entries[(size_t)infra_set_of(t, k) * INFRA_WAYS];
	for (int w = 0; w < INFRA_WAYS; w++)
		if (set[w].used && infra_key_equal(&set[w].key, k))
			return infra_expired(&set[w], now) ? NULL : &set[w];
	return NULL;
}

static void infra_entry_init(struct infra_entry *e, const struct infra_key *k, uint64_t now)
{
	memset(e, 0, sizeof(*e));
	e->key = *k;
	e->used = true;
	e->timeout = INFRA_INITIAL_TIMEOUT_MS;
	e->expires = now + INFRA_HOST_TTL_MS;
	e->last_used = now;
}

/* Which of two slots to reuse first: a free one, then an expired entry, then the least recently
 * used. */
static bool infra_evict_before(const struct infra_entry *a, const struct infra_entry *b,
                               uint64_t now)
{
	int rank_a = !a->used ? 0 : infra_expired(a, now) ? 1 : 2;
	int rank_b = !b->used ? 0 : infra_expired(b, now) ? 1 : 2;
	if (rank_a != rank_b)
		return rank_a < rank_b;
	return rank_a == 2 && a->last_used < b->last_used;
}

/* The entry for k, made afresh when absent or expired (in a full set, over the slot
 * infra_evict_before picks). */
static struct infra_entry *infra_get(struct infra *t, const struct infra_key *k, uint64_t now)
{
	struct infra_entry *set = &t->entries[(size_t)infra_set_of(t, k) * INFRA_WAYS];
	struct infra_entry *victim = &set[0];
	for (int w = 0; w < INFRA_WAYS; w++) {
		struct infra_entry *e = &set[w];
		if (e->used && infra_key_equal(&e->key, k)) {
			if (infra_expired(e, now))
				infra_entry_init(e, k, now);
			return e;
		}
		if (infra_evict_before(e, victim, now))
			victim = e;
	}
	if (victim->used)
		t->evictions++;
	else
		t->in_use++;
	infra_entry_init(victim, k, now);
	return victim;
}

struct infra *infra_create(uint32_t capacity)
{
	if (capacity == 0 || capacity > (1u << 30))
		return NULL;
	uint32_t n_sets = 1;
	while ((uint64_t)n_sets * INFRA_WAYS < capacity)
		n_sets <<= 1;
	struct infra *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->entries = calloc((size_t)n_sets * INFRA_WAYS, sizeof(*t->entries));
	if (!t->entries) {
		free(t);
		return NULL;
	}
	t->n_sets = n_sets;
	return t;
}

void infra_destroy(struct infra *t)
{
	if (!t)
		return;
	free(t->entries);
	free(t);
}

static int32_t infra_clamp_timeout(int64_t ms)
{
	if (ms < INFRA_MIN_TIMEOUT_MS)
		return INFRA_MIN_TIMEOUT_MS;
	if (ms > INFRA_MAX_TIMEOUT_MS)
		return INFRA_MAX_TIMEOUT_MS;
	return (int32_t)ms;
}

void infra_report_reply(struct infra *t, const struct sockaddr *sa, socklen_t len, int rtt_ms,
                        uint64_t now_ms)
{
	struct infra_key k;
	if (!infra_key_from(sa, len, &k))
		return;
	struct infra_entry *e = infra_get(t, &k, now_ms);
	int32_t r = rtt_ms < 0 ? 0 : rtt_ms > INFRA_MAX_TIMEOUT_MS ? INFRA_MAX_TIMEOUT_MS : rtt_ms;
	if (!e->measured) {
		e->srtt = r;
		e->rttvar = r / 2;
		e->measured = true;
	} else {
		/* RFC 6298 §2.3 with beta 1/4 and alpha 1/8, rounded to nearest rather than down so
		 * that a steady RTT is reached exactly. */
		int32_t dev = e->srtt > r ? e->srtt - r : r - e->srtt;
		e->rttvar = (3 * e->rttvar + dev + 2) / 4;
		e->srtt = (7 * e->srtt + r + 4) / 8;
	}
	e->timeout = infra_clamp_timeout((int64_t)e->srtt + 4 * (int64_t)e->rttvar);
	e->timeouts = 0;
	e->hold_until = 0;
	e->last_used = now_ms;
}

static uint64_t infra_hold_ms(unsigned timeouts)
{
	unsigned shift = timeouts - INFRA_DEAD_TIMEOUTS;
	uint64_t hold = shift >= 20 ? INFRA_HOLD_MAX_MS : (uint64_t)INFRA_HOLD_BASE_MS << shift;
	return hold > INFRA_HOLD_MAX_MS ? INFRA_HOLD_MAX_MS : hold;
}

void infra_report_timeout(struct infra *t, const struct sockaddr *sa, socklen_t len,
                          const struct infra_choice *c, uint64_t now_ms)
{
	struct infra_key k;
	if (c->capped || !infra_key_from(sa, len, &k))
		return;
	struct infra_entry *e = infra_get(t, &k, now_ms);
	int64_t doubled = 2 * (int64_t)c->timeout_ms;
	int32_t backed_off =
	    doubled > INFRA_MAX_TIMEOUT_MS ? INFRA_MAX_TIMEOUT_MS : (int32_t)doubled;
	if (backed_off > e->timeout)
		e->timeout = backed_off;
	e->last_used = now_ms;
	uint64_t sent = now_ms > (uint64_t)c->timeout_ms ? now_ms - (uint64_t)c->timeout_ms : 0;
	if (e->timeouts > 0 && sent < e->last_timeout)
		return; /* in flight when the previous timeout was counted: nothing new */
	if (e->timeouts < UINT8_MAX)
		e->timeouts++;
	e->last_timeout = now_ms;
	if (e->timeouts >= INFRA_DEAD_TIMEOUTS)
		e->hold_until = now_ms + infra_hold_ms(e->timeouts);
}

/* How a candidate looks to the choice. */
enum infra_standing { INFRA_UNKNOWN, INFRA_GOOD, INFRA_SUSPECT, INFRA_PROBE, INFRA_HELD };

static enum infra_standing infra_standing_of(const struct infra_entry *e, uint64_t now)
{
	if (!e)
		return INFRA_UNKNOWN;
	if (e->hold_until != 0)
		return now < e->hold_until ? INFRA_HELD : INFRA_PROBE;
	if (e->timeouts > 0)
		return INFRA_SUSPECT;
	return e->measured ? INFRA_GOOD : INFRA_UNKNOWN;
}

bool infra_choose(struct infra *t, const struct infra_candidate *cands, int n, uint64_t now_ms,
                  struct chacha_rng *rng, struct infra_choice *out)
{
	*out = (struct infra_choice){.index = -1};
	if (n > INFRA_MAX_CANDIDATES)
		n = INFRA_MAX_CANDIDATES;
	struct infra_entry *entry[INFRA_MAX_CANDIDATES];
	int32_t timeout[INFRA_MAX_CANDIDATES];
	int usable[INFRA_MAX_CANDIDATES], n_usable = 0;
	int unknown[INFRA_MAX_CANDIDATES], n_unknown = 0;
	int explorable[INFRA_MAX_CANDIDATES], n_explorable = 0;
	int32_t best = INT32_MAX;
	for (int i = 0; i < n; i++) {
		struct infra_key k;
		if (!infra_key_from(cands[i].sa, cands[i].len, &k))
			continue;
		entry[i] = infra_find(t, &k, now_ms);
		enum infra_standing s = infra_standing_of(entry[i], now_ms);
		if (s == INFRA_HELD)
			continue;
		timeout[i] = entry[i] ? entry[i]->timeout : INFRA_INITIAL_TIMEOUT_MS;
		usable[n_usable++] = i;
		if (s == INFRA_UNKNOWN)
			unknown[n_unknown++] = i;
		if (s == INFRA_GOOD)
			explorable[n_explorable++] = i;
		if (timeout[i] < best)
			best = timeout[i];
	}
	if (n_usable == 0)
		return false;

	int pick;
	if (n_unknown > 0) {
		/* Measure every address once before trusting the measurements (kresd's order). */
		pick = unknown[chacha_rng_below(rng, (uint32_t)n_unknown)];
	} else if (n_explorable > 1 && chacha_rng_below(rng, INFRA_EXPLORE_ONE_IN) == 0) {
		pick = explorable[chacha_rng_below(rng, (uint32_t)n_explorable)];
		out->explored = true;
	} else {
		int ties[INFRA_MAX_CANDIDATES], n_ties = 0;
		for (int j = 0; j < n_usable; j++)
			if (timeout[usable[j]] == best)
				ties[n_ties++] = usable[j];
		pick = ties[chacha_rng_below(rng, (uint32_t)n_ties)];
	}

	out->index = pick;
	out->timeout_ms = timeout[pick];
	if (out->explored && timeout[pick] > (int64_t)best * INFRA_EXPLORE_TIMEOUT_FACTOR) {
		out->timeout_ms = best * INFRA_EXPLORE_TIMEOUT_FACTOR;
		out->capped = true;
	}
	struct infra_entry *e = entry[pick];
	if (e) {
		e->last_used = now_ms;
		if (infra_standing_of(e, now_ms) == INFRA_PROBE) {
			/* The single retry: nobody else until it has had its time to answer. */
			out->probe = true;
			e->hold_until = now_ms + (uint64_t)out->timeout_ms + INFRA_HOLD_BASE_MS;
		}
	}
	return true;
}

bool infra_lookup(const struct infra *t, const struct sockaddr *sa, socklen_t len, uint64_t now_ms,
                  struct infra_server *out)
{
	struct infra_key k;
	if (!infra_key_from(sa, len, &k))
		return false;
	const struct infra_entry *e = infra_find(t, &k, now_ms);
	if (!e)
		return false;
	*out = (struct infra_server){
	    .srtt_ms = e->srtt,
	    .rttvar_ms = e->rttvar,
	    .timeout_ms = e->timeout,
	    .timeouts = e->timeouts,
	    .hold_until_ms = e->hold_until,
	};
	return true;
}

void infra_get_stats(const struct infra *t, uint64_t now_ms, struct infra_stats *out)
{
	*out = (struct infra_stats){
	    .capacity = t->n_sets * INFRA_WAYS,
	    .entries = t->in_use,
	    .evictions = t->evictions,
	    .bytes = sizeof(*t) + (size_t)t->n_sets * INFRA_WAYS * sizeof(*t->entries),
	};
	for (uint32_t i = 0; i < t->n_sets * INFRA_WAYS; i++) {
		const struct infra_entry *e = &t->entries[i];
		if (!e->used || infra_expired(e, now_ms))
			continue;
		if (e->hold_until > now_ms)
			out->held_down++;
		if (e->measured) {
			out->measured++;
			if (e->srtt > out->srtt_max_ms)
				out->srtt_max_ms = e->srtt;
		}
	}
}

void infra_deadline_start(struct infra_deadline *d, uint64_t now_ms, uint32_t total_ms)
{
	d->end_ms = now_ms + total_ms;
}

uint32_t infra_deadline_left_ms(const struct infra_deadline *d, uint64_t now_ms)
{
	if (now_ms >= d->end_ms)
		return 0;
	uint64_t left = d->end_ms - now_ms;
	return left > UINT32_MAX ? UINT32_MAX : (uint32_t)left;
}

int infra_deadline_clamp(const struct infra_deadline *d, uint64_t now_ms, int timeout_ms)
{
	uint32_t left = infra_deadline_left_ms(d, now_ms);
	if (timeout_ms < 0)
		return 0;
	return (uint32_t)timeout_ms < left ? timeout_ms : (int)left;
}
