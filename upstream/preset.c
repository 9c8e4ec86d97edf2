/* upstream/preset.c - the named worlds; docs/upstream.md ("Worlds") gives each number's source. */
#include "preset.h"

#include "flat_world.h"

#include <string.h>

/* Root servers, as one resolver sees the letters: median RTT 25-32 ms per letter from RIPE Atlas
 * (Schmidt et al., PAM 2017); the tails are estimates. Anycast: no slow tail. */
static const struct rtt_table preset_rtt_root = {
    .n = 5,
    .pt = {{0, 2}, {0.10, 8}, {0.50, 28}, {0.90, 90}, {1, 250}},
    .slow_p = 1,
};

/* Registries: estimates between the anycast root and the registered domains' servers. */
static const struct rtt_table preset_rtt_tld = {
    .n = 6,
    .pt = {{0, 3}, {0.10, 12}, {0.50, 40}, {0.90, 120}, {0.97, 300}, {1, 800}},
    .slow_p = 0.97,
};

/* Registered domains' servers: per-server average response times measured from one vantage
 * point over 500,000 name servers (SolveDNS, June 2012): p1 5, p5 17, p10 30, p50 87, p75 171,
 * p90 216, p97 500 ms; the 3% beyond 500 ms are the slow servers; 1500 ms at the end is an
 * estimate. */
static const struct rtt_table preset_rtt_sld = {
    .n = 9,
    .pt = {{0, 2},
           {0.01, 5},
           {0.05, 17},
           {0.10, 30},
           {0.50, 87},
           {0.75, 171},
           {0.90, 216},
           {0.97, 500},
           {1, 1500}},
    .slow_p = 0.97,
};

static const struct preset preset_all[] = {
    {.name = "lan"},
    {
        .name = "internet",
        .rtt = {&preset_rtt_root, &preset_rtt_tld, &preset_rtt_sld},
        .slow_share = 0.03,
        .slow_factor = 1,
        .dead_share = 0.05,
        .faults = {.all_dead = 0.015, .all_lame = 0.015, .one_dead = 0.055, .one_lame = 0.055},
        .loss = 0.01,
        .jitter_p99 = 1.5,
        .late_share = 0.0033,
        .late_min_ms = 500,
        .late_max_ms = 1500,
    },
    {
        /* the published single-authoritative lab setups: docs/upstream.md, "The flat world" */
        .name = "flat",
        .flat_tlds = FLAT_TLDS_DEFAULT,
        /* the authoritative server's delay in the kresd experiment of DESIGN.md ("a local
         * authoritative server behind a 20 ms delay") and the lan world's median */
        .flat_delay_ms = 20,
        .loss = 0, /* optional (--loss): most of those setups drop nothing */
    },
    {
        .name = "hostile",
        .rtt = {&preset_rtt_root, &preset_rtt_tld, &preset_rtt_sld},
        .slow_share = 0.10,
        .slow_factor = 2,
        .dead_share = 0.10,
        .faults = {.all_dead = 0.05, .all_lame = 0.05, .one_dead = 0.07, .one_lame = 0.08},
        .loss = 0.04,
        .jitter_p99 = 2,
        .late_share = 0.02,
        .late_min_ms = 500,
        .late_max_ms = 3000,
    },
};

#define PRESET_COUNT (sizeof(preset_all) / sizeof(preset_all[0]))

const struct preset *preset_find(const char *name)
{
	for (size_t i = 0; i < PRESET_COUNT; i++)
		if (strcmp(preset_all[i].name, name) == 0)
			return &preset_all[i];
	return NULL;
}

const char *preset_names(void)
{
	return "lan|internet|hostile|flat";
}

void preset_apply(const struct preset *p, struct server_plan_config *pcfg,
                  struct netem_config *ncfg, double *loss)
{
	if (p->flat_tlds) {
		static const int one_server[TIER_COUNT] = {1, 0, 0};
		memcpy(pcfg->n, one_server, sizeof(one_server));
		pcfg->slow_share = pcfg->dead_share = 0;
		*loss = p->loss;
		return;
	}
	if (!p->rtt[TIER_SLD])
		return; /* lan: the defaults are its numbers */
	for (int t = 0; t < TIER_COUNT; t++)
		pcfg->rtt[t] = p->rtt[t];
	pcfg->slow_share = p->slow_share;
	pcfg->dead_share = p->dead_share;
	pcfg->faults = p->faults;
	ncfg->slow_factor = p->slow_factor;
	ncfg->jitter_p99 = p->jitter_p99;
	ncfg->late_share = p->late_share;
	ncfg->late_min_ms = p->late_min_ms;
	ncfg->late_max_ms = p->late_max_ms;
	*loss = p->loss;
}

void preset_count_delegations(const struct world *w, long n, struct delegation_count *c)
{
	static const char *const registries[] = {"com.", "net.", "org.", "de.", "co.uk.", "nl."};
	memset(c, 0, sizeof(*c));
	char name[64];
	struct zone_chain chain;
	for (long i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "d%ld.%s", i, registries[i % 6]);
		zones_chain(w, name, &chain);
		if (!chain.exists)
			continue; /* not registered */
		const struct zone *z = &chain.zones[chain.depth - 1];
		int dead = 0, lame = 0;
		for (int k = 0; k < z->nns; k++) {
			dead += z->ns[k]->dead;
			lame += (int)(z->lame >> k & 1);
		}
		c->total++;
		c->all_dead += dead == z->nns;
		c->one_dead += dead > 0 && dead < z->nns;
		c->all_lame += lame == z->nns;
		c->one_lame += lame > 0 && lame < z->nns;
	}
}

void preset_print_world(const struct world *w, const char *name, FILE *out)
{
	const struct server_plan *plan = w->plan;
	fprintf(out, "world %s seed %llu\n", name, (unsigned long long)w->seed);
	char addr[16];
	for (int i = 0; i < plan->count; i++) {
		const struct server *s = &plan->servers[i];
		fprintf(out, "server %d %s %s rtt_ms %.1f slow %d dead %d\n", s->index,
		        servers_addr_text(s->addr, addr), tier_names[s->tier], s->rtt_ms, s->slow,
		        s->dead);
	}
	if (w->flat_tlds) {
		fprintf(out, "tlds %u\n", w->flat_tlds);
		return;
	}
	struct delegation_count c;
	preset_count_delegations(w, 20000, &c);
	fprintf(out, "delegations %ld all_dead %.4f one_dead %.4f all_lame %.4f one_lame %.4f\n",
	        c.total, (double)c.all_dead / c.total, (double)c.one_dead / c.total,
	        (double)c.all_lame / c.total, (double)c.one_lame / c.total);
}
