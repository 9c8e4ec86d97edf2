/* reports/verdict.c - one sentence per variant, computed from its figures, and the ranking of what
 * each holds after the spikes (reports/README.md "verdict"). */
#include "verdict.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"
#include "strbuf.h"
#include "summary.h"

static double num(const json_t *o, const char *path)
{
	const json_t *x = summary_lookup(o, path);
	return json_is_number(x) ? json_number_value(x) : NAN;
}

/* What "held after the spikes" measures, per advisor basis (reports/advisor.c). */
static const struct {
	const char *basis, *what, *text;
} BASIS_WORDS[] = {
    {"allocator_held", "held by its allocator beyond live memory",
     "memory the allocator holds beyond live allocations at the end of the last recovery"},
    {"anon_beyond_cache", "of anonymous RSS beyond its cache",
     "anonymous RSS beyond the resolver's cache at the end of the last recovery (no "
     "attribution in this run)"},
    {"anon", "of anonymous RSS",
     "anonymous RSS at the end of the last recovery (some rows report neither attribution "
     "nor their cache)"},
};

struct ranked {
	const char *name;
	double held;
};

static int ranked_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (isnan(x->held) != isnan(y->held))
		return isnan(x->held) ? 1 : -1;
	return (x->held > y->held) - (x->held < y->held);
}

static void sentence(struct strbuf *b, const char *name, const json_t *v, const char *what,
                     size_t rank, size_t n_ranked)
{
	const char *alloc = json_string_value(json_object_get(v, "allocator"));
	const char *env = json_string_value(json_object_get(v, "env"));
	strbuf_append(b, name);
	if (alloc || (env && *env && strcmp(env, "-") != 0)) {
		strbuf_append(b, " (");
		strbuf_append(b, alloc ? alloc : "allocator unknown");
		if (env && *env && strcmp(env, "-") != 0)
			strbuf_printf(b, ", %s", env);
		strbuf_append(b, ")");
	}
	double held = num(v, "advisor.held_after_spikes_mb");
	if (isnan(held)) {
		strbuf_append(b, ": no figure after the spikes (no spike with a recovery was "
		                 "recorded).");
		return;
	}
	strbuf_printf(b, ": %.1f MB %s after the spikes", held, what);
	if (n_ranked > 1)
		strbuf_printf(b, ", %s of %zu",
		              rank == 0              ? "the least"
		              : rank + 1 == n_ranked ? "the most"
		                                     : "in between",
		              n_ranked);
	double growth = num(v, "advisor.held_growth_mb_per_spike");
	if (growth >= CLIMB_MB_PER_SPIKE)
		strbuf_printf(b, "; it climbs %.2f MB per spike", growth);
	else if (growth <= -CLIMB_MB_PER_SPIKE)
		strbuf_printf(b, "; it falls %.2f MB per spike", -growth);
	else if (!isnan(growth))
		strbuf_printf(b, "; level from spike to spike (%+.2f MB per spike)", growth);
	const char *how = json_string_value(json_object_get(v, "attribution"));
	bool attributed = how && strcmp(how, "unavailable") != 0;
	double share = num(v, attributed ? "mean_held_given_back_share" : "mean_given_back_share");
	if (!isnan(share)) {
		const char *verdict = findings_verdict_of(share);
		strbuf_printf(b, "; %s %s what the spikes freed (%.0f %% of each spike's %s given "
		                 "back)",
		              attributed ? "its allocator" : "it",
		              strcmp(verdict, "returned") == 0 ? "returned"
		              : strcmp(verdict, "kept") == 0   ? "kept"
		                                               : "kept part of",
		              share * 100, attributed ? "allocator part" : "anon RSS growth");
	}
	json_int_t crashes = json_integer_value(json_object_get(v, "crash_count"));
	if (crashes > 0)
		strbuf_printf(b, "; it crashed (%lld time%s)", (long long)crashes,
		              crashes == 1 ? "" : "s");
	strbuf_append(b, ".");
}

json_t *verdict_build(const json_t *summary)
{
	const json_t *order = json_object_get(summary, "variant_order");
	const json_t *variants = json_object_get(summary, "variants");
	size_t n = json_array_size(order), n_ranked = 0;
	struct ranked *r = calloc(n ? n : 1, sizeof(*r));
	const char *basis = NULL;
	for (size_t i = 0; r && i < n; i++) {
		r[i].name = json_string_value(json_array_get(order, i));
		const json_t *v = json_object_get(variants, r[i].name);
		r[i].held = num(v, "advisor.held_after_spikes_mb");
		n_ranked += !isnan(r[i].held);
		if (!basis)
			basis = json_string_value(summary_lookup(v, "advisor.held_basis"));
	}
	size_t words = sizeof(BASIS_WORDS) / sizeof(*BASIS_WORDS) - 1;
	for (size_t w = 0; basis && w < sizeof(BASIS_WORDS) / sizeof(*BASIS_WORDS); w++)
		if (strcmp(BASIS_WORDS[w].basis, basis) == 0)
			words = w;
	qsort(r, n, sizeof(*r), ranked_cmp); /* stable enough: names differ, order is by value */
	json_t *ranking = json_array(), *sentences = json_array();
	for (size_t i = 0; i < n; i++) {
		if (isnan(r[i].held))
			continue;
		json_t *o = json_object();
		json_object_set_new(o, "variant", json_string(r[i].name));
		json_object_set_new(o, "held_after_spikes_mb", json_real(r[i].held));
		json_object_set(o, "colour",
		                json_object_get(json_object_get(variants, r[i].name), "colour"));
		json_array_append_new(ranking, o);
	}
	for (size_t i = 0; i < n; i++) {
		const char *name = json_string_value(json_array_get(order, i));
		size_t rank = 0;
		for (size_t k = 0; k < n; k++)
			if (strcmp(r[k].name, name) == 0)
				rank = k;
		struct strbuf b = {0};
		sentence(&b, name, json_object_get(variants, name), BASIS_WORDS[words].what, rank,
		         n_ranked);
		json_array_append_new(sentences, json_string(b.s));
		strbuf_free(&b);
	}
	free(r);
	json_t *o = json_object();
	json_object_set_new(o, "held_basis", json_string(BASIS_WORDS[words].basis));
	json_object_set_new(o, "held_basis_text", json_string(BASIS_WORDS[words].text));
	json_object_set_new(o, "ranking", ranking);
	json_object_set_new(o, "sentences", sentences);
	return o;
}

const char *verdict_grid_cell(const json_t *spike, char *buf, size_t size)
{
	double peak = num(spike, "peak_anon_kb"), end = num(spike, "end_anon_kb");
	char p[32] = "n/a", e[32] = "n/a";
	if (!isnan(peak))
		snprintf(p, sizeof(p), "%.1f", peak / 1024);
	if (!isnan(end))
		snprintf(e, sizeof(e), "%.1f", end / 1024);
	snprintf(buf, size, "%s / %s", p, e);
	return buf;
}
