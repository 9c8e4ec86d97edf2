/* upstream/netem.c - deterministic loss and log-normal delay, and the per-source attempt counts. */
#include "netem.h"

#include "cli_parse.h"
#include "hash.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Open addressing on a 64-bit key hashing (source, server, question): collisions of two
 * different keys are as likely as 2^-64 per pair, so the key alone identifies the question. */
struct netem_slot {
	uint64_t key; /* 0: empty */
	uint32_t last_ms;
	uint32_t count;
};

struct netem {
	struct netem_config cfg;
	struct netem_slot *slots;
	size_t cap; /* power of two */
	size_t used;
	uint32_t window_ms;
};

struct netem *netem_new(const struct netem_config *cfg)
{
	struct netem *n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->cfg = *cfg;
	n->cap = 4096;
	n->slots = calloc(n->cap, sizeof(*n->slots));
	n->window_ms = (uint32_t)(cfg->window_s * 1000);
	if (!n->slots) {
		free(n);
		return NULL;
	}
	return n;
}

static bool netem_expired(const struct netem *n, const struct netem_slot *s, uint32_t now_ms)
{
	return now_ms - s->last_ms > n->window_ms;
}

/* Rehashes into a table sized for the live entries, forgetting expired ones. */
static void netem_rebuild(struct netem *n, uint32_t now_ms)
{
	size_t live = 0;
	for (size_t i = 0; i < n->cap; i++)
		live += n->slots[i].key && !netem_expired(n, &n->slots[i], now_ms);
	size_t cap = 4096;
	while (cap < live * 4)
		cap *= 2;
	struct netem_slot *fresh = calloc(cap, sizeof(*fresh));
	if (!fresh)
		return; /* keep the old table; lookups still work, just fuller */
	for (size_t i = 0; i < n->cap; i++) {
		struct netem_slot *s = &n->slots[i];
		if (!s->key || netem_expired(n, s, now_ms))
			continue;
		size_t j = s->key & (cap - 1);
		while (fresh[j].key)
			j = (j + 1) & (cap - 1);
		fresh[j] = *s;
	}
	free(n->slots);
	n->slots = fresh;
	n->cap = cap;
	n->used = live;
}

void netem_treatment(const struct netem_config *cfg, const struct server *s, const char *qname,
                     uint16_t qtype, uint32_t attempt, struct netem_verdict *v)
{
	const struct netem_tier *t = &cfg->tier[s->tier];
	uint64_t h = hash_bytes(cfg->seed ^ 0x6e6574656dULL, qname, strlen(qname));
	h = hash_combine(h, qtype);
	h = hash_combine(h, (uint64_t)s->index);
	h = hash_combine(h, attempt);
	v->attempt = attempt;
	v->drop = cfg->loss && (s->dead || hash_unit(h) < t->loss);
	v->delay_ms = 0;
	bool per_server = s->rtt_ms > 0;
	if (v->drop || !cfg->latency || (!per_server && t->median_ms <= 0))
		return;
	/* Box-Muller from two independent uniforms of the same key */
	double u1 = hash_unit(hash_mix(h ^ 1));
	double u2 = hash_unit(hash_mix(h ^ 2));
	if (u1 < 1e-12)
		u1 = 1e-12;
	double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
	double median = per_server ? s->rtt_ms : t->median_ms;
	double p99 = per_server ? s->rtt_ms * cfg->jitter_p99 : t->p99_ms;
	double sigma = p99 > median ? log(p99 / median) / 2.3263 : 0;
	double ms = median * exp(sigma * z);
	if (per_server && hash_unit(hash_mix(h ^ 3)) < cfg->late_share)
		ms += cfg->late_min_ms +
		      hash_unit(hash_mix(h ^ 4)) * (cfg->late_max_ms - cfg->late_min_ms);
	if (s->slow)
		ms *= cfg->slow_factor;
	if (ms > NETEM_MAX_DELAY_MS)
		ms = NETEM_MAX_DELAY_MS;
	v->delay_ms = (uint32_t)(ms + 0.5);
}

void netem_decide(struct netem *n, uint32_t source, const struct server *s, const char *qname,
                  uint16_t qtype, double now_s, struct netem_verdict *v)
{
	uint32_t now_ms = (uint32_t)(now_s * 1000);
	uint64_t key = hash_bytes(source, qname, strlen(qname));
	key = hash_combine(key, qtype);
	key = hash_combine(key, (uint64_t)s->index) | 1; /* never 0, the empty mark */
	if ((n->used + 1) * 10 > n->cap * 6)
		netem_rebuild(n, now_ms);
	size_t j = key & (n->cap - 1);
	while (n->slots[j].key && n->slots[j].key != key)
		j = (j + 1) & (n->cap - 1);
	struct netem_slot *slot = &n->slots[j];
	if (!slot->key) {
		slot->key = key;
		slot->count = 0;
		n->used++;
	} else if (netem_expired(n, slot, now_ms)) {
		slot->count = 0;
	}
	slot->count++;
	slot->last_ms = now_ms;
	netem_treatment(&n->cfg, s, qname, qtype, slot->count, v);
}

size_t netem_tracked(const struct netem *n)
{
	return n->used;
}

void netem_free(struct netem *n)
{
	if (!n)
		return;
	free(n->slots);
	free(n);
}

/* "--tier 'TEXT': FIELD", the option name a field's error starts with (common/cli_parse). */
static const char *tier_field(char *buf, size_t size, const char *text, const char *field)
{
	snprintf(buf, size, "--tier '%s': %s", text, field);
	return buf;
}

bool netem_parse_tier(struct netem_config *cfg, const char *text, char *err, size_t err_size)
{
	char buf[128], *field[4], *p = buf, option[256];
	size_t n = 0;
	if (strlen(text) < sizeof(buf)) {
		memcpy(buf, text, strlen(text) + 1);
		for (; n < 4 && p; n++) {
			field[n] = p;
			p = strchr(p, ':');
			if (p)
				*p++ = '\0';
		}
	}
	if (n != 4 || p) {
		snprintf(err, err_size,
		         "--tier '%s': expected NAME:MEDIAN_MS:P99_MS:LOSS (e.g. root:8:80:0.01)",
		         text);
		return false;
	}
	int t = -1;
	for (int i = 0; i < TIER_COUNT; i++)
		if (strcmp(field[0], tier_names[i]) == 0)
			t = i;
	if (t < 0) {
		snprintf(err, err_size, "--tier '%s': NAME '%s' is not root, tld or sld", text,
		         field[0]);
		return false;
	}
	/* the delays in milliseconds as in --latency-ms (a unit allowed: 0.5s), within its bounds;
	 * the loss a share as in --loss */
	double median_s, p99_s, loss;
	if (!cli_parse_duration(tier_field(option, sizeof(option), text, "MEDIAN_MS"), field[1],
	                        0.001, 0, NETEM_MAX_MEDIAN_S, &median_s, err, err_size) ||
	    !cli_parse_duration(tier_field(option, sizeof(option), text, "P99_MS"), field[2], 0.001,
	                        0, NETEM_MAX_P99_S, &p99_s, err, err_size) ||
	    !cli_parse_number(tier_field(option, sizeof(option), text, "LOSS"), field[3], 0, 1,
	                      &loss, err, err_size))
		return false;
	if (p99_s < median_s) {
		snprintf(err, err_size, "--tier '%s': P99_MS is below MEDIAN_MS", text);
		return false;
	}
	cfg->tier[t].median_ms = median_s * 1000;
	cfg->tier[t].p99_ms = p99_s * 1000;
	cfg->tier[t].loss = loss;
	return true;
}
