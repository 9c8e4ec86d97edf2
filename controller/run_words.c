/* controller/run_words.c - the rows' and the placement's words (run_words.h). */
#include "run_words.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "run_json.h"
#include "identifier.h"
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

bool run_words_place(char *out, size_t size, const json_t *options, const char *run_dir, char *err,
                     size_t err_size)
{
	char v[3][64], id[256];
	if (!resolver_values(options, v, err, err_size))
		return false;
	const char *base = strrchr(run_dir, '/') ? strrchr(run_dir, '/') + 1 : run_dir;
	snprintf(id, sizeof(id), "run-%.200s", base);
	identifier_sanitize(id);
	long interval = strtol(run_json_option_or_empty(options, "interval_ms"), NULL, 10),
	     half = interval / 2;
	if (half < 10)
		half = 10;
	int len = snprintf(out, size,
	                   "--hosts\n%s\n--token-file\n%s\n--run\n%s\n--interval\n%ldms\n"
	                   "--timeline-interval\n%ldms\n--allow-controller\n--\n--cache-size\n%s\n"
	                   "--max-inflight\n%s\n--memory-layout\n%s",
	                   run_json_option_or_empty(options, "hosts"),
	                   run_json_option_or_empty(options, "token_file"), id, half, interval,
	                   v[0], v[1], v[2]);
	if (len < 0 || (size_t)len >= size) {
		snprintf(err, err_size, "place's options are too long");
		return false;
	}
	return true;
}
