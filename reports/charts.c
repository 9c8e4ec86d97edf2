/* reports/charts.c - builds the time-series charts and draws them with gnuplot's SVG terminal. */
#include "charts.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attribution.h"
#include "colours.h"
#include "strbuf.h"
#include "summary.h"
#include "traffic.h"

#define SPIKE_SHADE "#fbe3d2"
#define WARMUP_SHADE "#e9e9e9"

static struct chart *chart_add(struct chart **charts, size_t *n, const char *id, const char *title,
                               const char *caption, const char *ylabel)
{
	struct chart *p = realloc(*charts, (*n + 1) * sizeof(**charts));
	if (!p)
		abort();
	*charts = p;
	struct chart *c = &p[(*n)++];
	memset(c, 0, sizeof(*c));
	snprintf(c->id, sizeof(c->id), "%s", id);
	c->title = strdup(title);
	c->caption = strdup(caption);
	snprintf(c->ylabel, sizeof(c->ylabel), "%s", ylabel);
	c->marks = json_array();
	return c;
}

static struct chart_series *series_add(struct chart *c, const char *title, const char *color,
                                       bool dashed, size_t cap)
{
	struct chart_series *p = realloc(c->series, (c->n_series + 1) * sizeof(*p));
	if (!p)
		abort();
	c->series = p;
	struct chart_series *s = &p[c->n_series++];
	s->title = strdup(title);
	snprintf(s->color, sizeof(s->color), "%s", color);
	s->dashed = dashed;
	s->steps = false;
	s->fill = NULL;
	s->lo = NULL;
	/* room for every row, plus a break and a starting point before each (series_fill) */
	s->t = calloc(3 * cap + 1, sizeof(double));
	s->v = calloc(3 * cap + 1, sizeof(double));
	s->n = 0;
	if (!s->title || !s->t || !s->v)
		abort();
	return s;
}

enum derived { PLAIN, PER_SECOND, CPU_CORES, MB_FROM_KB, BEYOND_CACHE_MB };

/* One target's values of a column over time, transformed to what the chart shows. */
static void series_fill(struct chart_series *s, const struct runfolder *rf, int target,
                        enum timeline_column col, enum derived how, double interval_s)
{
	double prev_t = NAN, prev_cpu = NAN;
	double cores =
	    json_number_value(json_object_get(json_object_get(rf->run, "machine"), "cores"));
	/* Memory is a sample at t; rates, latency and CPU describe the interval that ends at t. */
	s->steps = how != MB_FROM_KB && how != BEYOND_CACHE_MB;
	for (size_t i = 0; i < rf->n_rows; i++) {
		const struct runfolder_row *r = &rf->rows[i];
		if (r->target != target)
			continue;
		if (r->t_s <= prev_t) {
			/* The clock restarted (serial mode: one run per variant, each from t=0):
			 * break the line, and a new process's CPU starts afresh. */
			s->t[s->n] = r->t_s;
			s->v[s->n++] = NAN;
			prev_t = prev_cpu = NAN;
		}
		double dt = isnan(prev_t) ? interval_s : r->t_s - prev_t;
		double v = r->v[col];
		switch (how) {
		case PLAIN:
			break;
		case PER_SECOND:
			v = dt > 0 ? v / dt : NAN;
			break;
		case MB_FROM_KB:
			v /= 1024.0;
			break;
		case BEYOND_CACHE_MB:
			v = (r->v[TIMELINE_COL_anon_kb] - r->v[TIMELINE_COL_cache_bytes] / 1024.0) /
			    1024.0;
			break;
		case CPU_CORES: {
			/* Over windows of at least SUMMARY_CPU_WINDOW_S, capped at the machine's
			 * cores: a process cannot use more, what shows above is tick noise. */
			double c = summary_row_cpu_s(r);
			if (isnan(c))
				continue;
			if (isnan(prev_cpu)) {
				prev_cpu = c;
				prev_t = r->t_s;
				continue;
			}
			if (r->t_s - prev_t < SUMMARY_CPU_WINDOW_S - 1e-9)
				continue;
			v = (c - prev_cpu) / (r->t_s - prev_t);
			if (cores > 0 && v > cores)
				v = cores;
			prev_cpu = c;
			if (s->n == 0 ||
			    isnan(s->v[s->n - 1])) { /* a stretch starts: from its start */
				s->t[s->n] = prev_t;
				s->v[s->n++] = v;
			}
			break;
		}
		}
		if (!s->steps && isnan(v)) {
			/* A memory sample taken less often (cache_bytes: every few intervals) is
			 * joined to the next one; a NaN point would break the line at every row. */
			prev_t = r->t_s;
			continue;
		}
		if (s->steps && isnan(prev_t) && !isnan(v)) {
			/* the first interval of a stretch is drawn from its start, like the others
			 */
			s->t[s->n] = r->t_s - dt;
			s->v[s->n++] = v;
		}
		s->t[s->n] = r->t_s;
		s->v[s->n++] = v;
		prev_t = r->t_s;
	}
}

static bool series_has_data(const struct chart_series *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (!isnan(s->v[i]))
			return true;
	return false;
}

static bool chart_has_data(const struct chart *c)
{
	for (size_t s = 0; s < c->n_series; s++)
		if (series_has_data(&c->series[s]))
			return true;
	return false;
}

/* Adds one series per variant; drops those with nothing to draw. Returns how many have data. */
static size_t add_variant_series(struct chart *c, const struct runfolder *rf, const json_t *summary,
                                 enum timeline_column col, enum derived how, double interval_s,
                                 const char *suffix, bool dashed)
{
	const json_t *order = json_object_get(summary, "variant_order");
	size_t with_data = 0, i;
	json_t *name;
	json_array_foreach(order, i, name)
	{
		int t = runfolder_target_index(rf, json_string_value(name));
		if (t < 0)
			continue;
		char title[160];
		snprintf(title, sizeof(title), "%s%s", json_string_value(name), suffix);
		struct chart_series *s = series_add(
		    c, title, colours_of(summary, json_string_value(name)), dashed, rf->n_rows);
		series_fill(s, rf, t, col, how, interval_s);
		if (series_has_data(s))
			with_data++;
	}
	return with_data;
}

/* The layers of the "why" panel, bottom to top (enum attr_part order); an allocator that does not
 * split what it holds shows it as one layer in UNSPLIT_COLOR. */
static const char *const layer_colors[ATTR_PART_COUNT] = {"#3a78b5", "#f2c14e", "#c8413a",
                                                          "#8d6aa8", "#c4c4c4"};
#define UNSPLIT_COLOR "#e07b39"

/* Fills the layers of one target's panel: each a band from the top of the one below, clamped so
 * the stack never passes anon RSS (its top is anon RSS itself). Rows without attribution are
 * skipped, so a figure sampled every few intervals is joined like the other memory lines. */
static void why_fill(struct chart *c, const int *layer, const struct runfolder *rf, int target)
{
	double prev_t = NAN;
	for (size_t i = 0; i < rf->n_rows; i++) {
		const struct runfolder_row *r = &rf->rows[i];
		if (r->target != target)
			continue;
		bool restart = r->t_s <= prev_t; /* serial mode: the clock starts again */
		prev_t = r->t_s;
		for (int p = 0; restart && p < ATTR_PART_COUNT; p++) {
			if (layer[p] < 0)
				continue;
			struct chart_series *s = &c->series[layer[p]];
			s->t[s->n] = r->t_s;
			s->lo[s->n] = s->v[s->n] = NAN; /* a break between the passes */
			s->n++;
		}
		struct attr_split a;
		if (!attr_split_row(r, &a))
			continue;
		double anon = r->v[TIMELINE_COL_anon_kb] / 1024.0, base = 0;
		for (int p = 0; p < ATTR_PART_COUNT; p++) {
			if (layer[p] < 0)
				continue;
			struct chart_series *s = &c->series[layer[p]];
			double h = fmax(0, a.part_kb[p] / 1024.0);
			double top = p == ATTR_OUTSIDE ? fmax(anon, base) : fmin(base + h, anon);
			s->t[s->n] = r->t_s;
			s->lo[s->n] = base;
			s->v[s->n++] = top;
			base = top;
		}
	}
}

/* One "why" panel per variant with live bytes; a note instead for those without. */
static void charts_add_why(struct chart **charts, size_t *n, const struct runfolder *rf,
                           const json_t *summary)
{
	const json_t *order = json_object_get(summary, "variant_order");
	const json_t *variants = json_object_get(summary, "variants");
	size_t i, attributed = 0;
	json_t *name;
	json_array_foreach(order, i, name)
	{
		const char *how = json_string_value(json_object_get(
		    json_object_get(variants, json_string_value(name)), "attribution"));
		attributed += how && strcmp(how, "unavailable") != 0;
	}
	if (attributed == 0) {
		chart_add(
		    charts, n, "chart-why", "Why the memory is held",
		    "Attribution unavailable: this run recorded no live bytes (a run from before "
		    "they were sampled, or daemons without the preload sampler), so the "
		    "program's own memory cannot be told from the allocator's. The charts above "
		    "show anon RSS and, where the resolver reports it, anon RSS beyond its cache.",
		    "MB");
		return;
	}
	json_array_foreach(order, i, name)
	{
		const char *vn = json_string_value(name);
		const json_t *v = json_object_get(variants, vn);
		const char *how = json_string_value(json_object_get(v, "attribution"));
		const char *allocator = json_string_value(json_object_get(v, "allocator"));
		const struct attr_names *names = attr_names_for(allocator);
		bool split = how && strcmp(how, "split") == 0;
		char id[32], title[256];
		struct strbuf cap = {0};
		snprintf(id, sizeof(id), "chart-why-%zu", i);
		snprintf(title, sizeof(title), "Why: %s's anonymous RSS, by who holds it (%s)", vn,
		         allocator ? allocator : "allocator unknown");
		if (!how || strcmp(how, "unavailable") == 0) {
			strbuf_printf(
			    &cap,
			    "Attribution unavailable for %s: no live bytes were recorded (a "
			    "daemon without the preload sampler, or an older run); its anon "
			    "RSS is in the first chart.",
			    vn);
		} else {
			strbuf_append(&cap, "Stacked, bottom to top: live bytes (what the program "
			                    "holds); ");
			if (split)
				strbuf_printf(
				    &cap,
				    "free memory the allocator holds: %s (returnable as it "
				    "stands), %s (%s), then %s; ",
				    names->trimmable, names->fragmented, names->fragmented_why,
				    names->other);
			else
				strbuf_printf(&cap,
				              "what the allocator holds beyond them, not broken "
				              "down (%s); ",
				              names->unsplit_why);
			strbuf_append(&cap,
			              "then anon RSS outside the allocator. The top of the stack "
			              "is anon RSS.");
			double unmapped =
			    json_number_value(json_object_get(v, "final_unmapped_kb"));
			if (names->unmapped &&
			    json_is_number(json_object_get(v, "final_unmapped_kb")))
				strbuf_printf(
				    &cap,
				    " Not drawn (not in RSS): what the allocator unmapped but "
				    "keeps reserved (%s), %.1f MB at the end.",
				    names->unmapped, unmapped / 1024);
		}
		struct chart *c = chart_add(charts, n, id, title, cap.s, "MB");
		strbuf_free(&cap);
		int t = runfolder_target_index(rf, vn);
		if (t < 0 || !how || strcmp(how, "unavailable") == 0)
			continue;
		int layer[ATTR_PART_COUNT]; /* series index of each layer, -1 if not drawn */
		for (int p = 0; p < ATTR_PART_COUNT; p++) {
			layer[p] = -1;
			if (!split && (p == ATTR_TRIMMABLE || p == ATTR_FRAGMENTED))
				continue;
			char label[160];
			struct chart_series *s = series_add(
			    c,
			    attr_part_label(names, (enum attr_part)p, split, label, sizeof(label)),
			    "#000000", false, rf->n_rows);
			s->fill = !split && p == ATTR_OTHER ? UNSPLIT_COLOR : layer_colors[p];
			s->lo = calloc(3 * rf->n_rows + 1, sizeof(double));
			if (!s->lo)
				abort();
			layer[p] = (int)c->n_series - 1;
		}
		why_fill(c, layer, rf, t);
	}
}

static void marks_add_crashes(struct chart *c, const json_t *summary)
{
	const char *name;
	json_t *v;
	json_object_foreach(json_object_get(summary, "variants"), name, v)
	{
		size_t i;
		json_t *crash;
		json_array_foreach(json_object_get(v, "crashes"), i, crash)
		{
			char label[160];
			snprintf(label, sizeof(label), "%s %s", name,
			         json_string_value(json_object_get(crash, "event")));
			json_array_append_new(c->marks, json_pack("{s:O,s:s}", "t_s",
			                                          json_object_get(crash, "t_s"),
			                                          "label", label));
		}
	}
}

/* Drops the chart just added (the last one). */
static void chart_drop_last(struct chart *charts, size_t *n)
{
	charts_free(&charts[*n - 1], 1);
	(*n)--;
}

/* The verdict's ranking: one bar per variant, lowest held memory first, in its colour. */
static void charts_add_ranking(struct chart **charts, size_t *n, const json_t *summary)
{
	const json_t *verdict = json_object_get(summary, "verdict");
	const json_t *ranking = json_object_get(verdict, "ranking");
	if (json_array_size(ranking) == 0)
		return;
	struct strbuf cap = {0};
	strbuf_printf(&cap, "Lowest first. Measured as %s (summary.json verdict.held_basis).",
	              json_string_value(json_object_get(verdict, "held_basis_text")));
	struct chart *c = chart_add(charts, n, "chart-ranking",
	                            "Memory held after the spikes, per variant", cap.s, "MB");
	strbuf_free(&cap);
	c->kind = CHART_BARS;
	c->small = true;
	size_t i;
	json_t *r;
	json_array_foreach(ranking, i, r)
	{
		struct chart_series *s =
		    series_add(c, json_string_value(json_object_get(r, "variant")),
		               json_string_value(json_object_get(r, "colour")), false, 1);
		s->t[0] = (double)i + 1;
		s->v[0] = json_number_value(json_object_get(r, "held_after_spikes_mb"));
		s->n = 1;
	}
}

/* Anon RSS beyond the cache; a variant without cache_bytes (a daemon) is drawn too, dashed, as
 * its anon RSS, rather than left out. */
static void charts_add_beyond(struct chart **charts, size_t *n, const struct runfolder *rf,
                              const json_t *summary, double interval_s)
{
	struct chart *c = chart_add(
	    charts, n, "chart-beyond", "Memory beyond what the resolver holds",
	    "Anonymous RSS minus the bytes the resolver's cache accounts for (cache_bytes): "
	    "requests in flight, what the allocator keeps and memory outside it (the 'why' "
	    "panels split it). Dashed: variants that report no cache_bytes (daemons), drawn as "
	    "their whole anon RSS. File-backed memory (a daemon's memory-mapped cache file, "
	    "shared libraries) is in RSS but never in anon RSS, so it is in none of these lines.",
	    "MB");
	add_variant_series(c, rf, summary, 0, BEYOND_CACHE_MB, interval_s, "", false);
	size_t with_data = 0;
	for (size_t k = 0; k < c->n_series; k++) {
		struct chart_series *s = &c->series[k];
		if (!series_has_data(s)) {
			int t = runfolder_target_index(rf, s->title);
			char title[200];
			snprintf(title, sizeof(title), "%s (anon RSS, no cache_bytes)", s->title);
			free(s->title);
			s->title = strdup(title);
			s->dashed = true;
			s->n = 0;
			if (t >= 0)
				series_fill(s, rf, t, TIMELINE_COL_anon_kb, MB_FROM_KB, interval_s);
		}
		with_data += series_has_data(s);
	}
	if (with_data == 0)
		chart_drop_last(*charts, n);
}

static int double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of a series' values, NAN if it has none. */
static double series_median(const struct chart_series *s)
{
	double *v = calloc(s->n ? s->n : 1, sizeof(*v));
	size_t m = 0;
	for (size_t i = 0; v && i < s->n; i++)
		if (!isnan(s->v[i]))
			v[m++] = s->v[i];
	double med = NAN;
	if (m) {
		qsort(v, m, sizeof(*v), double_cmp);
		med = v[m / 2];
	}
	free(v);
	return med;
}

/* Lines overlap when three or more variants share the chart, or two whose typical p99 differ by
 * less than a factor LATENCY_APART (on a logarithmic scale they would cover each other). */
#define LATENCY_APART 2.0

static bool latency_lines_overlap(const struct chart *c)
{
	double med[64];
	size_t m = 0;
	for (size_t k = 0; k < c->n_series && m < 64; k++)
		if (series_has_data(&c->series[k]))
			med[m++] = series_median(&c->series[k]);
	if (m >= 3)
		return true;
	return m == 2 && fmax(med[0], med[1]) < LATENCY_APART * fmin(med[0], med[1]);
}

/* Latency over time: one chart, or one small chart per variant when the lines would overlap. */
static void charts_add_latency(struct chart **charts, size_t *n, const struct runfolder *rf,
                               const json_t *summary, double interval_s)
{
	static const char caption[] =
	    "Quantiles of the answers received in each interval (p99 solid, p50 dashed); "
	    "logarithmic scale. The per-phase quantiles of all answers are in the traffic table.";
	struct chart *c = chart_add(charts, n, "chart-latency", "Latency (p99 solid, p50 dashed)",
	                            caption, "latency (ms)");
	c->logy = true;
	add_variant_series(c, rf, summary, TIMELINE_COL_lat_p99_ms, PLAIN, interval_s, " p99",
	                   false);
	if (!latency_lines_overlap(c)) {
		add_variant_series(c, rf, summary, TIMELINE_COL_lat_p50_ms, PLAIN, interval_s,
		                   " p50", true);
		return;
	}
	chart_drop_last(*charts, n);
	size_t i;
	json_t *name;
	json_array_foreach(json_object_get(summary, "variant_order"), i, name)
	{
		const char *vn = json_string_value(name);
		int t = runfolder_target_index(rf, vn);
		if (t < 0)
			continue;
		char id[32], title[200];
		snprintf(id, sizeof(id), "chart-latency-%u", (unsigned)i);
		snprintf(title, sizeof(title), "Latency of %s (p99 solid, p50 dashed)", vn);
		c = chart_add(charts, n, id, title, caption, "latency (ms)");
		c->logy = true;
		c->small = true;
		const char *colour = colours_of(summary, vn);
		struct chart_series *s = series_add(c, "p99", colour, false, rf->n_rows);
		series_fill(s, rf, t, TIMELINE_COL_lat_p99_ms, PLAIN, interval_s);
		s = series_add(c, "p50", colour, true, rf->n_rows);
		series_fill(s, rf, t, TIMELINE_COL_lat_p50_ms, PLAIN, interval_s);
		if (!chart_has_data(c))
			chart_drop_last(*charts, n);
	}
}

/* The latency CDF of one phase: every answer to a query sent in it, all variants. */
static void charts_add_cdf(struct chart **charts, size_t *n, const struct runfolder *rf,
                           const json_t *summary, const char *phase)
{
	if (!rf->has_latency_hist)
		return;
	char id[32], title[128];
	snprintf(id, sizeof(id), "chart-cdf-%s", phase);
	snprintf(title, sizeof(title), "Latency distribution of the answers to queries sent in %s",
	         strcmp(phase, "spike") == 0 ? "spikes" : "recoveries");
	struct chart *c = chart_add(
	    charts, n, id, title,
	    "Share of the answers (y) that arrived within a latency (x), from each variant's "
	    "histograms of that phase merged; " TRAFFIC_LATENCY_PRECISION ".",
	    "share of answers");
	c->kind = CHART_CDF;
	size_t i;
	json_t *name;
	json_array_foreach(json_object_get(summary, "variant_order"), i, name)
	{
		const char *vn = json_string_value(name);
		int t = runfolder_target_index(rf, vn);
		struct latency_hist *h = malloc(sizeof(*h));
		if (!h)
			abort();
		if (t >= 0 && traffic_phase_hist(rf, t, phase, h)) {
			struct chart_series *s =
			    series_add(c, vn, colours_of(summary, vn), false, LATENCY_HIST_BUCKETS);
			uint64_t seen = 0;
			for (unsigned b = 0; b < LATENCY_HIST_BUCKETS; b++) {
				if (!h->buckets[b])
					continue;
				uint64_t lo, hi;
				latency_hist_bucket_range(b, &lo, &hi);
				/* flat up to the bucket's low edge, then rising across it */
				s->t[s->n] = (double)lo / 1e6;
				s->v[s->n++] = (double)seen / (double)h->count;
				seen += h->buckets[b];
				s->t[s->n] = (double)hi / 1e6;
				s->v[s->n++] = (double)seen / (double)h->count;
			}
		}
		free(h);
	}
	if (!chart_has_data(c))
		chart_drop_last(*charts, n);
}

struct chart *charts_for_run(const struct runfolder *rf, const json_t *summary, size_t *n)
{
	struct chart *charts = NULL;
	*n = 0;
	const json_t *order = json_object_get(summary, "variant_order");
	json_t *phases = json_object_get(summary, "phases");
	double interval_s = summary_interval_s(rf);

	charts_add_ranking(&charts, n, summary);
	struct chart *c = chart_add(&charts, n, "chart-anon", "Anonymous RSS per variant",
	                            "Shaded: spikes; grey: warm-up (left out of spike figures); "
	                            "dashed red lines: crashes.",
	                            "anon RSS (MB)");
	add_variant_series(c, rf, summary, TIMELINE_COL_anon_kb, MB_FROM_KB, interval_s, "", false);
	marks_add_crashes(c, summary);

	charts_add_beyond(&charts, n, rf, summary, interval_s);

	charts_add_why(&charts, n, rf, summary);

	c = chart_add(&charts, n, "chart-rate", "Answered versus offered rate",
	              "Solid: answers received per second by each variant; dashed black: the rate "
	              "the schedule offered.",
	              "queries/s");
	add_variant_series(c, rf, summary, TIMELINE_COL_answered, PER_SECOND, interval_s, "",
	                   false);
	size_t i;
	json_t *name;
	json_array_foreach(order, i, name)
	{
		int t = runfolder_target_index(rf, json_string_value(name));
		if (t < 0)
			continue;
		struct chart_series *s = series_add(c, "offered", "#000000", true, rf->n_rows);
		series_fill(s, rf, t, TIMELINE_COL_offered, PER_SECOND, interval_s);
		if (series_has_data(s))
			break;
		free(s->title);
		free(s->t);
		free(s->v);
		c->n_series--;
	}

	charts_add_latency(&charts, n, rf, summary, interval_s);
	for (size_t p = 0; p < 2; p++)
		charts_add_cdf(&charts, n, rf, summary, traffic_phases[p]);

	c = chart_add(
	    &charts, n, "chart-cpu", "CPU per process",
	    "Cores used (user + system), averaged over windows of at least 1 s (CPU time "
	    "ticks in 10 ms) and capped at the machine's cores; dashed grey: the harness "
	    "(load generator, simulated hierarchy); red strip along the bottom: the harness "
	    "was saturated.",
	    "cores");
	add_variant_series(c, rf, summary, 0, CPU_CORES, interval_s, "", false);
	c->bands = json_object_get(json_object_get(summary, "harness"), "saturated_periods");
	for (size_t t = 0; t < rf->n_targets; t++) {
		if (!runfolder_is_harness(rf->targets[t]))
			continue;
		struct chart_series *s = series_add(
		    c, rf->targets[t], colours_harness(rf->targets[t]), true, rf->n_rows);
		series_fill(s, rf, (int)t, 0, CPU_CORES, interval_s);
	}
	for (size_t k = 0; k < *n; k++)
		charts[k].phases = phases;
	return charts;
}

/* The spikes of variant vn in a run's summary, or NULL. */
static const json_t *variant_spikes(const json_t *summary, const char *vn)
{
	return json_object_get(json_object_get(json_object_get(summary, "variants"), vn), "spikes");
}

/* The comparison's second chart of variant vn: per run, the held memory after each spike's
 * recovery as a share of the allocator's highest footprint so far, over the spike number; none
 * when no run has that figure (no live bytes: a daemon without the sampler, an older run). */
static void add_compare_spike_chart(struct chart **charts, size_t *n,
                                    const json_t *const *summaries, size_t n_runs, const char *vn,
                                    size_t index)
{
	static const char key[] = "end_held_share_of_highest_heap";
	bool any = false;
	size_t k;
	const json_t *sp;
	for (size_t r = 0; r < n_runs; r++)
		json_array_foreach(variant_spikes(summaries[r], vn), k, sp) any =
		    any || json_is_number(json_object_get(sp, key));
	if (!any)
		return;
	char id[32], title[200];
	snprintf(id, sizeof(id), "chart-spk-%zu", index);
	snprintf(
	    title, sizeof(title),
	    "%s: held after each recovery, share of the highest footprint so far, one line per run",
	    vn);
	struct chart *c = chart_add(charts, n, id, title,
	                            "Allocator-held memory after the spike's recovery over the "
	                            "allocator's highest footprint until then (summary spikes[]."
	                            "end_held_share_of_highest_heap): lines that lie together are "
	                            "repeats that agree.",
	                            "% of highest footprint");
	c->kind = CHART_SPIKES;
	c->small = true;
	for (size_t r = 0; r < n_runs; r++) {
		const json_t *spikes = variant_spikes(summaries[r], vn);
		if (!spikes)
			continue;
		char st[64], shade[8];
		snprintf(st, sizeof(st), "run %zu", r + 1);
		colours_shade(colours_of(summaries[r], vn), (unsigned)r, shade);
		struct chart_series *s = series_add(c, st, shade, false, json_array_size(spikes));
		json_array_foreach(spikes, k, sp)
		{
			const json_t *x = json_object_get(sp, key);
			s->t[s->n] = (double)json_integer_value(json_object_get(sp, "spike"));
			s->v[s->n++] = json_is_number(x) ? 100 * json_number_value(x) : NAN;
		}
	}
}

struct chart *charts_for_compare(const struct runfolder *rfs, const json_t *const *summaries,
                                 size_t n_runs, const json_t *variant_names, size_t *n)
{
	struct chart *charts = NULL;
	*n = 0;
	size_t i;
	json_t *name;
	json_array_foreach(variant_names, i, name)
	{
		const char *vn = json_string_value(name);
		char id[32], title[200];
		snprintf(id, sizeof(id), "chart-cmp-%zu", i);
		snprintf(title, sizeof(title), "%s: anonymous RSS, one line per run", vn);
		struct chart *c = chart_add(&charts, n, id, title,
		                            "Shaded: the spikes of the first run holding this "
		                            "variant.",
		                            "anon RSS (MB)");
		for (size_t r = 0; r < n_runs; r++) {
			int t = runfolder_target_index(&rfs[r], vn);
			if (t < 0)
				continue;
			if (!c->phases)
				c->phases = json_object_get(summaries[r], "phases");
			char st[64];
			snprintf(st, sizeof(st), "run %zu", r + 1);
			/* the variant's allocator colour, a shade of it per run */
			char shade[8];
			colours_shade(colours_of(summaries[r], vn), (unsigned)r, shade);
			struct chart_series *s = series_add(c, st, shade, false, rfs[r].n_rows);
			series_fill(s, &rfs[r], t, TIMELINE_COL_anon_kb, MB_FROM_KB,
			            summary_interval_s(&rfs[r]));
		}
		add_compare_spike_chart(&charts, n, summaries, n_runs, vn, i);
	}
	return charts;
}

/* gnuplot single-quoted string: a quote is doubled. */
static void append_gp_string(struct strbuf *b, const char *s)
{
	strbuf_append(b, "'");
	for (; *s; s++)
		strbuf_append(b, *s == '\'' ? "''" : (char[2]){*s, 0});
	strbuf_append(b, "'");
}

static void script_shading(struct strbuf *b, const json_t *phases)
{
	size_t i;
	json_t *p;
	int obj = 1;
	json_array_foreach(phases, i, p)
	{
		const char *phase = json_string_value(json_object_get(p, "phase"));
		double from = json_number_value(json_object_get(p, "from_s"));
		double to = json_number_value(json_object_get(p, "to_s"));
		bool spike = phase && strcmp(phase, "spike") == 0;
		bool warm = phase && summary_phase_is_preamble(phase);
		if (!spike && !warm)
			continue;
		strbuf_printf(b,
		              "set object %d rect from %.6g, graph 0 to %.6g, graph 1 behind "
		              "fc rgb '%s' fs solid 1.0 noborder\n",
		              obj++, from, to, spike ? SPIKE_SHADE : WARMUP_SHADE);
		if (warm)
			strbuf_printf(
			    b,
			    "set label %d '%s' at %.6g, graph 0.96 center tc rgb '#555555'"
			    " front\n",
			    obj, strcmp(phase, "warmup") == 0 ? "warm-up" : "calibration",
			    (from + to) / 2);
		else if (json_array_size(phases) <= 60)
			strbuf_printf(
			    b,
			    "set label %d '%d' at %.6g, graph 0.96 center tc rgb '#a04000' "
			    "front\n",
			    obj, (int)json_integer_value(json_object_get(p, "spike")),
			    (from + to) / 2);
	}
}

/* Every chart has the same plot area left and right (fixed margins rather than gnuplot's, which
 * follow the width of the tic labels), so charts stacked on the page line up. */
static void script_begin(struct strbuf *b, const struct chart *c, const char *svg_out)
{
	strbuf_printf(b,
	              "set terminal svg size 900,%d dynamic noenhanced font 'sans,13' "
	              "background '#ffffff'\n",
	              c->small ? 240 : 380);
	strbuf_append(b, "set output ");
	append_gp_string(b, svg_out);
	strbuf_append(b, "\nset lmargin at screen 0.09\nset rmargin at screen 0.97\n"
	                 "set key below horizontal maxrows 3 reverse Left samplen 3\n"
	                 "set grid ytics lc rgb '#dddddd'\n"
	                 "set border 3\nset tics nomirror\nset xtics out\nset ytics out\n");
	strbuf_append(b, "set ylabel ");
	append_gp_string(b, c->ylabel);
	strbuf_append(b, "\n");
}

/* The time axis: shading of the phases, harness bands, crash marks. */
static void script_time_axis(struct strbuf *b, const struct chart *c)
{
	strbuf_append(b, "set xlabel 'seconds since the schedule started'\n");
	strbuf_append(b, c->logy ? "set logscale y\n" : "set yrange [0:*]\n");
	/* Headroom above the highest line for the spike numbers. The x axis spans exactly the
	 * schedule's first interval to the last sample or mark, so no shading or crash is cut off
	 * and no empty stretch is added up to a round tic. */
	strbuf_append(b, "set offsets graph 0, graph 0, graph 0.1, graph 0\n");
	double xmin = NAN, xmax = NAN;
	if (json_array_size(c->phases) > 0)
		xmin = json_number_value(json_object_get(json_array_get(c->phases, 0), "from_s"));
	for (size_t s = 0; s < c->n_series; s++)
		for (size_t k = 0; k < c->series[s].n; k++) {
			double t = c->series[s].t[k];
			if (isnan(xmin) || t < xmin)
				xmin = t;
			if (isnan(xmax) || t > xmax)
				xmax = t;
		}
	size_t i;
	json_t *m;
	json_array_foreach(c->marks, i, m)
	{
		double t = json_number_value(json_object_get(m, "t_s"));
		if (isnan(xmax) || t > xmax)
			xmax = t;
	}
	if (!isnan(xmin) && !isnan(xmax) && xmax > xmin)
		strbuf_printf(b, "set xrange [%.6g:%.6g]\n", xmin, xmax);
	script_shading(b, c->phases);
	json_t *band;
	json_array_foreach(c->bands, i, band)
	{
		strbuf_printf(b,
		              "set object %zu rect from %.6g, graph 0 to %.6g, graph 0.03 front "
		              "fc rgb '#d00000' fs solid 0.7 noborder\n",
		              500 + i, json_number_value(json_object_get(band, "from_s")),
		              json_number_value(json_object_get(band, "to_s")));
	}
	json_array_foreach(c->marks, i, m)
	{
		double t = json_number_value(json_object_get(m, "t_s"));
		strbuf_printf(
		    b,
		    "set arrow from %.6g, graph 0 to %.6g, graph 1 nohead lc rgb '#d00000'"
		    " dt 2 lw 1.5 front\n",
		    t, t);
		strbuf_printf(b, "set label %zu ", 1000 + i);
		append_gp_string(b, json_string_value(json_object_get(m, "label")));
		/* labels near the right edge go to the left of their line, so they stay visible */
		bool right = !isnan(xmin) && t > xmin + 0.6 * (xmax - xmin);
		strbuf_printf(b, " at %.6g, graph %.2f %s tc rgb '#d00000' front\n", t,
		              0.88 - 0.07 * (double)(i % 8),
		              right ? "right offset -0.5,0" : "left offset 0.5,0");
	}
}

/* Bars: series s is drawn at x = s + 1, its title under it, its value above it. */
static void script_bars_axis(struct strbuf *b, const struct chart *c)
{
	strbuf_printf(b,
	              "set xrange [0.4:%.1f]\nset yrange [0:*]\nset offsets 0, 0, graph 0.12, 0\n"
	              "set boxwidth 0.6\nset style fill solid 1.0 noborder\nunset key\n"
	              "set xtics scale 0 rotate by -20\nset xtics (",
	              (double)c->n_series + 0.6);
	for (size_t s = 0; s < c->n_series; s++) {
		strbuf_append(b, s ? ", " : "");
		append_gp_string(b, c->series[s].title);
		strbuf_printf(b, " %zu", s + 1);
	}
	strbuf_append(b, ")\n");
}

static void script_spikes_axis(struct strbuf *b)
{
	strbuf_append(b, "set xlabel 'spike'\nset xtics 1\nset yrange [0:*]\n"
	                 "set offsets 0.3, 0.3, graph 0.1, 0\n");
}

static void script_cdf_axis(struct strbuf *b)
{
	strbuf_append(b, "set xlabel 'latency (ms), logarithmic'\nset logscale x\n"
	                 "set yrange [0:1.02]\nset ytics 0.1\nset grid xtics ytics lc rgb "
	                 "'#dddddd'\nset format y '%.1f'\n");
}

static void script_plot(struct strbuf *b, const struct chart *c, const char *dir, int index)
{
	strbuf_append(b, "plot ");
	bool first = true;
	for (size_t s = 0; s < c->n_series; s++) {
		const struct chart_series *cs = &c->series[s];
		if (!series_has_data(cs))
			continue;
		strbuf_printf(b, "%s'%s/c%ds%zu.dat' ", first ? "" : ", \\\n  ", dir, index, s);
		if (c->kind == CHART_BARS)
			strbuf_printf(b,
			              "using 1:2 with boxes fc rgb '%s' notitle, '' using 1:2:"
			              "(sprintf('%%.1f', $2)) with labels offset 0,0.8 notitle",
			              cs->color);
		else if (cs->fill)
			strbuf_printf(b,
			              "using 1:2:3 with filledcurves fc rgb '%s' fs solid 1.0 "
			              "noborder title ",
			              cs->fill);
		else
			strbuf_printf(b, "using 1:2 with %s lw %s lc rgb '%s' dt %d title ",
			              c->kind == CHART_SPIKES ? "linespoints pt 7"
			              : cs->steps             ? "fsteps"
			                                      : "lines",
			              cs->dashed ? "1.6" : "2.2", cs->color, cs->dashed ? 2 : 1);
		if (c->kind != CHART_BARS)
			append_gp_string(b, cs->title);
		first = false;
	}
	strbuf_append(b, "\nunset output\n");
}

/* The same chart again as a PNG (gnuplot's pngcairo terminal), from the same run of gnuplot. */
static void script_png(struct strbuf *b, const struct chart *c, const char *png_out)
{
	strbuf_printf(b,
	              "set terminal pngcairo size 900,%d noenhanced font 'sans,10' "
	              "background '#ffffff'\nset output ",
	              c->small ? 240 : 380);
	append_gp_string(b, png_out);
	strbuf_append(b, "\nreplot\nunset output\n");
}

/* Writes DIR/cINDEX.gp drawing the chart into svg_out, and png_out if not NULL. */
static bool chart_write_script(const struct chart *c, const char *dir, int index,
                               const char *svg_out, const char *png_out, char *err, size_t err_size)
{
	struct strbuf b = {0};
	script_begin(&b, c, svg_out);
	if (c->kind == CHART_BARS)
		script_bars_axis(&b, c);
	else if (c->kind == CHART_CDF)
		script_cdf_axis(&b);
	else if (c->kind == CHART_SPIKES)
		script_spikes_axis(&b);
	else
		script_time_axis(&b, c);
	script_plot(&b, c, dir, index);
	if (png_out)
		script_png(&b, c, png_out);
	char path[1100];
	snprintf(path, sizeof(path), "%s/c%d.gp", dir, index);
	FILE *f = fopen(path, "w");
	bool ok = f && fputs(b.s, f) >= 0;
	if (f && fclose(f) != 0)
		ok = false;
	if (!ok)
		snprintf(err, err_size, "%s: cannot write: %s", path, strerror(errno));
	strbuf_free(&b);
	return ok;
}

/* Past this many points a line is thinned (a chart is ~800 pixels wide; more only swells the page).
 */
#define CHART_MAX_POINTS 2400

static void write_point(FILE *f, const struct chart_series *s, size_t i)
{
	if (s->lo) {
		/* a band: an empty line ends one filled stretch (gnuplot starts a new one) */
		if (isnan(s->v[i]) || isnan(s->lo[i]))
			fputs("\n", f);
		else
			fprintf(f, "%.6f %.9g %.9g\n", s->t[i], s->lo[i], s->v[i]);
		return;
	}
	if (isnan(s->v[i]))
		fprintf(f, "%.6f NaN\n", s->t[i]);
	else
		fprintf(f, "%.6f %.9g\n", s->t[i], s->v[i]);
}

/* Writes a series; a long one keeps, of each run of consecutive points, the lowest and the
 * highest (so no peak is lost) and a break if the run holds one, in their original order. */
static void write_series(FILE *f, const struct chart_series *s)
{
	if (s->n <= CHART_MAX_POINTS) {
		for (size_t i = 0; i < s->n; i++)
			write_point(f, s, i);
		return;
	}
	size_t step = (s->n + CHART_MAX_POINTS / 2 - 1) / (CHART_MAX_POINTS / 2);
	for (size_t from = 0; from < s->n; from += step) {
		size_t to = from + step < s->n ? from + step : s->n;
		size_t lo = to, hi = to, gap = to;
		for (size_t i = from; i < to; i++) {
			if (isnan(s->v[i])) {
				if (gap == to)
					gap = i;
				continue;
			}
			if (lo == to || s->v[i] < s->v[lo])
				lo = i;
			if (hi == to || s->v[i] > s->v[hi])
				hi = i;
		}
		size_t keep[3] = {lo, hi, gap};
		for (int a = 0; a < 3; a++) /* three indexes into order */
			for (int b = a + 1; b < 3; b++)
				if (keep[b] < keep[a]) {
					size_t x = keep[a];
					keep[a] = keep[b];
					keep[b] = x;
				}
		for (int k = 0; k < 3; k++)
			if (keep[k] < to && (k == 0 || keep[k] != keep[k - 1]))
				write_point(f, s, keep[k]);
	}
}

static bool chart_write_data(const struct chart *c, const char *dir, int index)
{
	for (size_t s = 0; s < c->n_series; s++) {
		char path[1100];
		snprintf(path, sizeof(path), "%s/c%ds%zu.dat", dir, index, s);
		FILE *f = fopen(path, "w");
		if (!f)
			return false;
		write_series(f, &c->series[s]);
		if (fclose(f) != 0)
			return false;
	}
	return true;
}

static char *file_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	struct strbuf b = {0};
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_append_n(&b, buf, n);
	fclose(f);
	return strbuf_take(&b);
}

/* Makes gnuplot's SVG fit inline among others: drops the XML prolog, and prefixes its ids (every
 * gnuplot SVG defines the same ones) and the in-page references to them with the chart's id. */
static char *svg_inline(const char *svg, const char *prefix)
{
	const char *p = strstr(svg, "<svg");
	if (!p)
		return NULL;
	struct strbuf b = {0};
	strbuf_printf(&b, "<svg class=\"chart\" role=\"img\" aria-labelledby=\"%s-title\"", prefix);
	p += 4;
	static const char *const refs[] = {"id='", "id=\"", "href='#", "href=\"#", "url(#"};
	while (*p) {
		/* Inline SVG in HTML needs no namespace declarations (the HTML parser supplies
		 * them), so the page holds no outside address at all; gnuplot's generic <title>
		 * would only shadow the heading that labels the chart. */
		if (strncmp(p, "xmlns", 5) == 0 && isspace((unsigned char)p[-1])) {
			const char *q = strchr(p, '"');
			q = q ? strchr(q + 1, '"') : NULL;
			if (q) {
				p = q + 1;
				continue;
			}
		}
		if (strncmp(p, "<title>Gnuplot</title>", 22) == 0) {
			p += 22;
			continue;
		}
		bool matched = false;
		for (size_t r = 0; r < sizeof(refs) / sizeof(*refs) && !matched; r++) {
			size_t len = strlen(refs[r]);
			if (strncmp(p, refs[r], len) == 0 &&
			    (p == svg || p[-1] == ' ' || p[-1] == ':' || p[-1] == '\t' ||
			     refs[r][0] == 'u')) {
				strbuf_append(&b, refs[r]);
				strbuf_printf(&b, "%s-", prefix);
				p += len;
				matched = true;
			}
		}
		if (!matched)
			strbuf_append_n(&b, p++, 1);
	}
	return strbuf_take(&b);
}

static void remove_dir(const char *dir, size_t n_charts, const struct chart *charts)
{
	char path[1100];
	for (size_t i = 0; i < n_charts; i++) {
		static const char *const ext[] = {"gp", "svg", "err"};
		for (size_t e = 0; e < 3; e++) {
			snprintf(path, sizeof(path), "%s/c%zu.%s", dir, i, ext[e]);
			unlink(path);
		}
		for (size_t s = 0; s < charts[i].n_series; s++) {
			snprintf(path, sizeof(path), "%s/c%zus%zu.dat", dir, i, s);
			unlink(path);
		}
	}
	rmdir(dir);
}

static const char *gnuplot_binary(void)
{
	const char *gnuplot = getenv("ALLOCSPIKE_GNUPLOT");
	return gnuplot && *gnuplot ? gnuplot : "gnuplot";
}

/* A fresh directory for gnuplot's scripts and data, in dir (PATH_MAX-ish buffer). */
static bool work_dir(char *dir, size_t size, char *err, size_t err_size)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, size, "%s/allocspike-report.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		snprintf(err, err_size, "%s: cannot create: %s", dir, strerror(errno));
		return false;
	}
	return true;
}

/* Writes chart i's data and script in dir and runs gnuplot, drawing into svg_out (and png_out if
 * not NULL): 0 drawn, 1 gnuplot failed on this chart, -1 cannot go on (err says why). */
static int chart_draw(const struct chart *c, const char *dir, size_t i, const char *svg_out,
                      const char *png_out, char *err, size_t err_size)
{
	if (!chart_write_data(c, dir, (int)i) ||
	    !chart_write_script(c, dir, (int)i, svg_out, png_out, err, err_size)) {
		if (!*err)
			snprintf(err, err_size, "%s: cannot write chart data", dir);
		return -1;
	}
	struct strbuf cmd = {0};
	strbuf_printf(&cmd, "'%s' '%s/c%zu.gp' 2>'%s/c%zu.err'", gnuplot_binary(), dir, i, dir, i);
	int rc = system(cmd.s);
	strbuf_free(&cmd);
	if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) == 127) {
		snprintf(err, err_size, "cannot run %s (install gnuplot-nox)", gnuplot_binary());
		return -1;
	}
	return WEXITSTATUS(rc) == 0 ? 0 : 1;
}

bool charts_render(struct chart *charts, size_t n, char *err, size_t err_size)
{
	return charts_render_files(charts, n, NULL, err, err_size);
}

bool charts_render_files(struct chart *charts, size_t n, const char *files_dir, char *err,
                         size_t err_size)
{
	if (files_dir && mkdir(files_dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr,
		        "allocspike-report: warning: %s: cannot create: %s; no chart files\n",
		        files_dir, strerror(errno));
		files_dir = NULL;
	}
	char dir[1024];
	if (!work_dir(dir, sizeof(dir), err, err_size))
		return false;
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		if (!chart_has_data(&charts[i]))
			continue; /* nothing recorded: the page says "no data" */
		char svg_path[2200], png_path[2200];
		if (files_dir) {
			snprintf(svg_path, sizeof(svg_path), "%s/%s.svg", files_dir, charts[i].id);
			snprintf(png_path, sizeof(png_path), "%s/%s.png", files_dir, charts[i].id);
		} else {
			snprintf(svg_path, sizeof(svg_path), "%s/c%zu.svg", dir, i);
		}
		int r = chart_draw(&charts[i], dir, i, svg_path, files_dir ? png_path : NULL, err,
		                   err_size);
		ok = r >= 0;
		char *svg = r == 0 ? file_slurp(svg_path) : NULL;
		if (svg)
			charts[i].svg = svg_inline(svg, charts[i].id);
		free(svg);
	}
	remove_dir(dir, n, charts);
	return ok;
}

void charts_free(struct chart *charts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct chart *c = &charts[i];
		for (size_t s = 0; s < c->n_series; s++) {
			free(c->series[s].title);
			free(c->series[s].t);
			free(c->series[s].v);
			free(c->series[s].lo);
		}
		free(c->series);
		free(c->title);
		free(c->caption);
		json_decref(c->marks);
		free(c->svg);
		memset(c, 0, sizeof(*c));
	}
}
