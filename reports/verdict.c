/* reports/verdict.c - one sentence per variant, computed from its figures, and the ranking of what
 * each holds after the spikes (reports/README.md "verdict"). */
#include "verdict.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judgement.h"
#include "model.h"
#include "spread.h"
#include "strbuf.h"
#include "summary_json.h"
#include "validity.h"

/* What "held after the spikes" measures, per advisor basis (reports/advisor.c). */
static const struct {
	const char *basis, *what, *text;
	const char *missing; /* why a variant lacks this basis */
} BASIS_WORDS[] = {
    {"allocator_held", "held by its allocator beyond live memory",
     "memory the allocator holds beyond live allocations at the end of the last recovery",
     "no live bytes recorded"},
    {"anon_beyond_cache", "of anonymous RSS beyond its cache",
     "anonymous RSS beyond the resolver's cache at the end of the last recovery (no "
     "variant has live bytes)",
     "no cache_bytes reported"},
    {"anon", "of anonymous RSS",
     "anonymous RSS at the end of the last recovery (no variant reports live bytes or its "
     "cache)",
     "no anonymous RSS after a spike"},
};

struct ranked {
	const char *name;
	double held;   /* what the spikes left, ranked; NAN: not ranked (no figure on the basis) */
	double own;    /* held after the spikes on its own best basis */
	double before; /* held before the first spike, on the same basis */
	const char *basis;
};

static int ranked_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (isnan(x->held) != isnan(y->held))
		return isnan(x->held) ? 1 : -1;
	return (x->held > y->held) - (x->held < y->held);
}

/* The index of basis in BASIS_WORDS (the last one if unknown). */
static size_t basis_index(const char *basis)
{
	size_t n = sizeof(BASIS_WORDS) / sizeof(*BASIS_WORDS);
	for (size_t w = 0; basis && w < n; w++)
		if (strcmp(BASIS_WORDS[w].basis, basis) == 0)
			return w;
	return n - 1;
}

/* "; the first spike left +9.1 MB, spike 2 +4.5 MB, then level (+0.06 MB per spike)" (spike 2
 * named only when its step is not level), or with too few spikes for a trend what each spike
 * left. */
static void shape_words(struct strbuf *b, const struct model_shape *shape)
{
	double trend = shape->trend_mb_per_spike, step = shape->step_mb;
	size_t n = shape->n;
	if (!isfinite(trend)) {
		strbuf_printf(b, "; %zu spike%s, too few for a trend (%d or more): ", n,
		              n == 1 ? "" : "s", 1 + TREND_MIN_SPIKES);
		strbuf_append(b, n == 1 ? "it left " : "they left ");
		for (size_t i = 0; i < n; i++) {
			strbuf_append(b, i == 0 ? "" : i + 1 == n ? " and " : ", ");
			if (isfinite(shape->per_spike_mb[i]))
				strbuf_printf(b, "%+.1f", shape->per_spike_mb[i]);
			else
				strbuf_append(b, "n/a");
		}
		strbuf_append(b, " MB");
		return;
	}
	/* what the first spike left leads: it is most of the headline whenever an allocator keeps
	 * a spike's memory, and a trend over the rest would hide it */
	bool first = n > 0 && isfinite(shape->per_spike_mb[0]);
	if (first)
		strbuf_printf(b, "; the first spike left %+.1f MB", shape->per_spike_mb[0]);
	bool stepped = fabs(step) >= CLIMB_MB_PER_SPIKE;
	if (stepped)
		strbuf_printf(b, ", spike %d %+.1f MB", shape->step_spike, step);
	strbuf_append(b, first ? ", then " : "; ");
	/* the word shape_of chose, so the sentence and summary.json never disagree */
	const char *word = shape->trend;
	if (word && strcmp(word, "climbs") == 0)
		strbuf_printf(b, "it climbs %.2f MB per spike", trend);
	else if (word && strcmp(word, "falls") == 0)
		strbuf_printf(b, "it falls %.2f MB per spike", -trend);
	else
		strbuf_printf(b, "level (%+.2f MB per spike)", trend);
}

/* Whether two figures are within the agreement rule of repeated runs (spread.h: 10 %, or 1 MB). */
static bool within_spread(double a, double b)
{
	return spread_pair_agrees(a, b, SPREAD_HELD_FLOOR_MB, false);
}

/* Places beyond the noise: sorted[k]'s place (from 0) is the number of variants whose figure is
 * below its own by more than the agreement rule. Ties are pairwise, not chained from a group's
 * first: two figures a little apart never read "the least" and "the most", whatever lies
 * between them; a variant's place only moves when another is clearly below it. */
static void places_beyond_spread(const struct ranked *sorted, size_t n_ranked, size_t *place)
{
	for (size_t k = 0; k < n_ranked; k++) {
		place[k] = 0;
		for (size_t j = 0; j < k; j++)
			place[k] += !within_spread(sorted[j].held, sorted[k].held);
	}
}

/* "the least", "the most", "3rd from the least" */
static void rank_words(struct strbuf *b, size_t rank, size_t n)
{
	if (rank == 0) {
		strbuf_append(b, "the least");
		return;
	}
	if (rank + 1 == n) {
		strbuf_append(b, "the most");
		return;
	}
	size_t k = rank + 1;
	const char *suffix = k % 100 >= 11 && k % 100 <= 13 ? "th"
	                     : k % 10 == 1                  ? "st"
	                     : k % 10 == 2                  ? "nd"
	                     : k % 10 == 3                  ? "rd"
	                                                    : "th";
	strbuf_printf(b, "%zu%s from the least", k, suffix);
}

/* The reason validity's variant_not_run gives for NAME, or NULL when it ran. */
static const char *not_run_reason(const json_t *summary, const char *name)
{
	const json_t *not_run = validity_reason(summary, "variant_not_run");
	return json_string_value(json_object_get(json_object_get(not_run, "why"), name));
}

/* Per spike, not a mean no spike had (give_back_per_spike): "; its allocator gave back to the
 * system what a spike freed in 7 of 8 spikes (12-97 % of each spike's allocator part, reused by
 * the allocator 0-5 %)", "... what each spike freed (...)", or "kept what the spikes freed (...)".
 * What the allocator reused (its held memory fell, RSS did not) is never called given back. */
static void give_back_words(struct strbuf *b, const struct model_variant *mv)
{
	const struct model_give_back *g = &mv->give_back;
	size_t n = g->spikes, returned = g->given_back_spikes;
	if (n == 0)
		return;
	bool attributed = mv->attributed; /* its shares are held_returned_share */
	const char *who = attributed ? "its allocator" : "it";
	if (returned == n)
		strbuf_printf(b, "; %s gave back to the system what each spike freed", who);
	else if (returned == 0)
		strbuf_printf(b, "; %s kept what the spikes freed", who);
	else
		strbuf_printf(
		    b, "; %s gave back to the system what a spike freed in %zu of %zu spikes", who,
		    returned, n);
	strbuf_append(b, " (");
	judgement_share_range(b, g->share_min, g->share_max);
	strbuf_printf(b, " of each spike's %s", attributed ? "allocator part" : "anon RSS growth");
	double rhi = g->reused_share_max;
	if (g->reuse_worth_saying) {
		strbuf_append(b, ", reused by the allocator ");
		judgement_share_range(b, g->reused_share_min, rhi);
	}
	if (g->clamped_spikes)
		strbuf_append(b,
		              ", clamped to 0-100 %: a level ended outside the spike's own range");
	strbuf_append(b, ")");
}

static void sentence(struct strbuf *b, const struct model_variant *mv, const struct ranked *r,
                     size_t rank, size_t n_ranked, const char *tied, const char *ranked_basis,
                     const char *not_run)
{
	model_variant_label(b, mv, false);
	if (not_run) {
		strbuf_printf(b, ": did not run (%s).", not_run);
		return;
	}
	const char *what = BASIS_WORDS[basis_index(r->basis)].what;
	const char *na = mv->spikes_left.na_reason;
	if (na) {
		strbuf_printf(b, ": memory %s, before and after the spikes: n/a: %s (not ranked)",
		              what, na);
	} else if (isnan(r->own)) {
		strbuf_append(b, ": no figure after the spikes (no spike with a recovery was "
		                 "recorded).");
		return;
	} else if (isnan(r->before))
		strbuf_printf(b, ": %.1f MB %s after the spikes (no level before the first spike)",
		              r->own, what);
	else
		strbuf_printf(
		    b,
		    ": the spikes left %+.1f MB %s (from %.1f MB before the first spike to "
		    "%.1f MB after the last recovery)",
		    r->own - r->before, what, r->before, r->own);
	if (!isnan(r->held) && n_ranked > 1) {
		strbuf_append(b, ", ");
		rank_words(b, rank, n_ranked);
		strbuf_printf(b, " of %zu", n_ranked);
		if (tied && *tied) {
			strbuf_printf(b, ", tied with %s (", tied);
			strbuf_printf(
			    b, "no difference beyond the run-to-run spread, %.0f %% or %.0f MB)",
			    SPREAD_AGREE_SHARE * 100, SPREAD_HELD_FLOOR_MB);
		}
	} else if (isnan(r->held) && !isnan(r->before)) {
		strbuf_printf(b, " (not ranked: %s)",
		              BASIS_WORDS[basis_index(ranked_basis)].missing);
	}
	if (!na)
		shape_words(b, &mv->spikes_left.shape);
	if (validity_spikes_under_answered(mv)) {
		strbuf_append(b, "; over capacity in ");
		validity_under_answered_words(b, mv);
	}
	give_back_words(b, mv);
	double crashes = mv->crash_count;
	if (crashes > 0)
		strbuf_printf(b, "; it crashed (%.0f time%s)", crashes, crashes == 1 ? "" : "s");
	strbuf_append(b, ".");
}

json_t *verdict_build(const json_t *summary, const struct model *model)
{
	const json_t *order = json_object_get(summary, "variant_order");
	const json_t *variants = json_object_get(summary, "variants");
	size_t n = json_array_size(order), n_ranked = 0, best = SIZE_MAX;
	struct ranked *r = calloc(n ? n : 1, sizeof(*r));
	size_t *basis_rank = calloc(n ? n : 1, sizeof(*basis_rank));
	if (!r || !basis_rank)
		abort();
	/* Ranked on what the spikes left, on the best basis any variant has (allocator-held memory
	 * where attributed); a variant without it is described on its own basis but not ranked
	 * against the others. */
	for (size_t i = 0; i < n; i++) {
		r[i].name = json_string_value(json_array_get(order, i));
		/* spike_shape.c's: what the spikes left on the variant's best basis, NAN (and so
		 * not ranked) where its figures cannot be formed */
		const struct model_spikes_left *l =
		    &model_variant_named(model, r[i].name)->spikes_left;
		r[i].own = l->held_after_spikes_mb;
		r[i].basis = l->basis;
		basis_rank[i] = l->basis ? l->basis_rank : SIZE_MAX;
		r[i].before = l->held_before_spikes_mb;
		/* a variant whose figures are n/a on its basis still names the basis ranked on */
		if ((!isnan(r[i].own) || l->na_reason) && basis_rank[i] < best)
			best = basis_rank[i];
	}
	const char *best_basis = NULL;
	for (size_t i = 0; i < n; i++) {
		r[i].held = basis_rank[i] == best ? r[i].own - r[i].before : NAN;
		if (basis_rank[i] == best)
			best_basis = r[i].basis;
		n_ranked += !isnan(r[i].held);
	}
	free(basis_rank);
	struct ranked *sorted = malloc((n ? n : 1) * sizeof(*sorted));
	if (!sorted)
		abort();
	memcpy(sorted, r, n * sizeof(*r));
	qsort(sorted, n, sizeof(*sorted), ranked_cmp);
	size_t *place = calloc(n ? n : 1, sizeof(*place));
	if (!place)
		abort();
	places_beyond_spread(sorted, n_ranked, place);
	json_t *ranking = json_array(), *sentences = json_array();
	for (size_t i = 0; i < n_ranked; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "variant", json_string(sorted[i].name));
		json_object_set_new(o, "place", json_integer((json_int_t)place[i] + 1));
		json_object_set_new(o, "spikes_left_mb", json_real(sorted[i].held));
		json_object_set_new(o, "held_before_spikes_mb", json_real(sorted[i].before));
		json_object_set_new(o, "held_after_spikes_mb", json_real(sorted[i].own));
		json_object_set(
		    o, "colour",
		    json_object_get(json_object_get(variants, sorted[i].name), "colour"));
		json_array_append_new(ranking, o);
	}
	for (size_t i = 0; i < n; i++) {
		size_t rank = 0;
		for (size_t k = 0; k < n_ranked; k++)
			if (strcmp(sorted[k].name, r[i].name) == 0)
				rank = k;
		/* the others within the agreement rule of its figure, "a, b and c" */
		struct strbuf tied = {0};
		size_t n_tied = 0, shown = 0;
		for (size_t k = 0; k < n_ranked; k++)
			n_tied += k != rank && within_spread(sorted[k].held, sorted[rank].held);
		for (size_t k = 0; k < n_ranked && n_tied; k++) {
			if (k == rank || !within_spread(sorted[k].held, sorted[rank].held))
				continue;
			shown++;
			strbuf_printf(&tied, "%s%s",
			              shown == 1        ? ""
			              : shown == n_tied ? " and "
			                                : ", ",
			              sorted[k].name);
		}
		struct strbuf b = {0};
		sentence(&b, model_variant_named(model, r[i].name), &r[i],
		         n_ranked ? place[rank] : 0, n_ranked, tied.s, best_basis,
		         not_run_reason(summary, r[i].name));
		json_array_append_new(sentences, json_string(b.s));
		strbuf_free(&b);
		strbuf_free(&tied);
	}
	free(place);
	size_t words = basis_index(best_basis);
	free(r);
	free(sorted);
	json_t *o = json_object();
	json_object_set_new(o, "held_basis", json_string(BASIS_WORDS[words].basis));
	json_object_set_new(o, "held_basis_text", json_string(BASIS_WORDS[words].text));
	json_object_set_new(o, "ranking", ranking);
	json_object_set_new(o, "sentences", sentences);
	return o;
}

const char *verdict_grid_cell(const json_t *spike, char *buf, size_t size)
{
	double peak = summary_number(spike, "peak_anon_kb"),
	       end = summary_number(spike, "end_anon_kb");
	char p[32] = "n/a", e[32] = "n/a";
	if (!isnan(peak))
		snprintf(p, sizeof(p), "%.1f", peak / 1024);
	if (!isnan(end))
		snprintf(e, sizeof(e), "%.1f", end / 1024);
	snprintf(buf, size, "%s / %s", p, e);
	return buf;
}
