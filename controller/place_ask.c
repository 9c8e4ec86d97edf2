/* controller/place_ask.c - what place asks the agents before the plans (place_ask.h). */
#include "place_ask.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_client.h"

/* Each question is answered at once (a table read, the host's addresses). */
#define PLACE_ASK_TIMEOUT_S 10

/* GET path of each of n agents at once into calls (addrs, addr_texts); false when libevent
 * cannot set up. */
static bool place_ask_all(struct plan_call *calls, const struct hosts_entry *const *entries,
                          size_t n, const char *path, const char *token)
{
	for (size_t i = 0; i < n; i++)
		calls[i] = (struct plan_call){.addr = (const struct sockaddr *)&entries[i]->addr,
		                              .addr_text = entries[i]->addr_text,
		                              .get = true,
		                              .path = path};
	return plan_client_call_all(calls, n, token, PLACE_ASK_TIMEOUT_S);
}

/* The answer's JSON object, or NULL with why (no answer, an HTTP error, not JSON). */
static json_t *place_ask_answer(const struct plan_call *c, const char *path, char *why,
                                size_t why_size)
{
	json_t *a = c->status == 200 ? json_loads(c->answer ? c->answer : "", 0, NULL) : NULL;
	if (c->status == 0)
		snprintf(why, why_size, "GET %s: %s", path, c->error);
	else if (!json_is_object(a))
		snprintf(why, why_size, "GET %s answered HTTP %d: %.200s", path, c->status,
		         c->answer ? c->answer : "");
	if (!json_is_object(a)) {
		json_decref(a);
		return NULL;
	}
	return a;
}

/* Whether the agent's /rows answer lets row run there: false, why into why, when its program is
 * missing there. */
static bool place_ask_row_judge(const json_t *answer, const char *row, char *why, size_t size)
{
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(answer, "rows"), i, r)
	{
		const char *name = json_string_value(json_object_get(r, "row"));
		if (!name || strcmp(name, row) != 0)
			continue;
		if (json_is_true(json_object_get(r, "runnable")))
			return true;
		snprintf(why, size, "the row cannot run on that host: missing %s",
		         json_string_value(json_object_get(r, "missing"))
		             ? json_string_value(json_object_get(r, "missing"))
		             : "its program");
		return false;
	}
	return true; /* not in the agent's table: its plan's refusal names the table */
}

bool place_ask_rows(const struct place_row *rows, size_t n, const struct place_options *o,
                    struct events_log *log)
{
	struct plan_call *calls = calloc(n ? n : 1, sizeof(*calls));
	const struct hosts_entry **entries = calloc(n ? n : 1, sizeof(*entries));
	for (size_t i = 0; entries && i < n; i++)
		entries[i] = rows[i].entry;
	bool ok = calls && entries && place_ask_all(calls, entries, n, "/rows", o->token);
	if (!ok)
		fprintf(stderr, "allocspike-run place: out of memory, or libevent failed\n");
	for (size_t i = 0; ok && i < n; i++) {
		const struct hosts_entry *e = rows[i].entry;
		char why[768];
		/* an agent that does not answer is left to its plan, which says why */
		json_t *a = place_ask_answer(&calls[i], "/rows", why, sizeof(why));
		ok = !a || place_ask_row_judge(a, e->row, why, sizeof(why));
		json_decref(a);
		if (ok)
			continue;
		char what[IDENTIFIER_MAX_LEN + 16];
		snprintf(what, sizeof(what), ", row %s", e->row);
		place_refused(log, e, e->row, what, why);
	}
	for (size_t i = 0; calls && i < n; i++)
		plan_call_free(&calls[i]);
	free(calls);
	free(entries);
	return ok;
}

/* allow (ADDR/32, ADDR/128: one client of a row's --allow) appended to list unless there. */
static void place_ask_allow_add(json_t *list, const char *allow)
{
	size_t i;
	json_t *v;
	json_array_foreach(list, i, v) if (strcmp(json_string_value(v), allow) == 0) return;
	json_array_append_new(list, json_string(allow));
}

bool place_ask_sources(struct place_options *o, struct events_log *log)
{
	size_t n = o->n_shards;
	struct plan_call *calls = calloc(n ? n : 1, sizeof(*calls));
	const struct hosts_entry **entries = calloc(n ? n : 1, sizeof(*entries));
	for (size_t i = 0; entries && i < n; i++)
		entries[i] = &o->shards[i];
	o->shard_allow = json_array();
	bool ok = calls && entries && o->shard_allow &&
	          place_ask_all(calls, entries, n, "/sources", o->token);
	if (!ok)
		fprintf(stderr, "allocspike-run place: out of memory, or libevent failed\n");
	for (size_t i = 0; ok && i < n; i++) {
		const struct hosts_entry *e = entries[i];
		char why[768], own[INET6_ADDRSTRLEN + 8];
		json_t *a = place_ask_answer(&calls[i], "/sources", why, sizeof(why));
		if (place_allow_of(&e->addr, own, sizeof(own)))
			place_ask_allow_add(o->shard_allow, own);
		size_t k;
		json_t *v;
		json_array_foreach(json_object_get(a, "sources"), k, v)
		{
			const char *addr = json_string_value(v);
			char allow[80];
			if (!addr || strlen(addr) >= INET6_ADDRSTRLEN)
				continue;
			snprintf(allow, sizeof(allow), "%s/%d", addr, strchr(addr, ':') ? 128 : 32);
			place_ask_allow_add(o->shard_allow, allow);
		}
		if (!(ok = a != NULL))
			place_refused(log, e, "_controller", ", a generator host", why);
		json_decref(a);
	}
	for (size_t i = 0; calls && i < n; i++)
		plan_call_free(&calls[i]);
	free(calls);
	free(entries);
	return ok;
}
