/* querydata/stats.c - a query file's statistics: popularity, types, name shapes, cacheability. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hashcount.h"
#include "nameshape.h"
#include "queryfile.h"

double stats_zipf_exponent(const uint32_t *sorted_counts, size_t n, size_t max_rank)
{
	size_t k = n < max_rank ? n : max_rank;
	if (k < 2)
		return 0;
	double sx = 0, sy = 0, sxx = 0, sxy = 0;
	for (size_t i = 0; i < k; i++) {
		double x = log((double)(i + 1)), y = log((double)sorted_counts[i]);
		sx += x;
		sy += y;
		sxx += x * x;
		sxy += x * y;
	}
	double denom = (double)k * sxx - sx * sx;
	return denom == 0 ? 0 : -((double)k * sxy - sx * sy) / denom;
}

static int stats_cmp_desc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* The first malformed lines go to stderr with their numbers; a file of junk does not flood it. */
#define STATS_REPORT_MAX 20

static void stats_report(void *ctx, const char *path, unsigned long line, const char *reason)
{
	unsigned long *reported = ctx;
	if (++*reported <= STATS_REPORT_MAX)
		queryfile_report_stderr(NULL, path, line, reason);
}

bool stats_compute(const char *path, struct stats *st, char *err, size_t err_size)
{
	memset(st, 0, sizeof(*st));
	unsigned long reported = 0;
	struct queryfile *qf = queryfile_open(path, false, stats_report, &reported, err, err_size);
	if (!qf)
		return false;
	struct hashcount names, pairs;
	if (!hashcount_init(&names, 1 << 16) || !hashcount_init(&pairs, 1 << 16)) {
		snprintf(err, err_size, "out of memory");
		queryfile_close(qf);
		return false;
	}
	struct queryfile_entry e;
	int rc;
	bool ok = true;
	while ((rc = queryfile_next(qf, &e)) == 1) {
		st->queries++;
		st->type_counts[e.qtype]++;
		uint64_t key = hashcount_name_key(e.name, e.name_len);
		if (hashcount_add(&names, key) == 0 ||
		    hashcount_add(&pairs, hashcount_pair_key(key, e.qtype)) == 0) {
			snprintf(err, err_size, "%s:%lu: out of memory", path, e.line);
			ok = false;
			break;
		}
		size_t len = nameshape_length(e.name, e.name_len);
		size_t labels = nameshape_labels(e.name, e.name_len);
		st->length_hist[len < STATS_LENGTH_MAX ? len : STATS_LENGTH_MAX]++;
		st->labels_hist[labels < STATS_LABELS_MAX ? labels : STATS_LABELS_MAX]++;
		st->reverse += nameshape_is_reverse(e.name, e.name_len);
		st->malformed += nameshape_is_malformed(e.name, e.name_len);
		st->underscore += nameshape_has_underscore_label(e.name, e.name_len);
		st->single_label += labels == 1;
		st->root += labels == 0;
	}
	if (ok && rc < 0) {
		snprintf(err, err_size, "%s", queryfile_error(qf));
		ok = false;
	}
	st->lines_skipped = queryfile_skipped(qf);
	if (reported > STATS_REPORT_MAX)
		fprintf(stderr, "%s: %lu more malformed lines not shown\n", path,
		        reported - STATS_REPORT_MAX);
	queryfile_close(qf);
	if (ok) {
		st->unique_names = names.used;
		st->unique_pairs = pairs.used;
		uint32_t *counts = malloc((names.used ? names.used : 1) * sizeof(*counts));
		if (!counts) {
			snprintf(err, err_size, "out of memory");
			ok = false;
		} else {
			size_t n = 0;
			for (size_t i = 0; i < names.size; i++)
				if (names.keys[i])
					counts[n++] = names.counts[i];
			qsort(counts, n, sizeof(*counts), stats_cmp_desc);
			uint64_t top1 = 0, top10 = 0;
			for (size_t i = 0; i < n; i++) {
				st->once_names += counts[i] == 1;
				if (i < n / 100)
					top1 += counts[i];
				if (i < n / 10)
					top10 += counts[i];
			}
			if (st->queries) {
				st->top1_share = (double)top1 / (double)st->queries;
				st->top10_share = (double)top10 / (double)st->queries;
			}
			st->zipf_exponent = stats_zipf_exponent(counts, n, 1000);
			free(counts);
		}
	}
	hashcount_free(&names);
	hashcount_free(&pairs);
	return ok;
}

/* The value below which a share q of the histogram's mass lies (nearest rank, as sorted[q*n]). */
static size_t stats_hist_quantile(const uint64_t *hist, size_t max, uint64_t total, double q)
{
	uint64_t want = (uint64_t)((double)total * q);
	uint64_t seen = 0;
	for (size_t i = 0; i <= max; i++) {
		seen += hist[i];
		if (seen > want)
			return i;
	}
	return max;
}

static size_t stats_hist_max(const uint64_t *hist, size_t max)
{
	for (size_t i = max + 1; i-- > 0;)
		if (hist[i])
			return i;
	return 0;
}

static double stats_share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0;
}

/* Types by count, descending (ties by number): fills order, returns how many types occur. */
static size_t stats_type_order(const struct stats *st, uint16_t *order)
{
	size_t n = 0;
	for (size_t t = 0; t < 65536; t++)
		if (st->type_counts[t])
			order[n++] = (uint16_t)t;
	for (size_t i = 1; i < n; i++) {
		uint16_t v = order[i];
		size_t j = i;
		while (j > 0 && st->type_counts[order[j - 1]] < st->type_counts[v]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = v;
	}
	return n;
}

json_t *stats_to_json(const struct stats *st, const char *path)
{
	json_t *o = json_object();
	json_object_set_new(o, "file", json_string(path));
	json_object_set_new(o, "queries", json_integer((json_int_t)st->queries));
	json_object_set_new(o, "lines_skipped", json_integer((json_int_t)st->lines_skipped));
	json_object_set_new(o, "unique_names", json_integer((json_int_t)st->unique_names));
	json_object_set_new(o, "unique_name_type", json_integer((json_int_t)st->unique_pairs));
	json_t *types = json_object();
	static uint16_t order[65536];
	size_t ntypes = stats_type_order(st, order);
	for (size_t i = 0; i < ntypes; i++) {
		char name[16];
		queryfile_type_format(order[i], name, sizeof(name));
		json_object_set_new(types, name,
		                    json_real(stats_share(st->type_counts[order[i]], st->queries)));
	}
	json_object_set_new(o, "type_shares", types);
	json_object_set_new(o, "once_seen_names_share",
	                    json_real(stats_share(st->once_names, st->unique_names)));
	json_object_set_new(o, "once_seen_queries_share",
	                    json_real(stats_share(st->once_names, st->queries)));
	json_object_set_new(o, "top1pct_names_query_share", json_real(st->top1_share));
	json_object_set_new(o, "top10pct_names_query_share", json_real(st->top10_share));
	json_object_set_new(o, "zipf_exponent_top1000", json_real(st->zipf_exponent));
	json_t *len = json_object();
	json_object_set_new(len, "median",
	                    json_integer((json_int_t)stats_hist_quantile(
	                        st->length_hist, STATS_LENGTH_MAX, st->queries, 0.5)));
	json_object_set_new(len, "p99",
	                    json_integer((json_int_t)stats_hist_quantile(
	                        st->length_hist, STATS_LENGTH_MAX, st->queries, 0.99)));
	json_object_set_new(
	    len, "max",
	    json_integer((json_int_t)stats_hist_max(st->length_hist, STATS_LENGTH_MAX)));
	json_object_set_new(o, "name_length", len);
	json_t *labels = json_object();
	json_object_set_new(labels, "median",
	                    json_integer((json_int_t)stats_hist_quantile(
	                        st->labels_hist, STATS_LABELS_MAX, st->queries, 0.5)));
	json_object_set_new(
	    labels, "max",
	    json_integer((json_int_t)stats_hist_max(st->labels_hist, STATS_LABELS_MAX)));
	json_t *shares = json_object();
	for (size_t i = 0; i <= STATS_LABELS_MAX; i++) {
		if (!st->labels_hist[i])
			continue;
		char key[8];
		snprintf(key, sizeof(key), "%zu", i);
		json_object_set_new(shares, key,
		                    json_real(stats_share(st->labels_hist[i], st->queries)));
	}
	json_object_set_new(labels, "shares", shares);
	json_object_set_new(o, "labels", labels);
	json_object_set_new(o, "reverse_share", json_real(stats_share(st->reverse, st->queries)));
	json_object_set_new(o, "malformed_share",
	                    json_real(stats_share(st->malformed, st->queries)));
	json_object_set_new(o, "underscore_share",
	                    json_real(stats_share(st->underscore, st->queries)));
	json_object_set_new(o, "single_label_share",
	                    json_real(stats_share(st->single_label, st->queries)));
	json_object_set_new(o, "root_queries", json_integer((json_int_t)st->root));
	json_object_set_new(
	    o, "max_cache_answer_share",
	    json_real(st->queries ? 1.0 - stats_share(st->unique_pairs, st->queries) : 0));
	return o;
}

void stats_print_text(const struct stats *st, const char *path, FILE *out)
{
	uint64_t q = st->queries;
	fprintf(out, "file: %s\n", path);
	fprintf(out, "queries: %llu (malformed lines skipped: %llu)\n", (unsigned long long)q,
	        (unsigned long long)st->lines_skipped);
	fprintf(out, "unique names: %llu; unique (name, type): %llu\n",
	        (unsigned long long)st->unique_names, (unsigned long long)st->unique_pairs);
	fprintf(out, "types:");
	static uint16_t order[65536];
	size_t ntypes = stats_type_order(st, order);
	for (size_t i = 0; i < ntypes; i++) {
		char name[16];
		queryfile_type_format(order[i], name, sizeof(name));
		fprintf(out, " %s %.2f%%", name, 100 * stats_share(st->type_counts[order[i]], q));
	}
	fprintf(out, "\n");
	fprintf(out, "names seen once: %.1f%% of names, %.1f%% of queries\n",
	        100 * stats_share(st->once_names, st->unique_names),
	        100 * stats_share(st->once_names, q));
	fprintf(out, "top 1%% of names: %.1f%% of queries; top 10%%: %.1f%%\n",
	        100 * st->top1_share, 100 * st->top10_share);
	fprintf(out, "Zipf exponent (ranks 1-1000): %.3f\n", st->zipf_exponent);
	fprintf(out, "name length: median %zu, p99 %zu, max %zu\n",
	        stats_hist_quantile(st->length_hist, STATS_LENGTH_MAX, q, 0.5),
	        stats_hist_quantile(st->length_hist, STATS_LENGTH_MAX, q, 0.99),
	        stats_hist_max(st->length_hist, STATS_LENGTH_MAX));
	fprintf(out, "labels: median %zu, max %zu, 3 labels %.1f%%\n",
	        stats_hist_quantile(st->labels_hist, STATS_LABELS_MAX, q, 0.5),
	        stats_hist_max(st->labels_hist, STATS_LABELS_MAX),
	        100 * stats_share(st->labels_hist[3], q));
	fprintf(out,
	        "reverse (in-addr/ip6.arpa): %.1f%%; malformed: %.2f%%; underscore labels: %.2f%%; "
	        "single-label: %.2f%%; root: %llu\n",
	        100 * stats_share(st->reverse, q), 100 * stats_share(st->malformed, q),
	        100 * stats_share(st->underscore, q), 100 * stats_share(st->single_label, q),
	        (unsigned long long)st->root);
	fprintf(out, "share of queries a cache could at most answer: %.1f%%\n",
	        q ? 100 * (1.0 - stats_share(st->unique_pairs, q)) : 0.0);
}
