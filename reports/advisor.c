/* reports/advisor.c - the tuning advisor's figures and judgements, from the runs' summary.json
 * (reports/README.md "Advisor"). The page is advisor_page.c. */
#include "advisor.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "spread.h"
#include "strbuf.h"
#include "summary_json.h"

/* The figures per setting, in the order of MODEL_ADVISOR_FIGURES (at: their place in struct
 * model_advisor). A difference between two settings counts only when it is larger than the
 * run-to-run spread of both and than the floor: floor_mb in the figure's unit, or floor_share of
 * the larger value (what one run on a shared machine cannot tell apart). */
#define AT(name) offsetof(struct model_advisor, name)
static const struct advisor_figure {
	const char *key;
	size_t at;
	double floor_abs, floor_share;
} FIGURES[] = {
    {"held_after_spikes_mb", AT(held_after_spikes_mb), SPREAD_HELD_FLOOR_MB, 0},
    {"held_growth_mb_per_spike", AT(held_growth_mb_per_spike), 0.25, 0},
    {"peak_anon_mb", AT(peak_anon_mb), 1.0, 0},
    {"cpu_s_per_million_answered", AT(cpu_s_per_million_answered), 0, 0.05},
    {"spike_lat_p99_ms", AT(spike_lat_p99_ms), 0, 0.10},
};
#undef AT
/* Indexes into FIGURES, in its order. */
enum { FIG_HELD, FIG_GROWTH, FIG_PEAK, FIG_CPU, FIG_P99, N_FIGURES };
_Static_assert(N_FIGURES == sizeof(FIGURES) / sizeof(FIGURES[0]), "one index per figure");
#define COUNT_FIGURE(name) +1
_Static_assert(N_FIGURES == 0 MODEL_ADVISOR_FIGURES(COUNT_FIGURE), "one figure per model field");
#undef COUNT_FIGURE

/* What "held memory" is measured as: the best basis every variant of every run has, so that all
 * settings are compared like with like. Each level by its summary.json key and its place in the
 * model (the last spike's end, the variant's growth). */
static const struct advisor_basis {
	const char *name, *end_key, *growth_key, *text;
	size_t end_at, growth_at;
} BASES[] = {
    {"allocator_held", "end_held_kb", "recovery_held_growth_mb_per_spike",
     "memory the allocator holds beyond live allocations (alloc_heap_bytes - live_bytes) at the "
     "end of the last recovery",
     MODEL_SPIKE_FIGURE(end_held_kb), MODEL_VARIANT_FIGURE(recovery_held_growth_mb_per_spike)},
    {"anon_beyond_cache", "end_beyond_cache_kb", "beyond_cache_growth_mb_per_spike",
     "anonymous RSS beyond the resolver's cache at the end of the last recovery (fallback: "
     "these runs have no attributed figures)",
     MODEL_SPIKE_FIGURE(end_beyond_cache_kb),
     MODEL_VARIANT_FIGURE(beyond_cache_growth_mb_per_spike)},
    {"anon", "end_anon_kb", "recovery_growth_mb_per_spike",
     "anonymous RSS at the end of the last recovery (fallback: some rows report neither "
     "attributed figures nor their cache, as daemons without a stats command)",
     MODEL_SPIKE_FIGURE(end_anon_kb), MODEL_VARIANT_FIGURE(recovery_growth_mb_per_spike)},
};
enum { N_BASES = sizeof(BASES) / sizeof(BASES[0]) };

/* One variant of one run as the advisor reads it: a finished summary's object (the advice over
 * runs, v) or the model (the one-run pass, mv). Each figure has one rule (run_figure, held_mb),
 * read through these from either. */
struct variant_view {
	const json_t *v;
	const struct model_variant *mv;
};

/* The last spike's value (the level after the spikes), NAN if it has none. */
static double view_last_spike(const struct variant_view *w, const char *key, size_t at)
{
	if (w->mv)
		return w->mv->n_spikes ? model_spike_figure(&w->mv->spikes[w->mv->n_spikes - 1], at)
		                       : NAN;
	const json_t *spikes = json_object_get(w->v, "spikes");
	size_t n = json_array_size(spikes);
	return n ? summary_number(json_array_get(spikes, n - 1), key) : NAN;
}

/* The highest value over the spikes, NAN if none has one. */
static double view_max_spike(const struct variant_view *w, const char *key, size_t at)
{
	double best = NAN;
	size_t n = w->mv ? w->mv->n_spikes : json_array_size(json_object_get(w->v, "spikes"));
	for (size_t k = 0; k < n; k++) {
		double x =
		    w->mv ? model_spike_figure(&w->mv->spikes[k], at)
		          : summary_number(json_array_get(json_object_get(w->v, "spikes"), k), key);
		if (isfinite(x) && !(x <= best))
			best = x;
	}
	return best;
}

static double view_variant(const struct variant_view *w, const char *key, size_t at)
{
	return w->mv ? model_variant_figure(w->mv, at) : summary_number(w->v, key);
}

/* The p99 latency of the queries sent in spikes: the true quantile when the run kept their
 * histograms, else the median of the intervals' p99. */
static double view_spike_p99(const struct variant_view *w)
{
	if (!w->mv) {
		double p99 = summary_number(w->v, "traffic_by_send.phases.spike.lat_p99_ms");
		return isfinite(p99)
		           ? p99
		           : summary_number(w->v, "spike_traffic.lat_p99_ms_of_intervals");
	}
	const struct model_send_traffic *spike = model_send_phase(w->mv, MODEL_TRAFFIC_SPIKE);
	double p99 = spike ? spike->lat_p99_ms : NAN;
	return isfinite(p99) ? p99 : w->mv->spike_traffic.lat_p99_ms_of_intervals;
}

/* One run's value of figure f for a variant, held memory on the given basis. */
static double run_figure(const struct variant_view *w, int f, const struct advisor_basis *basis)
{
	/* a variant whose held figures are n/a on the basis (spikes_left_na_reason) has none here
	 * either, not the floored 0 */
	if ((f == FIG_HELD || f == FIG_GROWTH) &&
	    (w->mv ? model_held_na_reason(w->mv, basis->name) != NULL
	           : json_is_string(json_object_get(w->v, "spikes_left_na_reason")) &&
	                 strcmp(basis->name, "allocator_held") == 0))
		return NAN;
	switch (f) {
	case FIG_HELD:
		return view_last_spike(w, basis->end_key, basis->end_at) / 1024.0;
	case FIG_GROWTH:
		return view_variant(w, basis->growth_key, basis->growth_at);
	case FIG_PEAK: {
		double peak = view_max_spike(w, "peak_anon_kb", MODEL_SPIKE_FIGURE(peak_anon_kb));
		return (isfinite(peak)
		            ? peak
		            : view_variant(w, "max_anon_kb", MODEL_VARIANT_FIGURE(max_anon_kb))) /
		       1024.0;
	}
	case FIG_CPU:
		return view_variant(w, "cpu_s_per_million_answered",
		                    MODEL_VARIANT_FIGURE(cpu_s_per_million_answered));
	case FIG_P99:
		return view_spike_p99(w);
	default:
		return NAN;
	}
}

/* A summary's variant as a view (v NULL: the run has no such variant). */
static struct variant_view summary_view(const json_t *summary, const char *name)
{
	return (struct variant_view){json_object_get(json_object_get(summary, "variants"), name),
	                             NULL};
}

struct advisor_stat {
	double median, spread; /* spread: max - min over the runs, NAN with fewer than two */
	size_t n;
};

static struct advisor_stat stat_of(double *xs, size_t n)
{
	struct advisor_stat s = {NAN, NAN, n};
	if (n == 0)
		return s;
	qsort(xs, n, sizeof(*xs), spread_cmp_double);
	s.median = n % 2 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
	if (n >= 2)
		s.spread = xs[n - 1] - xs[0];
	return s;
}

/* -1, 0 or 1: a below, as, above b once the spreads and the floor are allowed for; 2 when either
 * is missing. */
static int judge(const struct advisor_stat *a, const struct advisor_stat *b, int f)
{
	if (!isfinite(a->median) || !isfinite(b->median))
		return 2;
	double noise = FIGURES[f].floor_abs;
	noise = fmax(noise, FIGURES[f].floor_share * fmax(fabs(a->median), fabs(b->median)));
	if (isfinite(a->spread))
		noise = fmax(noise, a->spread);
	if (isfinite(b->spread))
		noise = fmax(noise, b->spread);
	double d = a->median - b->median;
	return fabs(d) <= noise ? 0 : d < 0 ? -1 : 1;
}

struct setting {
	const char *name;
	char group[256];
	bool reference; /* the group's row without settings (env "-") */
	bool paired; /* measured beside the group's default in the same runs (pair_with_default) */
	struct advisor_stat fig[N_FIGURES];
	json_t *out;
};

static const json_t *run_row(const json_t *run_json, const char *name)
{
	size_t i;
	const json_t *row;
	json_array_foreach(json_object_get(run_json, "variants"), i, row)
	{
		if (strcmp(json_string_value(json_object_get(row, "name")) ?: "", name) == 0)
			return row;
	}
	return NULL;
}

static const char *str(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return s ? s : "";
}

/* Settings of the same program and allocator form a group: a build row with its env rows (the
 * env rows' base), a daemon with one preloaded library and its env rows. */
static void setting_group(struct setting *s, const json_t *row, const json_t *v)
{
	const char *kind = row ? str(row, "kind") : str(v, "kind");
	const char *base = row ? str(row, "base") : "";
	const char *env = str(v, "env");
	s->reference = env[0] == '\0' || strcmp(env, "-") == 0;
	if (strcmp(kind, "build") == 0)
		snprintf(s->group, sizeof(s->group), "%s", s->name);
	else if (strcmp(kind, "env") == 0 && base[0] && strcmp(base, "-") != 0)
		snprintf(s->group, sizeof(s->group), "%s", base);
	else if (base[0] && strcmp(base, "-") != 0)
		snprintf(s->group, sizeof(s->group), "%s+%s", base, str(v, "library"));
	else /* no run.json row: the allocator alone */
		snprintf(s->group, sizeof(s->group), "%s", str(v, "allocator"));
}

/* The first basis every one of the n variants has (the last one when none has all). */
static const struct advisor_basis *choose_basis(const struct variant_view *views, size_t n)
{
	for (size_t b = 0; b < N_BASES; b++) {
		bool all = true;
		for (size_t i = 0; all && i < n; i++)
			all =
			    isfinite(view_last_spike(&views[i], BASES[b].end_key, BASES[b].end_at));
		if (all)
			return &BASES[b];
	}
	return &BASES[N_BASES - 1];
}

static void fmt_mb(char *buf, size_t size, double v)
{
	snprintf(buf, size, "%.1f MB", v);
}

/* A setting run beside its group's default in the same runs is judged on its difference from the
 * default there, not on its level: runs with other batches or schedules load the machine
 * differently and move every row together (a default held 4 MB in one run and 11 MB in the next),
 * which would hide every setting inside the default's spread. Its figures become the default's
 * median plus the median difference, with the differences' spread as its own. */
static void pair_with_default(struct setting *set, size_t n, const json_t *const *summaries,
                              size_t n_runs, const struct advisor_basis *basis, double *xs)
{
	for (size_t i = 0; i < n; i++) {
		struct setting *s = &set[i], *ref = NULL;
		for (size_t j = 0; j < n && !ref; j++)
			if (set[j].reference && strcmp(set[j].group, s->group) == 0)
				ref = &set[j];
		if (s->reference || !ref)
			continue;
		json_t *diff = json_object();
		for (int f = 0; f < N_FIGURES; f++) {
			size_t k = 0;
			for (size_t r = 0; r < n_runs; r++) {
				struct variant_view vs = summary_view(summaries[r], s->name),
				                    vr = summary_view(summaries[r], ref->name);
				double x = vs.v ? run_figure(&vs, f, basis) : NAN,
				       y = vr.v ? run_figure(&vr, f, basis) : NAN;
				if (isfinite(x) && isfinite(y))
					xs[k++] = x - y;
			}
			if (k == 0 || !isfinite(ref->fig[f].median))
				continue;
			struct advisor_stat d = stat_of(xs, k);
			s->fig[f].median = ref->fig[f].median + d.median;
			s->fig[f].spread = d.spread;
			s->paired = true;
			json_object_set_new(diff, FIGURES[f].key, summary_json_real(d.median));
		}
		json_object_set_new(s->out, "vs_default_same_run", diff);
	}
}

/* The group's judgement and its sentence, into g (a JSON object) and the settings' objects. */
static void group_judge(struct setting *set, size_t n, const char *group, json_t *g,
                        const struct advisor_options *opt)
{
	struct setting *ref = NULL, *low = NULL, *win = NULL;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(set[i].group, group) != 0)
			continue;
		if (set[i].reference && !ref)
			ref = &set[i];
		double h = set[i].fig[FIG_HELD].median;
		if (isfinite(h) && (!low || h < low->fig[FIG_HELD].median))
			low = &set[i];
	}
	json_t *nothing = json_array(), *missing = json_array();
	double margin =
	    low ? fmax(opt->margin_mb, opt->margin_share * fabs(low->fig[FIG_HELD].median)) : NAN;
	/* Named after its default where it has one: "kresd-glibc" rather than kresd+lib/... */
	const char *label = ref ? ref->name : group;
	json_object_set_new(g, "name", json_string(group));
	json_object_set_new(g, "label", json_string(label));
	for (size_t i = 0; i < n; i++) {
		struct setting *s = &set[i];
		if (strcmp(s->group, group) != 0)
			continue;
		if (!isfinite(s->fig[FIG_HELD].median) || !isfinite(s->fig[FIG_CPU].median)) {
			json_array_append_new(missing, json_string(s->name));
			continue;
		}
		bool within = s->fig[FIG_HELD].median <= low->fig[FIG_HELD].median + margin;
		json_object_set_new(s->out, "within_margin", json_boolean(within));
		/* Cheapest within the margin; CPU inside the spread of the cheapest is a tie, which
		 * the row without settings wins (nothing to change), else the lower median. */
		if (within) {
			int c = win ? judge(&s->fig[FIG_CPU], &win->fig[FIG_CPU], FIG_CPU) : -1;
			if (c < 0 || (c == 0 && s->reference && !win->reference) ||
			    (c == 0 && s->reference == win->reference &&
			     s->fig[FIG_CPU].median < win->fig[FIG_CPU].median))
				win = s;
		}
		if (ref && s != ref) {
			json_t *vs = json_object();
			bool same = true;
			for (int f = 0; f < N_FIGURES; f++) {
				struct advisor_stat base = ref->fig[f];
				if (s->paired)
					base.spread = NAN; /* the pair's spread is in s's */
				int j = judge(&s->fig[f], &base, f);
				json_object_set_new(vs, FIGURES[f].key,
				                    j == 2 ? json_null()
				                    : j == 0
				                        ? json_string("same")
				                        : json_string(j < 0 ? "lower" : "higher"));
				same = same && (j == 0 || j == 2);
			}
			json_object_set_new(s->out, "vs_reference", vs);
			json_object_set_new(s->out, "does_nothing", json_boolean(same));
			if (same)
				json_array_append_new(nothing, json_string(s->name));
		}
	}
	/* A winner no different from the default in anything measured is no reason to change. */
	if (win && ref && win != ref && json_is_true(json_object_get(win->out, "does_nothing")))
		win = ref;
	json_object_set_new(g, "reference", ref ? json_string(ref->name) : json_null());
	json_object_set_new(g, "lowest", low ? json_string(low->name) : json_null());
	json_object_set_new(g, "lowest_held_mb",
	                    summary_json_real(low ? low->fig[FIG_HELD].median : NAN));
	json_object_set_new(g, "margin_mb", summary_json_real(margin));
	json_object_set_new(g, "recommended", win ? json_string(win->name) : json_null());
	json_object_set_new(g, "does_nothing", nothing);
	json_object_set_new(g, "no_figures", missing);
	if (win)
		json_object_set_new(win->out, "recommended", json_true());

	struct strbuf b = {0};
	char lo[32], m[32], h[32];
	if (!win) {
		strbuf_printf(&b, "%s: no setting has both held memory and CPU figures.", label);
	} else {
		fmt_mb(lo, sizeof(lo), low->fig[FIG_HELD].median);
		fmt_mb(m, sizeof(m), margin);
		fmt_mb(h, sizeof(h), win->fig[FIG_HELD].median);
		if (win->reference)
			strbuf_printf(
			    &b,
			    "%s: no setting is needed: the default (%s) already holds %s after "
			    "the spikes, within %s of the lowest (%s, %s), and no setting within "
			    "that margin costs measurably less CPU than its %.2f s per million "
			    "answered.",
			    label, win->name, h, m, lo, low->name, win->fig[FIG_CPU].median);
		else
			strbuf_printf(
			    &b,
			    "%s: the cheapest setting within %s of the lowest held memory (%s, "
			    "%s) is %s: it holds %s after the spikes at %.2f CPU s per million "
			    "answered",
			    label, m, lo, low->name, win->name, h, win->fig[FIG_CPU].median);
		if (!win->reference && ref && isfinite(ref->fig[FIG_HELD].median) &&
		    isfinite(ref->fig[FIG_CPU].median)) {
			fmt_mb(h, sizeof(h), ref->fig[FIG_HELD].median);
			strbuf_printf(&b, " (the default, %s: %s at %.2f s).", ref->name, h,
			              ref->fig[FIG_CPU].median);
		} else if (!win->reference) {
			strbuf_append(&b, ".");
		}
	}
	if (json_array_size(nothing)) {
		strbuf_append(&b, " No difference from the default beyond the run-to-run spread: ");
		size_t i;
		json_t *x;
		json_array_foreach(nothing, i, x)
		{
			strbuf_printf(&b, "%s%s", i ? ", " : "", json_string_value(x));
		}
		strbuf_append(&b, ".");
	}
	bool repeated = false;
	for (size_t i = 0; i < n; i++)
		repeated =
		    repeated || (strcmp(set[i].group, group) == 0 && set[i].fig[FIG_HELD].n > 1);
	bool paired = false;
	for (size_t i = 0; i < n; i++)
		paired = paired || (strcmp(set[i].group, group) == 0 && set[i].paired);
	if (win && paired)
		strbuf_append(&b, " Each setting is compared with the default measured in the same "
		                  "run.");
	if (win && !repeated)
		strbuf_append(&b,
		              " One run each: differences were judged against fixed floors, not a "
		              "measured spread (--repeat measures it).");
	char *text = strbuf_take(&b);
	json_object_set_new(g, "sentence", json_string(text));
	free(text);
}

json_t *advisor_build(const char *const *dirs, const json_t *const *summaries,
                      const json_t *const *run_jsons, size_t n_runs, const json_t *names,
                      const struct advisor_options *opt)
{
	size_t n = json_array_size(names), n_views = 0;
	struct variant_view *views = calloc(n * n_runs + 1, sizeof(*views));
	if (!views)
		abort();
	for (size_t r = 0; r < n_runs; r++)
		for (size_t i = 0; i < n; i++) {
			views[n_views] =
			    summary_view(summaries[r], json_string_value(json_array_get(names, i)));
			n_views += views[n_views].v != NULL;
		}
	const struct advisor_basis *basis = choose_basis(views, n_views);
	free(views);
	struct setting *set = calloc(n ? n : 1, sizeof(*set));
	double *xs = calloc(n_runs ? n_runs : 1, sizeof(*xs));
	json_t *variants = json_object();
	for (size_t i = 0; i < n; i++) {
		struct setting *s = &set[i];
		s->name = json_string_value(json_array_get(names, i));
		s->out = json_object();
		const json_t *first = NULL, *row = NULL;
		size_t runs = 0;
		for (size_t r = 0; r < n_runs; r++) {
			const json_t *v =
			    json_object_get(json_object_get(summaries[r], "variants"), s->name);
			if (v && !first) {
				first = v;
				row = run_jsons[r] ? run_row(run_jsons[r], s->name) : NULL;
			}
			runs += v != NULL;
		}
		setting_group(s, row, first);
		for (int f = 0; f < N_FIGURES; f++) {
			size_t k = 0;
			for (size_t r = 0; r < n_runs; r++) {
				struct variant_view v = summary_view(summaries[r], s->name);
				double x = v.v ? run_figure(&v, f, basis) : NAN;
				if (isfinite(x))
					xs[k++] = x;
			}
			s->fig[f] = stat_of(xs, k);
			char key[96];
			json_object_set_new(s->out, FIGURES[f].key,
			                    summary_json_real(s->fig[f].median));
			snprintf(key, sizeof(key), "%s_spread", FIGURES[f].key);
			json_object_set_new(s->out, key, summary_json_real(s->fig[f].spread));
		}
		static const char *const copied[] = {"kind", "allocator", "env", "note"};
		for (size_t c = 0; c < 4; c++)
			json_object_set_new(s->out, copied[c], json_string(str(first, copied[c])));
		json_object_set_new(s->out, "group", json_string(s->group));
		json_object_set_new(s->out, "reference", json_boolean(s->reference));
		json_object_set_new(s->out, "runs", json_integer((json_int_t)runs));
		json_object_set_new(s->out, "recommended", json_false());
		json_object_set(variants, s->name, s->out);
	}
	pair_with_default(set, n, summaries, n_runs, basis, xs);
	/* Pareto: no other setting of the group holds less and costs less (one strictly). */
	for (size_t i = 0; i < n; i++) {
		double h = set[i].fig[FIG_HELD].median, c = set[i].fig[FIG_CPU].median;
		bool front = isfinite(h) && isfinite(c);
		for (size_t j = 0; front && j < n; j++) {
			double h2 = set[j].fig[FIG_HELD].median, c2 = set[j].fig[FIG_CPU].median;
			if (j != i && strcmp(set[j].group, set[i].group) == 0 && h2 <= h &&
			    c2 <= c && (h2 < h || c2 < c))
				front = false;
		}
		json_object_set_new(set[i].out, "pareto", json_boolean(front));
	}
	json_t *groups = json_array(), *sentences = json_array();
	for (size_t i = 0; i < n; i++) {
		bool seen = false;
		for (size_t j = 0; j < i; j++)
			seen = seen || strcmp(set[j].group, set[i].group) == 0;
		if (seen)
			continue;
		json_t *g = json_object();
		group_judge(set, n, set[i].group, g, opt);
		json_array_append(sentences, json_object_get(g, "sentence"));
		json_array_append_new(groups, g);
	}
	json_t *run_dirs = json_array();
	for (size_t r = 0; r < n_runs; r++)
		json_array_append_new(run_dirs, json_string(dirs[r]));
	json_t *advice = json_object();
	json_object_set_new(advice, "format", json_integer(1));
	json_object_set_new(advice, "runs", run_dirs);
	json_object_set_new(advice, "held_basis", json_string(basis->name));
	json_object_set_new(advice, "held_basis_text", json_string(basis->text));
	json_object_set_new(advice, "margin_mb", summary_json_real(opt->margin_mb));
	json_object_set_new(advice, "margin_share", summary_json_real(opt->margin_share));
	json_object_set_new(advice, "variant_order", json_deep_copy(names));
	json_object_set_new(advice, "variants", variants);
	json_object_set_new(advice, "groups", groups);
	json_object_set_new(advice, "sentences", sentences);
	for (size_t i = 0; i < n; i++)
		json_decref(set[i].out);
	free(set);
	free(xs);
	return advice;
}

void advisor_add_run_figures(json_t *summary, struct model *model)
{
	struct variant_view *views = calloc(model->n_variants + 1, sizeof(*views));
	if (!views)
		abort();
	for (size_t i = 0; i < model->n_variants; i++)
		views[i] = (struct variant_view){NULL, &model->variants[i]};
	const struct advisor_basis *basis = choose_basis(views, model->n_variants);
	for (size_t i = 0; i < model->n_variants; i++) {
		struct model_advisor *a = &model->variants[i].advisor;
		for (int f = 0; f < N_FIGURES; f++) {
			double x = run_figure(&views[i], f, basis);
			memcpy((char *)a + FIGURES[f].at, &x, sizeof(x));
		}
		a->held_basis = basis->name;
		json_t *v =
		    json_object_get(json_object_get(summary, "variants"), model->variants[i].name);
		json_object_set_new(v, "advisor", model_advisor_json(a));
	}
	free(views);
}

/* The variant's held memory after the spikes on the first basis it has. */
static double held_mb(const struct variant_view *w, const char **basis, size_t *rank,
                      double *growth_mb_per_spike)
{
	for (size_t b = 0; b < N_BASES; b++) {
		double x = view_last_spike(w, BASES[b].end_key, BASES[b].end_at);
		if (isfinite(x)) {
			*basis = BASES[b].name;
			*rank = b;
			*growth_mb_per_spike =
			    view_variant(w, BASES[b].growth_key, BASES[b].growth_at);
			return x / 1024.0;
		}
	}
	*basis = NULL;
	*rank = N_BASES;
	*growth_mb_per_spike = NAN;
	return NAN;
}

double advisor_variant_held_mb(const json_t *v, const char **basis, size_t *rank,
                               double *growth_mb_per_spike)
{
	return held_mb(&(struct variant_view){v, NULL}, basis, rank, growth_mb_per_spike);
}

double advisor_model_held_mb(const struct model_variant *mv, const char **basis, size_t *rank,
                             double *growth_mb_per_spike)
{
	return held_mb(&(struct variant_view){NULL, mv}, basis, rank, growth_mb_per_spike);
}
