/* upstream/servers.c - lays the hierarchy's servers out on consecutive addresses of the block. */
#include "servers.h"

#include "hash.h"

#include <arpa/inet.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const tier_names[TIER_COUNT] = {"root", "tld", "sld"};

/* Lists live and dead servers for the broken delegations: at least 3 dead SLD servers (a dead
 * domain has up to 3 name servers, all distinct) and 3 live ones. */
static bool servers_index_health(struct server_plan *plan, char *err, size_t err_size)
{
	int ndead = 0;
	for (int i = plan->first[TIER_SLD]; i < plan->count; i++)
		ndead += plan->servers[i].dead;
	for (int i = plan->count - 1; ndead < 3 && i >= plan->first[TIER_SLD]; i--)
		if (!plan->servers[i].dead) {
			plan->servers[i].dead = true;
			ndead++;
		}
	if (plan->n[TIER_SLD] - ndead < 3) {
		snprintf(err, err_size, "broken delegations need 3 live and 3 dead SLD servers");
		return false;
	}
	plan->dead = calloc((size_t)ndead, sizeof(int));
	for (int t = 0; t < TIER_COUNT; t++)
		plan->live[t] = calloc((size_t)plan->n[t], sizeof(int));
	if (!plan->dead || !plan->live[TIER_ROOT] || !plan->live[TIER_TLD] ||
	    !plan->live[TIER_SLD]) {
		snprintf(err, err_size, "out of memory");
		return false;
	}
	for (int i = 0; i < plan->count; i++) {
		const struct server *s = &plan->servers[i];
		if (s->dead)
			plan->dead[plan->ndead++] = i;
		else
			plan->live[s->tier][plan->nlive[s->tier]++] = i;
	}
	return true;
}

bool servers_plan_init(struct server_plan *plan, const struct server_plan_config *cfg, char *err,
                       size_t err_size)
{
	char text[64];
	memset(plan, 0, sizeof(*plan));
	const char *slash = strchr(cfg->block, '/');
	size_t alen = slash ? (size_t)(slash - cfg->block) : strlen(cfg->block);
	char *end = NULL;
	long prefix = slash ? strtol(slash + 1, &end, 10) : -1;
	struct in_addr a;
	if (!slash || alen >= sizeof(text) || *end != '\0' || prefix < 8 || prefix > 30) {
		snprintf(err, err_size,
		         "--hierarchy-block '%s': expected IPv4 CIDR like 127.53.0.0/16",
		         cfg->block);
		return false;
	}
	memcpy(text, cfg->block, alen);
	text[alen] = '\0';
	if (inet_pton(AF_INET, text, &a) != 1) {
		snprintf(err, err_size, "--hierarchy-block '%s': '%s' is not an IPv4 address",
		         cfg->block, text);
		return false;
	}
	uint32_t mask = prefix == 0 ? 0 : 0xffffffffu << (32 - prefix);
	plan->base = ntohl(a.s_addr) & mask;
	plan->prefix = (int)prefix;
	int total = 0;
	/* the flat world: one server is the root and every TLD, nothing below */
	bool flat = cfg->n[TIER_ROOT] == 1 && cfg->n[TIER_TLD] == 0 && cfg->n[TIER_SLD] == 0;
	for (int t = 0; t < TIER_COUNT; t++) {
		if (cfg->n[t] < 2 && !flat) {
			snprintf(err, err_size, "tier %s needs at least 2 servers", tier_names[t]);
			return false;
		}
		plan->first[t] = total;
		plan->n[t] = cfg->n[t];
		total += cfg->n[t];
	}
	uint64_t room =
	    (1ULL << (32 - prefix)) - 2; /* neither the block's first nor last address */
	if ((uint64_t)total > room) {
		snprintf(err, err_size,
		         "--hierarchy-block '%s' has room for %llu servers, %d needed", cfg->block,
		         (unsigned long long)room, total);
		return false;
	}
	plan->servers = calloc((size_t)total, sizeof(*plan->servers));
	if (!plan->servers) {
		snprintf(err, err_size, "out of memory");
		return false;
	}
	plan->count = total;
	for (int i = 0; i < total; i++) {
		struct server *s = &plan->servers[i];
		s->index = i;
		s->tier = i < plan->first[TIER_TLD]   ? TIER_ROOT
		          : i < plan->first[TIER_SLD] ? TIER_TLD
		                                      : TIER_SLD;
		s->addr = plan->base + 1 + (uint32_t)i;
		uint64_t h = hash_combine(hash_mix(cfg->seed), 0x5e7e7000u + (uint64_t)i);
		/* the root is anycast-like and never slow; only authoritative leaves go dead */
		s->slow = s->tier != TIER_ROOT && hash_unit(h) < cfg->slow_share;
		s->dead = s->tier == TIER_SLD && hash_unit(hash_mix(h)) < cfg->dead_share;
		const struct rtt_table *t = cfg->rtt[s->tier];
		if (t) {
			/* slow servers are the table's tail beyond slow_p, the others the rest */
			double u = hash_unit(hash_combine(h, 0x727474));
			s->rtt_ms = rtt_table_quantile(t, s->slow ? t->slow_p + u * (1 - t->slow_p)
			                                          : u * t->slow_p);
		}
	}
	const struct delegation_faults *f = &cfg->faults;
	plan->faults = *f;
	plan->faults_on = f->all_dead + f->all_lame + f->one_dead + f->one_lame > 0;
	if (plan->faults_on && !servers_index_health(plan, err, err_size)) {
		servers_plan_free(plan);
		return false;
	}
	return true;
}

bool servers_plan_loopback(const struct server_plan *plan)
{
	return (plan->base >> 24) == 127 && plan->prefix >= 8;
}

double rtt_table_quantile(const struct rtt_table *t, double u)
{
	if (u <= t->pt[0].p)
		return t->pt[0].ms;
	for (int i = 1; i < t->n; i++) {
		if (u > t->pt[i].p)
			continue;
		double a = t->pt[i - 1].p, b = t->pt[i].p;
		double x = b > a ? (u - a) / (b - a) : 1;
		return exp(log(t->pt[i - 1].ms) + x * (log(t->pt[i].ms) - log(t->pt[i - 1].ms)));
	}
	return t->pt[t->n - 1].ms;
}

const struct server *servers_live(const struct server_plan *plan, enum tier tier, uint64_t k)
{
	return &plan->servers[plan->live[tier][k % (uint64_t)plan->nlive[tier]]];
}

const struct server *servers_dead(const struct server_plan *plan, uint64_t k)
{
	return &plan->servers[plan->dead[k % (uint64_t)plan->ndead]];
}

const struct server *servers_find(const struct server_plan *plan, uint32_t addr)
{
	if (addr <= plan->base || addr - plan->base - 1 >= (uint32_t)plan->count)
		return NULL;
	return &plan->servers[addr - plan->base - 1];
}

const struct server *servers_tier_server(const struct server_plan *plan, enum tier tier, uint64_t k)
{
	return &plan->servers[plan->first[tier] + (int)(k % (uint64_t)plan->n[tier])];
}

char *servers_addr_text(uint32_t addr, char *buf)
{
	snprintf(buf, 16, "%u.%u.%u.%u", addr >> 24, (addr >> 16) & 255, (addr >> 8) & 255,
	         addr & 255);
	return buf;
}

void servers_plan_free(struct server_plan *plan)
{
	free(plan->servers);
	free(plan->dead);
	for (int t = 0; t < TIER_COUNT; t++)
		free(plan->live[t]);
	memset(plan, 0, sizeof(*plan));
}
