/* reports/spike_shape.c - what the spikes left per variant, how its peaks moved and how many
 * spikes gave back what they freed: the figures the findings and the verdict put into words
 * (reports/README.md "spikes_left_shape", "peaks_shape", "give_back_per_spike"). */
#include "spike_shape.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "advisor.h"
#include "judgement.h"
#include "model.h"

/* A held-memory basis's level before a spike and after a spike's recovery (model.h, per spike),
 * in the advisor's order of bases (advisor_model_held_mb's rank). */
static const struct {
	size_t before, end;
} BASIS_FIGURES[] = {
    {MODEL_SPIKE_FIGURE(before_held_kb), MODEL_SPIKE_FIGURE(end_held_kb)}, /* allocator_held */
    {MODEL_SPIKE_FIGURE(before_beyond_cache_kb),
     MODEL_SPIKE_FIGURE(end_beyond_cache_kb)},                             /* anon_beyond_cache */
    {MODEL_SPIKE_FIGURE(before_anon_kb), MODEL_SPIKE_FIGURE(end_anon_kb)}, /* anon */
};

/* The shape of what the spikes left (reports/README.md "spikes_left_shape"): what each spike left
 * (its level after the recovery minus the level before it: the previous spike's, or the level
 * before the first spike), and, with TREND_MIN_SPIKES spikes after the first, the step of
 * the second spike (an allocator settling after the first) and the robust trend from it on. */
static struct model_shape shape_of(const struct model_variant *mv, double before, size_t end)
{
	size_t n = mv->n_spikes;
	double *x = calloc(n ? n : 1, sizeof(*x)), *y = calloc(n ? n : 1, sizeof(*y));
	struct model_shape sh = {calloc(n ? n : 1, sizeof(double)), n, 0, NAN, NAN, NULL};
	if (!x || !y || !sh.per_spike_mb)
		abort();
	double prev = before;
	for (size_t k = 0; k < n; k++) {
		x[k] = mv->spikes[k].number;
		y[k] = model_spike_figure(&mv->spikes[k], end) / 1024.0;
		sh.per_spike_mb[k] = y[k] - prev;
		prev = y[k];
	}
	if (n >= 1 + TREND_MIN_SPIKES) {
		sh.step_mb = y[1] - y[0];
		sh.step_spike = mv->spikes[1].number;
		sh.trend_mb_per_spike = judgement_spike_trend(x, y, n);
		if (!isnan(sh.trend_mb_per_spike))
			sh.trend = judgement_of_trend(sh.trend_mb_per_spike);
	}
	free(x);
	free(y);
	return sh;
}

/* The robust trend of a spike figure from spike 2 on (shape_of's), NAN with too few. */
static double trend_of(const struct model_variant *mv, size_t figure)
{
	struct model_shape sh = shape_of(mv, NAN, figure);
	free(sh.per_spike_mb);
	return isfinite(sh.trend_mb_per_spike) ? sh.trend_mb_per_spike : NAN;
}

/* The shape of the spikes' peaks (reports/README.md "peaks_shape") into mv->peaks: shape_of over
 * peak anon RSS from the level before the first spike, and the robust trends of live and
 * allocator-held memory at the peaks, which say what moved them. */
static void peaks_shape(struct model_variant *mv)
{
	double before = mv->spikes[0].before_anon_kb / 1024.0;
	mv->peaks.shape = shape_of(mv, before, MODEL_SPIKE_FIGURE(peak_anon_kb));
	mv->peaks.live_trend_mb_per_spike = trend_of(mv, MODEL_SPIKE_FIGURE(peak_live_kb));
	mv->peaks.held_trend_mb_per_spike = trend_of(mv, MODEL_SPIKE_FIGURE(peak_held_kb));
}

/* The lowest and highest of a spike figure over the spikes that have it; how many have it. */
static size_t spikes_range(const struct model_variant *mv, size_t figure, double *lo, double *hi)
{
	size_t n = 0;
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t k = 0; k < mv->n_spikes; k++) {
		double x = model_spike_figure(&mv->spikes[k], figure);
		if (isnan(x))
			continue;
		n++;
		*lo = fmin(*lo, x);
		*hi = fmax(*hi, x);
	}
	return n;
}

/* A share clamped by at least SHARE_MIN_GROWTH_KB of memory: the raw share's distance from
 * [0, 1] times the growth it is a share of (the allocator's part, returned + held growth, where
 * attributed; else the spike's anon RSS growth). */
static bool clamped_beyond_noise(const struct model_spike *sp, bool attributed, double share,
                                 double raw)
{
	if (!model_share_clamped(share, raw))
		return false;
	double of_kb = attributed ? sp->returned_kb + sp->held_growth_kb
	                          : sp->peak_anon_kb - sp->before_anon_kb;
	return !(fabs(raw - share) * of_kb < SHARE_MIN_GROWTH_KB);
}

/* Per spike, not a mean no spike had (reports/README.md "give_back_per_spike"): mv->give_back
 * from its spikes' shares (held_returned_share where attributed, else given_back_share). */
static void give_back_per_spike(struct model_variant *mv)
{
	size_t share_at = mv->attributed ? MODEL_SPIKE_FIGURE(held_returned_share)
	                                 : MODEL_SPIKE_FIGURE(given_back_share);
	size_t raw_at = mv->attributed ? MODEL_SPIKE_FIGURE(held_returned_share_raw)
	                               : MODEL_SPIKE_FIGURE(given_back_share_raw);
	struct model_give_back *g = &mv->give_back;
	*g = (struct model_give_back){.reused_share_min = NAN, .reused_share_max = NAN};
	g->spikes = spikes_range(mv, share_at, &g->share_min, &g->share_max);
	for (size_t k = 0; k < mv->n_spikes; k++) {
		double share = model_spike_figure(&mv->spikes[k], share_at);
		g->given_back_spikes +=
		    !isnan(share) && strcmp(judgement_of_share(share), "returned") == 0;
		g->clamped_spikes +=
		    clamped_beyond_noise(&mv->spikes[k], mv->attributed, share,
		                         model_spike_figure(&mv->spikes[k], raw_at));
	}
	if (g->spikes == 0)
		g->share_min = g->share_max = NAN;
	if (g->spikes > 0 && mv->attributed &&
	    !spikes_range(mv, MODEL_SPIKE_FIGURE(held_reused_share), &g->reused_share_min,
	                  &g->reused_share_max))
		g->reused_share_min = g->reused_share_max = NAN;
	/* a share that rounds to 0 % says nothing either */
	if (isnan(g->reused_share_max) || lround(100 * g->reused_share_max) == 0)
		return;
	for (size_t k = 0; k < mv->n_spikes; k++)
		g->reuse_worth_saying |= mv->spikes[k].reused_kb >= SHARE_MIN_GROWTH_KB;
}

/* What the spikes left (mv->spikes_left) on the advisor's basis of the variant. */
static void spikes_left(struct model_variant *mv)
{
	struct model_spikes_left *l = &mv->spikes_left;
	size_t rank;
	double growth;
	double after = advisor_model_held_mb(mv, &l->basis, &rank, &growth);
	l->basis_rank = rank;
	l->held_before_spikes_mb = l->held_after_spikes_mb = l->spikes_left_mb = NAN;
	if (!l->basis || !mv->n_spikes)
		return;
	/* no measure of what the allocator holds: no figure (and no place in the ranking) rather
	 * than 0 */
	l->na_reason = model_held_na_reason(mv, l->basis);
	if (l->na_reason)
		return;
	l->held_before_spikes_mb =
	    model_spike_figure(&mv->spikes[0], BASIS_FIGURES[rank].before) / 1024.0;
	l->held_after_spikes_mb = after;
	l->spikes_left_mb = after - l->held_before_spikes_mb;
	l->shape = shape_of(mv, l->held_before_spikes_mb, BASIS_FIGURES[rank].end);
}

void spike_shape_add_variant_figures(json_t *summary, struct model *model)
{
	for (size_t i = 0; i < model->n_variants; i++) {
		struct model_variant *mv = &model->variants[i];
		json_t *v = json_object_get(json_object_get(summary, "variants"), mv->name);
		give_back_per_spike(mv);
		json_object_set_new(v, "give_back_per_spike", model_give_back_json(mv));
		if (mv->n_spikes)
			peaks_shape(mv);
		json_object_set_new(v, "peaks_shape", model_peaks_shape_json(mv));
		spikes_left(mv);
		model_spikes_left_json(v, mv);
	}
}
