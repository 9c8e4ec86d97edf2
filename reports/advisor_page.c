/* reports/advisor_page.c - the advisor's page (reports/README.md "Advisor"): the sentences, then
 * per group of settings a Pareto chart and a table. The chart is a scatter drawn here as SVG:
 * gnuplot's time-series charts (charts.c) have no use for a labelled scatter. */
#include "advisor_page.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "strbuf.h"
#include "summary_json.h"
#include "svg_plot.h"

static const struct {
	const char *key, *label;
} COLUMNS[] = {
    {"held_after_spikes_mb", "held after the spikes (MB)"},
    {"held_growth_mb_per_spike", "growth per spike (MB)"},
    {"peak_anon_mb", "peak anon RSS (MB)"},
    {"cpu_s_per_million_answered", "CPU s per million answered"},
    {"spike_lat_p99_ms", "latency p99 in spikes (ms)"},
};
enum { N_COLUMNS = sizeof(COLUMNS) / sizeof(COLUMNS[0]) };

static bool flag(const json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key));
}

static bool in_group(const json_t *v, const char *group)
{
	const char *g = json_string_value(json_object_get(v, "group"));
	return g && strcmp(g, group) == 0;
}

/* Held memory (y) against CPU per answered query (x); the Pareto front joined by a line, the
 * recommended setting in orange. */
static void append_pareto(struct strbuf *b, const json_t *advice, const char *group, int id)
{
	const json_t *variants = json_object_get(advice, "variants");
	double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
	const char *name;
	const json_t *v;
	size_t points = 0;
	json_object_foreach((json_t *)variants, name, v)
	{
		double x = summary_number(v, "cpu_s_per_million_answered"),
		       y = summary_number(v, "held_after_spikes_mb");
		if (!in_group(v, group) || !isfinite(x) || !isfinite(y))
			continue;
		x0 = fmin(x0, x), x1 = fmax(x1, x), y0 = fmin(y0, y), y1 = fmax(y1, y);
		points++;
	}
	if (points == 0) {
		strbuf_append(
		    b, "<p class=\"nochart\">No setting of this group has both figures.</p>\n");
		return;
	}
	struct svg_plot p;
	svg_plot_fit(&p, x0, x1, fmin(y0, 0), y1);
	char chart_id[32];
	snprintf(chart_id, sizeof(chart_id), "pareto%d", id);
	svg_plot_begin(b, &p, chart_id, "CPU s per million answered (after warm-up)",
	               "held after the spikes (MB)");
#define PX(x) svg_plot_px(&p, (x))
#define PY(y) svg_plot_py(&p, (y))
	/* The front, in order of CPU. */
	struct {
		double x, y;
	} front[64];
	size_t nf = 0;
	json_object_foreach((json_t *)variants, name, v)
	{
		if (in_group(v, group) && flag(v, "pareto") && nf < 64) {
			front[nf].x = summary_number(v, "cpu_s_per_million_answered");
			front[nf++].y = summary_number(v, "held_after_spikes_mb");
		}
	}
	for (size_t i = 1; i < nf; i++)
		for (size_t j = i; j > 0 && front[j].x < front[j - 1].x; j--) {
			double tx = front[j].x, ty = front[j].y;
			front[j] = front[j - 1];
			front[j - 1].x = tx, front[j - 1].y = ty;
		}
	if (nf > 1) {
		strbuf_append(b,
		              "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-dasharray=\"4 3\" "
		              "points=\"");
		for (size_t i = 0; i < nf; i++)
			strbuf_printf(b, "%s%.1f,%.1f", i ? " " : "", PX(front[i].x),
			              PY(front[i].y));
		strbuf_append(b, "\"/>\n");
	}
	json_object_foreach((json_t *)variants, name, v)
	{
		double x = summary_number(v, "cpu_s_per_million_answered"),
		       y = summary_number(v, "held_after_spikes_mb");
		if (!in_group(v, group) || !isfinite(x) || !isfinite(y))
			continue;
		const char *color = flag(v, "recommended") ? "#e66100"
		                    : flag(v, "pareto")    ? "#1f77b4"
		                                           : "#888888";
		strbuf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"><title>",
		              PX(x), PY(y), color);
		strbuf_append_html(b, name);
		strbuf_printf(b, ": %.1f MB, %.2f s</title></circle><text x=\"%.1f\" y=\"%.1f\">",
		              y, x, PX(x) + 8, PY(y) + 4);
		strbuf_append_html(b, name);
		strbuf_append(b, "</text>\n");
	}
	svg_plot_end(b);
#undef PX
#undef PY
}

static void append_cell(struct strbuf *b, const json_t *v, const char *key)
{
	char spread_key[96];
	snprintf(spread_key, sizeof(spread_key), "%s_spread", key);
	double x = summary_number(v, key), s = summary_number(v, spread_key);
	if (!isfinite(x)) {
		strbuf_append(b, "<td><span class=\"muted\">n/a</span></td>");
		return;
	}
	strbuf_printf(b, "<td>%.2f", x);
	if (isfinite(s))
		strbuf_printf(b, " <span class=\"muted\">&plusmn;%.2f</span>", s / 2);
	const char *vs =
	    json_string_value(json_object_get(json_object_get(v, "vs_reference"), key));
	if (vs && strcmp(vs, "same") != 0)
		strbuf_printf(b, " <span class=\"muted\">(%s)</span>", vs);
	strbuf_append(b, "</td>");
}

static void append_table(struct strbuf *b, const json_t *advice, const char *group)
{
	strbuf_append(b, "<div class=\"scroll\"><table>\n<tr><th>setting</th><th>environment</th>");
	for (size_t c = 0; c < N_COLUMNS; c++)
		strbuf_printf(b, "<th>%s</th>", COLUMNS[c].label);
	strbuf_append(b, "<th>verdict</th></tr>\n");
	const char *name;
	const json_t *v;
	json_object_foreach((json_t *)json_object_get(advice, "variants"), name, v)
	{
		if (!in_group(v, group))
			continue;
		strbuf_append(b, "<tr><td>");
		strbuf_append_html(b, name);
		strbuf_append(b, "</td><td><code>");
		strbuf_append_html(b, json_string_value(json_object_get(v, "env")) ?: "-");
		strbuf_append(b, "</code></td>");
		for (size_t c = 0; c < N_COLUMNS; c++)
			append_cell(b, v, COLUMNS[c].key);
		strbuf_append(b, "<td>");
		if (flag(v, "recommended"))
			strbuf_append(b, "<b>recommended</b> ");
		if (flag(v, "reference"))
			strbuf_append(b, "default ");
		if (flag(v, "within_margin"))
			strbuf_append(b, "within margin ");
		if (flag(v, "pareto"))
			strbuf_append(b, "Pareto ");
		if (flag(v, "does_nothing"))
			strbuf_append(b, "<i>does nothing</i>");
		strbuf_append(b, "</td></tr>\n");
	}
	strbuf_append(b, "</table></div>\n");
}

char *advisor_page(const json_t *advice)
{
	struct strbuf b = {0};
	html_page_begin(&b, "allocspike tuning advisor");
	strbuf_append(&b, "<h1>Tuning advisor</h1>\n<p class=\"context-line\">Held memory: ");
	strbuf_append_html(&b, json_string_value(json_object_get(advice, "held_basis_text")) ?: "");
	strbuf_printf(&b,
	              ". Margin: %.1f MB or %.0f%% of the lowest, whichever is larger. Runs: %zu "
	              "(with several, each figure is the median, &plusmn; half the range; a "
	              "difference inside the range of either setting, or under 1 MB, 0.25 MB per "
	              "spike, 5%% CPU or 10%% latency, is no difference).</p>\n",
	              summary_number(advice, "margin_mb"),
	              100 * summary_number(advice, "margin_share"),
	              json_array_size(json_object_get(advice, "runs")));
	strbuf_append(&b, "<h2>What to set</h2>\n<ul class=\"findings\">\n");
	size_t i;
	const json_t *g;
	json_array_foreach(json_object_get(advice, "groups"), i, g)
	{
		strbuf_append(&b, "<li>");
		strbuf_append_html(&b, json_string_value(json_object_get(g, "sentence")) ?: "");
		strbuf_append(&b, "</li>\n");
	}
	strbuf_append(&b, "</ul>\n");
	json_array_foreach(json_object_get(advice, "groups"), i, g)
	{
		const char *group = json_string_value(json_object_get(g, "name"));
		strbuf_append(&b, "<h2>");
		strbuf_append_html(&b, json_string_value(json_object_get(g, "label")) ?: group);
		strbuf_append(&b, "</h2>\n");
		append_pareto(&b, advice, group, (int)i);
		strbuf_append(
		    &b, "<p class=\"caption\">Each point is a setting; lower and further left "
		        "is better. Blue: no other setting holds less and costs less (the "
		        "Pareto front, dashed); orange: the recommended one.</p>\n");
		append_table(&b, advice, group);
	}
	strbuf_append(&b, "<h2>Runs</h2>\n<ul>\n");
	const json_t *dir;
	json_array_foreach(json_object_get(advice, "runs"), i, dir)
	{
		strbuf_append(&b, "<li><code>");
		strbuf_append_html(&b, json_string_value(dir));
		strbuf_append(&b, "</code></li>\n");
	}
	strbuf_append(&b, "</ul>\n<footer><p class=\"muted\">Made by allocspike-report advise."
	                  "</p></footer>\n</body>\n</html>\n");
	return strbuf_take(&b);
}
