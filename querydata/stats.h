/* querydata/stats.h - a query file's statistics: popularity, types, name shapes, cacheability. */
#ifndef ALLOCSPIKE_QUERYDATA_STATS_H
#define ALLOCSPIKE_QUERYDATA_STATS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define STATS_LENGTH_MAX 1100
#define STATS_LABELS_MAX 128

struct stats {
	uint64_t queries;
	uint64_t lines_skipped; /* malformed lines the parser rejected */
	uint64_t unique_names;
	uint64_t unique_pairs; /* unique (name, type) */
	uint64_t type_counts[65536];
	uint64_t once_names;            /* names seen exactly once (= queries of such names) */
	double top1_share, top10_share; /* share of queries of the top 1% / 10% of names */
	double zipf_exponent;           /* least-squares slope of log count over log rank 1..1000 */
	uint64_t length_hist[STATS_LENGTH_MAX + 1];
	uint64_t labels_hist[STATS_LABELS_MAX + 1];
	uint64_t reverse, malformed, underscore, single_label, root;
};

/* Least-squares Zipf exponent of counts sorted descending, over ranks 1..min(n, max_rank). */
double stats_zipf_exponent(const uint32_t *sorted_counts, size_t n, size_t max_rank);

/* Reads path (any query file: plain, .xz, .gz, "-") and fills st; false with err on error. */
bool stats_compute(const char *path, struct stats *st, char *err, size_t err_size);

/* The statistics as one JSON object (shares are fractions 0..1). */
json_t *stats_to_json(const struct stats *st, const char *path);

/* The same as readable text. */
void stats_print_text(const struct stats *st, const char *path, FILE *out);

#endif
