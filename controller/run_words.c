/* controller/run_words.c - the rows' and the placement's words (run_words.h). */
#include "run_words.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "identifier.h"
#include "run_json.h"
#include "variant_command.h"
#include "variants_table.h"

/* The three settings' values: the cache's bytes, the in-flight cap, the memory layout. */
static bool resolver_values(const json_t *options, char values[3][64], char *err, size_t err_size)
{
	unsigned long long cache;
	if (!cli_parse_size("cache_size", run_json_option_or_empty(options, "cache_size"), 0, ~0ull,
	                    &cache, err, err_size))
		return false;
	snprintf(values[0], 64, "%llu", cache);
	snprintf(values[1], 64, "%s", run_json_option_or_empty(options, "max_inflight"));
	snprintf(values[2], 64, "%s", run_json_option_or_empty(options, "memory_layout"));
	return true;
}

bool run_words_resolver(char ***list, size_t *n, const json_t *options, char *err, size_t err_size)
{
	char v[3][64];
	if (!resolver_values(options, v, err, err_size))
		return false;
	if (!variant_words_add_list(list, n, "--cache-size", v[0], "--max-inflight", v[1],
	                            "--memory-layout", v[2])) {
		snprintf(err, err_size, "out of memory");
		return false;
	}
	return true;
}

void run_words_source(const char *root, char *table, size_t table_size, char *daemons,
                      size_t daemons_size)
{
	snprintf(table, table_size, "%s/variants.tsv", root);
	snprintf(daemons, daemons_size, "%s/scenarios/daemons", root);
}

bool run_words_chosen(const struct variants_table *table, const json_t *options, size_t *chosen,
                      size_t *n, char *rows, size_t size, char *err, size_t err_size)
{
	*n = 0;
	if (!variants_table_select(table, run_json_option_or_empty(options, "variants"), chosen, n,
	                           err, err_size))
		return false;
	rows[0] = '\0';
	for (size_t i = 0; i < *n; i++)
		snprintf(rows + strlen(rows), size - strlen(rows), "%s%s", i ? "," : "",
		         table->rows[chosen[i]].cells[VARIANT_NAME]);
	return true;
}

bool run_words_rows(char ***list, size_t *n, const json_t *options, const struct run_words_rows *r,
                    char *err, size_t err_size)
{
	char table[PATH_MAX + 16], daemons[PATH_MAX + 32];
	run_words_source(r->root, table, sizeof(table), daemons, sizeof(daemons));
	if (!variant_words_add_list(list, n, table, r->bin, daemons, r->rows, r->hints, r->port,
	                            r->tls, "--")) {
		snprintf(err, err_size, "out of memory");
		return false;
	}
	return run_words_resolver(list, n, options, err, err_size);
}

/* The last name of path, its length into *len (a trailing '/' left out). */
static const char *last_name(const char *path, size_t end, size_t *len)
{
	while (end > 1 && path[end - 1] == '/')
		end--;
	size_t start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	*len = end - start;
	return path + start;
}

/* The run's id for place: `run-` and the run folder's name; a repeat's (allocspike-run repeat's
 * ALLOCSPIKE_REPEAT, its folder DIR/run-I) `run-`, DIR's name and `-repI`, so that no two runs an
 * agent serves share an id (a shard's fragment folder is named by it, and must be new). Cut to
 * leave a pass's suffix room within an identifier; what an identifier refuses made `_`. */
static void place_run_id(const char *run_dir, char *id, size_t size)
{
	size_t len;
	const char *name = last_name(run_dir, strlen(run_dir), &len);
	const char *repeat_text = getenv("ALLOCSPIKE_REPEAT");
	json_t *repeat = repeat_text ? json_loads(repeat_text, 0, NULL) : NULL;
	json_int_t i = json_integer_value(json_object_get(repeat, "run"));
	json_decref(repeat);
	char tail[32] = "";
	if (i > 0 && name > run_dir) { /* the repeats' folder's name, then which repeat */
		name = last_name(run_dir, (size_t)(name - run_dir), &len);
		snprintf(tail, sizeof(tail), "-rep%lld", (long long)i);
	}
	size_t keep = IDENTIFIER_MAX_LEN - RUN_WORDS_PASS_ROOM - strlen("run-") - strlen(tail);
	snprintf(id, size, "run-%.*s%s", (int)(len < keep ? len : keep), name, tail);
	identifier_sanitize(id);
}

bool run_words_place(char *out, size_t size, const json_t *options, const char *run_dir, char *err,
                     size_t err_size)
{
	char v[3][64], id[IDENTIFIER_MAX_LEN + 1];
	if (!resolver_values(options, v, err, err_size))
		return false;
	place_run_id(run_dir, id, sizeof(id));
	long interval = strtol(run_json_option_or_empty(options, "interval_ms"), NULL, 10),
	     half = interval / 2;
	if (half < 10)
		half = 10;
	int len = snprintf(out, size,
	                   "--hosts\n%s\n--token-file\n%s\n--run\n%s\n--root-hints\n%s/root.hints\n"
	                   "--interval\n%ldms\n--timeline-interval\n%ldms\n--allow-controller\n--\n"
	                   "--cache-size\n%s\n--max-inflight\n%s\n--memory-layout\n%s",
	                   run_json_option_or_empty(options, "hosts"),
	                   run_json_option_or_empty(options, "token_file"), id, run_dir, half,
	                   interval, v[0], v[1], v[2]);
	if (len < 0 || (size_t)len >= size) {
		snprintf(err, err_size, "place's options are too long");
		return false;
	}
	return true;
}

bool run_words_place_pass(const char *words, const char *pass, char *out, size_t size)
{
	const char *at = strstr(words, "\n--run\n"); /* never the first word: --hosts is */
	if (!at)
		return false;
	at += strlen("\n--run\n");
	size_t id_len = strcspn(at, "\n");
	int len = snprintf(out, size, "%.*s%.*s-%s%s", (int)(at - words), words, (int)id_len, at,
	                   pass, at + id_len);
	return len >= 0 && (size_t)len < size;
}
