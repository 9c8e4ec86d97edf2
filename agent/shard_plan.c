/* agent/shard_plan.c - a shard plan parsed and checked (shard_plan.h). */
#include "shard_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "identifier.h"
#include "plan_request.h"
#include "queries_upload.h"
#include "sockaddr_parse.h"

const char *const shard_plan_keys[] = {"shard", "schedule", "queries", "start_at", "targets", NULL};

/* A word that reaches the generator's argv: visible ASCII, not an option. */
static bool shard_word(const char *w)
{
	return w && *w != '-' && plan_word_printable(w);
}

/* key's string, a word (shard_word), copied into *out. */
static bool shard_string(json_t *root, const char *key, char **out, char *err, size_t err_size)
{
	const char *s = json_string_value(json_object_get(root, key));
	if (!shard_word(s)) {
		snprintf(err, err_size, "\"%s\" is required, a string of visible characters", key);
		return false;
	}
	if (!(*out = strdup(s)))
		snprintf(err, err_size, "out of memory");
	return *out != NULL;
}

/* "I/N", 1 <= I <= N <= SHARD_PLAN_MAX */
static bool shard_index(json_t *root, struct shard_plan *s, char *err, size_t err_size)
{
	const char *text = json_string_value(json_object_get(root, "shard"));
	int used = 0;
	if (!text || sscanf(text, "%u/%u%n", &s->index, &s->count, &used) != 2 ||
	    text[used] != '\0' || s->index < 1 || s->index > s->count ||
	    s->count > SHARD_PLAN_MAX) {
		snprintf(err, err_size, "\"shard\": \"I/N\" with 1 <= I <= N <= %d",
		         SHARD_PLAN_MAX);
		return false;
	}
	return true;
}

/* Each target a row's name and a numeric ADDR:PORT, as the generator's --target takes them. */
static bool shard_targets(json_t *root, struct shard_plan *s, char *err, size_t err_size)
{
	json_t *list = json_object_get(root, "targets");
	size_t n = json_array_size(list);
	if (n == 0 || n > SHARD_PLAN_MAX) {
		snprintf(err, err_size, "\"targets\": an array of 1 to %d {\"name\", \"addr\"}",
		         SHARD_PLAN_MAX);
		return false;
	}
	if (!(s->targets = calloc(n + 1, sizeof(char *)))) {
		snprintf(err, err_size, "out of memory");
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *t = json_array_get(list, i);
		const char *name = json_string_value(json_object_get(t, "name"));
		const char *addr = json_string_value(json_object_get(t, "addr"));
		struct sockaddr_storage ss;
		socklen_t len;
		char why[160];
		if (!name || !identifier_valid(name, why, sizeof(why)) || !addr ||
		    json_object_size(t) != 2 ||
		    !sockaddr_parse(addr, 0, &ss, &len, why, sizeof(why))) {
			snprintf(err, err_size,
			         "\"targets\"[%zu]: {\"name\": a row's name, \"addr\": ADDR:PORT}",
			         i);
			return false;
		}
		size_t size = strlen(name) + strlen(addr) + 16;
		if (!(s->targets[i] = malloc(size))) {
			snprintf(err, err_size, "out of memory");
			return false;
		}
		snprintf(s->targets[i], size, "name=%s,addr=%s", name, addr);
		s->n_targets++;
	}
	return true;
}

bool shard_plan_fields(json_t *root, struct shard_plan *s, char *err, size_t err_size)
{
	double t0;
	char why[256];
	if (!shard_index(root, s, err, err_size) ||
	    !shard_string(root, "schedule", &s->schedule, err, err_size) ||
	    !shard_string(root, "queries", &s->queries, err, err_size) ||
	    !shard_string(root, "start_at", &s->start_at, err, err_size) ||
	    !shard_targets(root, s, err, err_size))
		return false;
	if (s->queries[0] != '/' && !queries_upload_named(s->queries)) {
		snprintf(err, err_size,
		         "\"queries\": \"%sHEX\", a query file sent to this agent (PUT /queries), "
		         "or an absolute path on the agent's host",
		         QUERIES_UPLOAD_PREFIX);
		return false;
	}
	if (!cli_parse_number("\"start_at\"", s->start_at, 1, 1e11, &t0, why, sizeof(why))) {
		snprintf(err, err_size, "%s", why);
		return false;
	}
	return true;
}

void shard_plan_free(struct shard_plan *s)
{
	for (size_t i = 0; i < s->n_targets; i++)
		free(s->targets[i]);
	free(s->targets);
	free(s->schedule);
	free(s->queries);
	free(s->start_at);
	*s = (struct shard_plan){0};
}
