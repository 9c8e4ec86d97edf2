/* upstream/stats.c - counting queries and outcomes, and their JSON form. */
#include "stats.h"

#include <ldns/ldns.h>
#include <stdio.h>

struct stats_counts *stats_source(struct stats *st, uint32_t addr)
{
	for (int i = 0; i < st->nsources; i++)
		if (st->sources[i].addr == addr)
			return &st->sources[i].c;
	if (st->nsources == STATS_MAX_SOURCES)
		return &st->other_sources;
	st->sources[st->nsources].addr = addr;
	return &st->sources[st->nsources++].c;
}

void stats_note_query(struct stats *st, uint32_t source, enum tier tier, bool tcp)
{
	struct stats_counts *c[3] = {&st->total, &st->tier[tier], stats_source(st, source)};
	for (int i = 0; i < 3; i++) {
		c[i]->queries++;
		c[i]->tcp += tcp;
	}
}

void stats_note_dropped(struct stats *st, uint32_t source, enum tier tier)
{
	st->total.dropped++;
	st->tier[tier].dropped++;
	stats_source(st, source)->dropped++;
}

void stats_note_answered(struct stats *st, uint32_t source, enum tier tier, int rcode,
                         enum answer_kind kind, bool truncated, uint32_t delay_ms)
{
	struct stats_counts *c[3] = {&st->total, &st->tier[tier], stats_source(st, source)};
	for (int i = 0; i < 3; i++) {
		c[i]->answered++;
		c[i]->truncated += truncated;
	}
	st->rcode[rcode & 15]++;
	st->kind[kind]++;
	st->delay_ms_sum += delay_ms;
}

static json_t *stats_counts_json(const struct stats_counts *c)
{
	return json_pack("{s:I,s:I,s:I,s:I,s:I}", "queries", (json_int_t)c->queries, "answered",
	                 (json_int_t)c->answered, "dropped", (json_int_t)c->dropped, "truncated",
	                 (json_int_t)c->truncated, "tcp", (json_int_t)c->tcp);
}

json_t *stats_json(const struct stats *st, double now_s)
{
	json_t *o = stats_counts_json(&st->total);
	json_object_set_new(o, "uptime_s", json_real(now_s - st->start_s));
	json_object_set_new(o, "malformed", json_integer((json_int_t)st->malformed));
	json_object_set_new(o, "not_server", json_integer((json_int_t)st->not_server));
	json_object_set_new(o, "delay_ms_mean",
	                    json_real(st->total.answered
	                                  ? (double)st->delay_ms_sum / (double)st->total.answered
	                                  : 0.0));
	json_t *rc = json_object();
	for (int i = 0; i < 16; i++) {
		if (!st->rcode[i])
			continue;
		ldns_lookup_table *lt = ldns_lookup_by_id(ldns_rcodes, i);
		char num[16];
		snprintf(num, sizeof(num), "RCODE%d", i);
		json_object_set_new(rc, lt ? lt->name : num,
		                    json_integer((json_int_t)st->rcode[i]));
	}
	json_object_set_new(o, "rcode", rc);
	json_t *kinds = json_object();
	for (int i = 0; i < ANSWER_KIND_COUNT; i++)
		json_object_set_new(kinds, answer_kind_names[i],
		                    json_integer((json_int_t)st->kind[i]));
	json_object_set_new(o, "answer_kind", kinds);
	json_t *tiers = json_object();
	for (int t = 0; t < TIER_COUNT; t++)
		json_object_set_new(tiers, tier_names[t], stats_counts_json(&st->tier[t]));
	json_object_set_new(o, "tier", tiers);
	json_t *src = json_object();
	char addr[16];
	for (int i = 0; i < st->nsources; i++) {
		servers_addr_text(st->sources[i].addr, addr);
		json_object_set_new(src, addr, stats_counts_json(&st->sources[i].c));
	}
	if (st->other_sources.queries)
		json_object_set_new(src, "other", stats_counts_json(&st->other_sources));
	json_object_set_new(o, "sources", src);
	return o;
}
