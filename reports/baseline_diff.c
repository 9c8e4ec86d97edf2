/* reports/baseline_diff.c - new runs against a baseline, figure by figure (compare.json). */
#include "baseline_diff.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fixed_point.h"
#include "judgement.h"
#include "spread.h"
#include "strbuf.h"
#include "summary_json.h"

/* The headline figures: those the verdict and the traffic table lead with. floor: the agreement
 * rule's floor in the figure's unit (spread.h: 1 MB for held memory; for growth per spike the one
 * threshold of "level", judgement.h; a share is judged in points, spread_agrees_share); better: -1
 * when less is better, +1 when more is. */
static const struct diff_figure {
	const char *key, *label, *unit;
	double floor;
	int better;
} FIGURES[] = {
    {"spikes_left_mb", "left behind by the spikes", "MB", SPREAD_HELD_FLOOR_MB, -1},
    {"held_after_spikes_mb", "held after the spikes", "MB", SPREAD_HELD_FLOOR_MB, -1},
    {"held_before_spikes_mb", "held before the spikes", "MB", SPREAD_HELD_FLOOR_MB, -1},
    {"peaks_shape.trend_mb_per_spike", "peak trend per spike", "MB/spike", CLIMB_MB_PER_SPIKE, -1},
    {"traffic_by_send.phases.spike.answered_share", "answered, of the queries sent in spikes",
     "share", 0, 1},
    {"traffic_by_send.phases.spike.lat_p50_ms", "latency p50 in spikes", "ms", 0, -1},
    {"traffic_by_send.phases.spike.lat_p99_ms", "latency p99 in spikes", "ms", 0, -1},
    {"cpu_s_per_million_answered", "CPU per million answered", "s", 0, -1},
    {"crash_count", "crashes", "", 0, -1},
};
enum { N_FIGURES = sizeof(FIGURES) / sizeof(FIGURES[0]) };

/* A side's figure over its runs: the median, and the spread of its repeats (NAN with one). */
static struct spread side_figure(const struct diff_side *side, const char *variant, const char *key)
{
	double *x = calloc(side->n ? side->n : 1, sizeof(*x));
	if (!x)
		abort();
	for (size_t r = 0; r < side->n; r++) {
		const json_t *v =
		    json_object_get(json_object_get(side->summaries[r], "variants"), variant);
		x[r] = summary_number(v, key);
	}
	struct spread s = spread_of(x, side->n);
	free(x);
	return s;
}

static json_t *side_json(const struct spread *s)
{
	return json_pack("{s:o, s:o, s:I}", "value", summary_json_real(s->median), "spread",
	                 summary_json_real(s->n >= 2 ? s->max - s->min : NAN), "runs",
	                 (json_int_t)s->n);
}

/* One new side's figure against the baseline's: the difference, what allowed for it (the
 * repeats' spread when either side has repeats, else the agreement rule) and the change. A figure
 * n/a on both sides is no change; n/a on one side only is a change ("was n/a", "now n/a"). */
static json_t *judge(const struct spread *base, const struct spread *now,
                     const struct diff_figure *f, size_t *changed)
{
	json_t *o = side_json(now);
	if (base->n == 0 || now->n == 0) {
		bool both = base->n == 0 && now->n == 0;
		json_object_set_new(o, "difference", json_null());
		json_object_set_new(o, "basis", both ? json_string("n/a in both") : json_null());
		json_object_set_new(o, "change",
		                    json_string(both           ? "no change"
		                                : base->n == 0 ? "was n/a"
		                                               : "now n/a"));
		json_object_set_new(o, "direction", json_null());
		*changed += !both;
		return o;
	}
	double d = now->median - base->median;
	bool repeats = base->n >= 2 || now->n >= 2;
	bool same;
	if (repeats) {
		double spread = fmax(base->n >= 2 ? base->max - base->min : 0,
		                     now->n >= 2 ? now->max - now->min : 0);
		same = fabs(d) <= spread;
		json_object_set_new(o, "basis", json_string("repeats"));
		json_object_set_new(o, "tolerance", json_real(spread));
	} else {
		same = spread_pair_agrees(base->median, now->median, f->floor,
		                          strcmp(f->unit, "share") == 0);
		json_object_set_new(o, "basis", json_string("agreement rule"));
	}
	json_object_set_new(o, "difference", json_real(d));
	json_object_set_new(o, "change",
	                    json_string(same    ? "no change"
	                                : d > 0 ? "higher"
	                                        : "lower"));
	json_object_set_new(o, "direction",
	                    same ? json_null()
	                         : json_string(d * f->better > 0 ? "better" : "worse"));
	*changed += !same;
	return o;
}

/* A side as given and its runs, each with when it started (summary run.started): the pages name
 * the baseline by both. */
static json_t *side_header(const struct diff_side *side)
{
	json_t *dirs = json_array(), *started = json_array();
	for (size_t r = 0; r < side->n; r++) {
		json_array_append_new(dirs, json_string(side->dirs[r]));
		const json_t *t = summary_lookup(side->summaries[r], "run.started");
		json_array_append_new(started,
		                      json_is_string(t) ? json_copy((json_t *)t) : json_null());
	}
	return json_pack("{s:s, s:o, s:o}", "label", side->label, "dirs", dirs, "started", started);
}

/* The rule in words, its floors from FIGURES: "... (within 10 %, or within 1 MB for a figure in
 * MB, 0.5 MB/spike for one in MB/spike; a share within 2 percentage points, whatever its
 * ratio)". */
static json_t *rule(void)
{
	struct strbuf b = {0};
	char t[64];
	strbuf_printf(&b,
	              "A difference inside the run-to-run spread is no change: the spread of the "
	              "repeats (max - min) where either side has them, else the agreement rule "
	              "of repeated runs (within %s %%",
	              fixed_point(t, sizeof(t), 100 * SPREAD_AGREE_SHARE, 3));
	const char *sep = ", or within ";
	for (size_t f = 0; f < N_FIGURES; f++) {
		bool first = FIGURES[f].floor > 0;
		for (size_t e = 0; e < f && first; e++)
			first =
			    strcmp(FIGURES[e].unit, FIGURES[f].unit) != 0 || FIGURES[e].floor <= 0;
		if (!first)
			continue;
		strbuf_printf(&b, "%s%s %s for a figure in %s", sep,
		              fixed_point(t, sizeof(t), FIGURES[f].floor, 3), FIGURES[f].unit,
		              FIGURES[f].unit);
		sep = ", ";
	}
	strbuf_printf(&b, "; a share within %s percentage points, whatever its ratio).",
	              fixed_point(t, sizeof(t), SPREAD_SHARE_FLOOR_POINTS, 3));
	json_t *o = json_pack("{s:f, s:s}", "agree_share", SPREAD_AGREE_SHARE, "text", b.s);
	strbuf_free(&b);
	return o;
}

json_t *baseline_diff_build(const struct diff_side *baseline, const struct diff_side *sides,
                            size_t n_sides, const json_t *names)
{
	json_t *out = json_object(), *figures = json_array(), *variants = json_object();
	json_t *runs = json_array();
	for (size_t f = 0; f < N_FIGURES; f++)
		json_array_append_new(figures,
		                      json_pack("{s:s, s:s, s:s, s:o, s:s}", "key", FIGURES[f].key,
		                                "label", FIGURES[f].label, "unit", FIGURES[f].unit,
		                                "floor", json_real(FIGURES[f].floor), "better",
		                                FIGURES[f].better > 0 ? "more" : "less"));
	for (size_t k = 0; k < n_sides; k++)
		json_array_append_new(runs, side_header(&sides[k]));
	size_t changed = 0, compared = 0, i;
	json_t *name;
	json_array_foreach(names, i, name)
	{
		const char *vn = json_string_value(name);
		json_t *per = json_object();
		for (size_t f = 0; f < N_FIGURES; f++) {
			struct spread base = side_figure(baseline, vn, FIGURES[f].key);
			json_t *news = json_array();
			for (size_t k = 0; k < n_sides; k++) {
				struct spread now = side_figure(&sides[k], vn, FIGURES[f].key);
				compared++;
				json_array_append_new(news,
				                      judge(&base, &now, &FIGURES[f], &changed));
			}
			json_object_set_new(
			    per, FIGURES[f].key,
			    json_pack("{s:o, s:o}", "baseline", side_json(&base), "runs", news));
		}
		json_object_set_new(variants, vn, per);
	}
	json_object_set_new(out, "format", json_integer(1));
	json_object_set_new(out, "rule", rule());
	json_object_set_new(out, "baseline", side_header(baseline));
	json_object_set_new(out, "runs", runs);
	json_object_set_new(out, "figures", figures);
	json_object_set_new(out, "variant_order", json_deep_copy(names));
	json_object_set_new(out, "variants", variants);
	json_object_set_new(out, "compared", json_integer((json_int_t)compared));
	json_object_set_new(out, "changed", json_integer((json_int_t)changed));
	return out;
}
