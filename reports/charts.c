/* reports/charts.c - builds the charts of a run or a comparison from its figures (drawn by
 * chart_gnuplot.c). */
#include "charts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "attribution.h"
#include "colours.h"
#include "spread.h"
#include "strbuf.h"
#include "timeline_rows.h"
#include "traffic.h"

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
	c->ymin = c->ymax = NAN;
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

/* How many timeline rows target has: a series of it is sized to them, not to the whole timeline
 * (a run of many variants would otherwise reserve every variant's rows for each). */
static size_t target_rows(const struct runfolder *rf, int target)
{
	size_t n = 0;
	for (size_t i = 0; i < rf->n_rows; i++)
		n += rf->rows[i].target == target;
	return n;
}

enum derived { PLAIN, RATE_PER_BIN, CPU_CORES, MB_FROM_KB, BEYOND_CACHE_MB };

/* The rate chart's bin: the timeline's 100 ms intervals hold a few hundred queries each, so a rate
 * per interval jitters by the arrivals of one interval (a tenth more or less) and hides the
 * schedule's steps; a second's worth averages that out and still shows each phase. */
#define RATE_BIN_S 1.0

/* One target's per-interval count col as a rate per second over bins of bin_s seconds (the bin
 * holding an interval is the one its end falls in), drawn as steps. A bin is divided by the time
 * its rows cover, so a bin cut short at a phase's or the run's end is not drawn low. */
static void series_fill_binned(struct chart_series *s, const struct runfolder *rf, int target,
                               enum timeline_column col, double bin_s, double interval_s)
{
	s->steps = true;
	double prev_t = NAN, bin = NAN, count = 0, covered = 0;
	for (size_t i = 0; i <= rf->n_rows; i++) {
		const struct runfolder_row *r = i < rf->n_rows ? &rf->rows[i] : NULL;
		if (r && r->target != target)
			continue;
		bool restart = r && r->t_s <= prev_t;
		double this_bin = r ? ceil(r->t_s / bin_s - 1e-9) : NAN;
		if (!isnan(bin) && (!r || restart || this_bin != bin)) {
			double end = bin * bin_s;
			if (s->n == 0 ||
			    isnan(s->v[s->n - 1])) { /* a stretch starts: from its start */
				s->t[s->n] = end - covered;
				s->v[s->n++] = covered > 0 ? count / covered : NAN;
			}
			s->t[s->n] = end;
			s->v[s->n++] = covered > 0 ? count / covered : NAN;
			count = covered = 0;
		}
		if (!r)
			break;
		if (restart) { /* serial mode: the clock starts again, the line breaks */
			s->t[s->n] = r->t_s;
			s->v[s->n++] = NAN;
			prev_t = NAN;
		}
		double dt = isnan(prev_t) ? interval_s : r->t_s - prev_t;
		prev_t = r->t_s;
		bin = this_bin;
		if (isnan(r->v[col]) || dt <= 0)
			continue;
		count += r->v[col];
		covered += dt;
	}
}

/* One target's values of a column over time, transformed to what the chart shows. */
static void series_fill(struct chart_series *s, const struct runfolder *rf, int target,
                        enum timeline_column col, enum derived how, double interval_s)
{
	double prev_t = NAN, prev_cpu = NAN;
	double cores =
	    json_number_value(json_object_get(json_object_get(rf->run, "machine"), "cores"));
	if (how == RATE_PER_BIN) {
		series_fill_binned(s, rf, target, col, RATE_BIN_S, interval_s);
		return;
	}
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
		case RATE_PER_BIN: /* series_fill_binned, before the loop */
			break;
		case MB_FROM_KB:
			v /= 1024.0;
			break;
		case BEYOND_CACHE_MB:
			v = (r->v[TIMELINE_COL_anon_kb] - r->v[TIMELINE_COL_cache_bytes] / 1024.0) /
			    1024.0;
			break;
		case CPU_CORES: {
			/* Over windows of at least TIMELINE_ROWS_CPU_WINDOW_S, capped at the
			 * machine's cores: a process cannot use more, what shows above is tick
			 * noise. */
			double c = timeline_rows_cpu_s(r);
			if (isnan(c))
				continue;
			if (isnan(prev_cpu)) {
				prev_cpu = c;
				prev_t = r->t_s;
				continue;
			}
			if (r->t_s - prev_t < TIMELINE_ROWS_CPU_WINDOW_S - 1e-9)
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

bool chart_series_has_data(const struct chart_series *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (!isnan(s->v[i]))
			return true;
	return false;
}

bool chart_has_data(const struct chart *c)
{
	for (size_t s = 0; s < c->n_series; s++)
		if (chart_series_has_data(&c->series[s]))
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
		struct chart_series *s =
		    series_add(c, title, colours_of(summary, json_string_value(name)), dashed,
		               target_rows(rf, t));
		series_fill(s, rf, t, col, how, interval_s);
		if (chart_series_has_data(s))
			with_data++;
	}
	return with_data;
}

/* Gives charts[0..n) one y range, the lowest to the highest value any of them draws (from 0 for
 * a linear axis, whole decades for a logarithmic one), so panels side by side can be compared by
 * eye, and one plot height: the key below each is given the rows the largest needs, key_per_row
 * entries to a row. Room is left above for the spike numbers. */
static void charts_share_y(struct chart *charts, size_t n, bool logy, size_t key_per_row)
{
	double lo = NAN, hi = NAN;
	for (size_t k = 0; k < n; k++)
		for (size_t s = 0; s < charts[k].n_series; s++)
			for (size_t i = 0; i < charts[k].series[s].n; i++) {
				double v = charts[k].series[s].v[i];
				if (isnan(v) || (logy && v <= 0))
					continue;
				lo = isnan(lo) ? v : fmin(lo, v);
				hi = isnan(hi) ? v : fmax(hi, v);
			}
	if (isnan(hi) || hi <= 0)
		return;
	size_t key_rows = 0; /* a key entry per drawn series, key_per_row of them to a row */
	for (size_t k = 0; k < n; k++) {
		size_t drawn = 0;
		for (size_t s = 0; s < charts[k].n_series; s++)
			drawn += chart_series_has_data(&charts[k].series[s]);
		drawn = (drawn + key_per_row - 1) / key_per_row;
		key_rows = drawn > key_rows ? drawn : key_rows;
	}
	for (size_t k = 0; k < n; k++) {
		charts[k].key_rows = key_rows;
		/* whole decades on a logarithmic axis, so it has ticks to read; on a linear one the
		 * spike numbers stand at 96 % of the height, a tenth more keeps them clear */
		charts[k].ymin = logy ? pow(10, floor(log10(lo))) : 0;
		charts[k].ymax = logy ? pow(10, ceil(log10(hi * 1.3))) : hi * 1.12;
	}
}

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
		    "memory (MB)");
		return;
	}
	json_array_foreach(order, i, name)
	{
		const char *vn = json_string_value(name);
		const json_t *v = json_object_get(variants, vn);
		const char *how = json_string_value(json_object_get(v, "attribution"));
		const char *allocator = json_string_value(json_object_get(v, "allocator"));
		const struct allocator_words *names = attr_names_for(allocator);
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
		struct chart *c = chart_add(charts, n, id, title, cap.s, "memory (MB)");
		strbuf_free(&cap);
		int t = runfolder_target_index(rf, vn);
		if (t < 0 || !how || strcmp(how, "unavailable") == 0)
			continue;
		size_t rows = target_rows(rf, t);
		int layer[ATTR_PART_COUNT]; /* series index of each layer, -1 if not drawn */
		for (int p = 0; p < ATTR_PART_COUNT; p++) {
			layer[p] = -1;
			if (!split && (p == ATTR_TRIMMABLE || p == ATTR_FRAGMENTED))
				continue;
			char label[160];
			struct chart_series *s = series_add(
			    c,
			    attr_part_label(names, (enum attr_part)p, split, label, sizeof(label)),
			    "#000000", false, rows);
			s->fill = colours_layer((enum attr_part)p, split);
			s->lo = calloc(3 * rows + 1, sizeof(double));
			if (!s->lo)
				abort();
			layer[p] = (int)c->n_series - 1;
		}
		why_fill(c, layer, rf, t);
	}
	/* each layer's label is long: one to a row of the key */
	charts_share_y(*charts + *n - json_array_size(order), json_array_size(order), false, 1);
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

/* The verdict's ranking: one bar per ranked variant, what the spikes left behind (held after the
 * last recovery minus before the first spike), least first, in its colour. */
static void charts_add_ranking(struct chart **charts, size_t *n, const json_t *summary)
{
	const json_t *verdict = json_object_get(summary, "verdict");
	const json_t *ranking = json_object_get(verdict, "ranking");
	if (json_array_size(ranking) == 0)
		return;
	struct strbuf cap = {0};
	strbuf_printf(&cap,
	              "Least first: what each variant held after the last recovery minus what it "
	              "held before the first spike (summary.json spikes_left_mb), measured as %s "
	              "(verdict.held_basis); the level before the spikes is in the verdict.",
	              json_string_value(json_object_get(verdict, "held_basis_text")));
	struct chart *c =
	    chart_add(charts, n, "chart-ranking", "What the spikes left behind, per variant", cap.s,
	              "memory (MB)");
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
		s->v[0] = json_number_value(json_object_get(r, "spikes_left_mb"));
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
	    "memory (MB)");
	add_variant_series(c, rf, summary, 0, BEYOND_CACHE_MB, interval_s, "", false);
	size_t with_data = 0;
	for (size_t k = 0; k < c->n_series; k++) {
		struct chart_series *s = &c->series[k];
		if (!chart_series_has_data(s)) {
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
		with_data += chart_series_has_data(s);
	}
	if (with_data == 0)
		chart_drop_last(*charts, n);
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
		qsort(v, m, sizeof(*v), spread_cmp_double);
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
		if (chart_series_has_data(&c->series[k]))
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
	size_t first = *n, i;
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
		size_t rows = target_rows(rf, t);
		struct chart_series *s = series_add(c, "p99", colour, false, rows);
		series_fill(s, rf, t, TIMELINE_COL_lat_p99_ms, PLAIN, interval_s);
		s = series_add(c, "p50", colour, true, rows);
		series_fill(s, rf, t, TIMELINE_COL_lat_p50_ms, PLAIN, interval_s);
		if (!chart_has_data(c))
			chart_drop_last(*charts, n);
	}
	charts_share_y(*charts + first, *n - first, true, 2); /* "p99", "p50": one row */
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
	double interval_s = timeline_rows_interval_s(rf);

	charts_add_ranking(&charts, n, summary);
	struct chart *c = chart_add(&charts, n, "chart-anon", "Anonymous RSS per variant",
	                            "Shaded: spikes; grey: warm-up (left out of spike figures); "
	                            "dashed red lines: crashes.",
	                            "anonymous RSS (MB)");
	add_variant_series(c, rf, summary, TIMELINE_COL_anon_kb, MB_FROM_KB, interval_s, "", false);
	marks_add_crashes(c, summary);

	charts_add_beyond(&charts, n, rf, summary, interval_s);

	charts_add_why(&charts, n, rf, summary);

	c = chart_add(&charts, n, "chart-rate", "Answered versus offered rate",
	              "Per second, averaged over 1 s bins: solid, the answers each variant "
	              "received; dashed black, the rate the schedule offered (the timeline's "
	              "offered column).",
	              "rate (queries/s)");
	add_variant_series(c, rf, summary, TIMELINE_COL_answered, RATE_PER_BIN, interval_s, "",
	                   false);
	size_t i;
	json_t *name;
	json_array_foreach(order, i, name)
	{
		int t = runfolder_target_index(rf, json_string_value(name));
		if (t < 0)
			continue;
		struct chart_series *s =
		    series_add(c, "offered", "#000000", true, target_rows(rf, t));
		series_fill_binned(s, rf, t, TIMELINE_COL_offered, RATE_BIN_S, interval_s);
		if (chart_series_has_data(s))
			break;
		free(s->title);
		free(s->t);
		free(s->v);
		c->n_series--;
	}

	charts_add_latency(&charts, n, rf, summary, interval_s);
	for (size_t p = 0; p < 2; p++)
		charts_add_cdf(&charts, n, rf, summary, model_traffic_phases[p]);

	c = chart_add(
	    &charts, n, "chart-cpu", "CPU per process",
	    "Cores used (user + system), averaged over windows of at least 1 s (CPU time "
	    "ticks in 10 ms) and capped at the machine's cores; dashed grey: the harness "
	    "(load generator, simulated hierarchy); red strip along the bottom: the harness "
	    "was saturated.",
	    "CPU (cores)");
	add_variant_series(c, rf, summary, 0, CPU_CORES, interval_s, "", false);
	c->bands = json_object_get(json_object_get(summary, "harness"), "saturated_periods");
	for (size_t t = 0; t < rf->n_targets; t++) {
		if (!runfolder_is_harness(rf->targets[t]))
			continue;
		struct chart_series *s =
		    series_add(c, rf->targets[t], colours_harness(rf->targets[t]), true,
		               target_rows(rf, (int)t));
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
	                            "held (% of highest footprint)");
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
		                            "anonymous RSS (MB)");
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
			struct chart_series *s =
			    series_add(c, st, shade, false, target_rows(&rfs[r], t));
			series_fill(s, &rfs[r], t, TIMELINE_COL_anon_kb, MB_FROM_KB,
			            timeline_rows_interval_s(&rfs[r]));
		}
		add_compare_spike_chart(&charts, n, summaries, n_runs, vn, i);
	}
	return charts;
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
