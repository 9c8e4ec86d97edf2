/* reports/scale_page.c - the scale page (reports/README.md "Scale"): what the slopes mean for an
 * operator, the table of fits, the scatter of held memory against requests in flight with each
 * variant's line, and the runs it came from. */
#include "scale_page.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "charts.h"
#include "colours.h"
#include "html.h"
#include "strbuf.h"
#include "summary_json.h"
#include "svg_plot.h"

/* The table reads each line at this many requests in flight: an operator's peak, past our runs. */
#define SCALE_READ_AT_INFLIGHT 10000.0

static void append_number(struct strbuf *b, double x, const char *fmt)
{
	if (isfinite(x))
		strbuf_printf(b, fmt, x);
	else
		strbuf_append(b, "<span class=\"muted\">n/a</span>");
}

/* The variant's colour, its allocator's (reports/colours.c), grey if the run had none. */
static const char *colour_at(const json_t *variant)
{
	const char *c = json_string_value(json_object_get(variant, "colour"));
	return c ? c : colours_harness("");
}

static const json_t *variant_at(const json_t *scale, size_t i, const char **name)
{
	*name = json_string_value(json_array_get(json_object_get(scale, "variant_order"), i));
	return json_object_get(json_object_get(scale, "variants"), *name ? *name : "");
}

static void append_fits(struct strbuf *b, const json_t *scale)
{
	strbuf_printf(b,
	              "<div class=\"scroll\"><table id=\"fit-table\">\n<tr><th>variant</th>"
	              "<th>MB per 1,000 requests in flight</th><th>R&sup2;</th>"
	              "<th>intercept (MB)</th><th>runs</th><th>at %.0f,000 in flight (MB, from "
	              "the line)</th></tr>\n",
	              SCALE_READ_AT_INFLIGHT / 1000.0);
	size_t n = json_array_size(json_object_get(scale, "variant_order"));
	for (size_t i = 0; i < n; i++) {
		const char *name;
		const json_t *v = variant_at(scale, i, &name);
		double slope = summary_number(v, "slope_mb_per_1000_inflight"),
		       icpt = summary_number(v, "intercept_mb");
		strbuf_printf(b, "<tr><td><span class=\"swatch\" style=\"background:%s\"></span>",
		              colour_at(v));
		strbuf_append_html(b, name);
		strbuf_append(b, "</td><td>");
		append_number(b, slope, "%.2f");
		strbuf_append(b, "</td><td>");
		append_number(b, summary_number(v, "r2"), "%.3f");
		strbuf_append(b, "</td><td>");
		append_number(b, icpt, "%.1f");
		strbuf_printf(b, "</td><td>%zu</td><td>",
		              json_array_size(json_object_get(v, "points")));
		append_number(b, icpt + slope * SCALE_READ_AT_INFLIGHT / 1000.0, "%.0f");
		strbuf_append(b, "</td></tr>\n");
	}
	strbuf_append(b, "</table></div>\n");
}

static void append_scatter(struct strbuf *b, const json_t *scale)
{
	size_t n = json_array_size(json_object_get(scale, "variant_order"));
	double xmax = 0, y0 = 0, y1 = 0;
	for (size_t i = 0; i < n; i++) {
		const char *name;
		size_t k;
		const json_t *p;
		json_array_foreach(json_object_get(variant_at(scale, i, &name), "points"), k, p)
		{
			xmax = fmax(xmax, summary_number(p, "peak_inflight"));
			y0 = fmin(y0, summary_number(p, "held_mb"));
			y1 = fmax(y1, summary_number(p, "held_mb"));
		}
	}
	if (xmax <= 0) {
		strbuf_append(b, "<p class=\"nochart\">No run has both figures (requests in flight "
		                 "and allocator-held memory).</p>\n");
		return;
	}
	struct svg_plot plot;
	svg_plot_fit(&plot, 0, xmax, y0, y1);
	svg_plot_begin(b, &plot, "scale-chart", "peak requests in flight",
	               "allocator-held after the spikes (MB)");
	for (size_t i = 0; i < n; i++) {
		const char *name;
		const json_t *v = variant_at(scale, i, &name), *p;
		const char *color = colour_at(v);
		double slope = summary_number(v, "slope_mb_per_1000_inflight"),
		       icpt = summary_number(v, "intercept_mb");
		if (isfinite(slope) && isfinite(icpt)) {
			double ya = icpt, yb = icpt + slope * xmax / 1000.0;
			/* The line is clipped to the frame: a steep fit must not draw over the
			 * labels. */
			double ylo = plot.y0, yhi = plot.y1;
			double xa = 0, xb = xmax;
			if (slope != 0) {
				double xlo = (ylo - icpt) * 1000.0 / slope,
				       xhi = (yhi - icpt) * 1000.0 / slope;
				xa = fmax(xa, fmin(xlo, xhi));
				xb = fmin(xb, fmax(xlo, xhi));
				ya = icpt + slope * xa / 1000.0;
				yb = icpt + slope * xb / 1000.0;
			}
			if (xb > xa) {
				strbuf_printf(
				    b,
				    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				    "stroke=\"%s\" stroke-width=\"1.5\"/>\n",
				    svg_plot_px(&plot, xa), svg_plot_py(&plot, ya),
				    svg_plot_px(&plot, xb), svg_plot_py(&plot, yb), color);
				strbuf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">",
				              svg_plot_px(&plot, xb) + 6,
				              svg_plot_py(&plot, yb) + 4, color);
				strbuf_append_html(b, name);
				strbuf_printf(b, " %.2f MB/1k</text>\n", slope);
			}
		}
		size_t k;
		json_array_foreach(json_object_get(v, "points"), k, p)
		{
			double x = summary_number(p, "peak_inflight"),
			       y = summary_number(p, "held_mb");
			strbuf_printf(b,
			              "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>",
			              svg_plot_px(&plot, x), svg_plot_py(&plot, y), color);
			strbuf_append_html(b, name);
			strbuf_printf(b, ", run %d: %.0f in flight, %.1f MB</title></circle>\n",
			              (int)summary_number(p, "run") + 1, x, y);
		}
	}
	svg_plot_end(b);
}

/* The point of variant v from run r, as "in flight / MB", or n/a. */
static void append_point_cell(struct strbuf *b, const json_t *v, size_t r)
{
	size_t k;
	const json_t *p;
	json_array_foreach(json_object_get(v, "points"), k, p)
	{
		if ((size_t)summary_number(p, "run") == r) {
			strbuf_printf(b, "<td>%.0f / %.1f</td>", summary_number(p, "peak_inflight"),
			              summary_number(p, "held_mb"));
			return;
		}
	}
	strbuf_append(b, "<td><span class=\"muted\">n/a</span></td>");
}

static void append_runs(struct strbuf *b, const json_t *scale)
{
	size_t n = json_array_size(json_object_get(scale, "variant_order"));
	strbuf_append(b, "<div class=\"scroll\"><table id=\"run-table\">\n<tr><th>run</th>"
	                 "<th>folder</th><th>status</th><th>world</th><th>spike rate (qps)</th>");
	for (size_t i = 0; i < n; i++) {
		const char *name;
		variant_at(scale, i, &name);
		strbuf_append(b, "<th>");
		strbuf_append_html(b, name);
		strbuf_append(b, "<br><span class=\"muted\">in flight / MB held</span></th>");
	}
	strbuf_append(b, "</tr>\n");
	size_t r;
	const json_t *run;
	json_array_foreach(json_object_get(scale, "runs"), r, run)
	{
		const char *world = json_string_value(json_object_get(run, "world"));
		const char *status = json_string_value(json_object_get(run, "status"));
		strbuf_printf(b, "<tr><td>%zu</td><td><code>", r + 1);
		strbuf_append_html(b, json_string_value(json_object_get(run, "dir")) ?: "");
		strbuf_append(b, "</code></td><td>");
		strbuf_append_html(b, status ? status : "unknown");
		strbuf_append(b, "</td><td>");
		strbuf_append_html(b, world ? world : "-");
		strbuf_append(b, "</td><td>");
		append_number(b, summary_number(run, "spike_rate_qps"), "%.0f");
		strbuf_append(b, "</td>");
		for (size_t i = 0; i < n; i++) {
			const char *name;
			append_point_cell(b, variant_at(scale, i, &name), r);
		}
		strbuf_append(b, "</tr>\n");
	}
	strbuf_append(b, "</table></div>\n");
}

char *scale_page(const json_t *scale)
{
	struct strbuf b = {0};
	html_page_begin(&b, "allocspike scale");
	strbuf_printf(&b,
	              "<h1>Memory held after spikes, against requests in flight</h1>\n"
	              "<p class=\"context-line\">%zu runs at different spike heights. Each point "
	              "is one variant in one run: across, the most requests it had in flight at a "
	              "spike's peak; up, what its allocator still held beyond live allocations at "
	              "the end of the last recovery. The line is the least-squares fit; its slope "
	              "answers &ldquo;at my peak, what will this allocator cost me?&rdquo;</p>\n",
	              json_array_size(json_object_get(scale, "runs")));
	strbuf_append(&b, "<h2>MB per 1,000 requests in flight</h2>\n");
	append_fits(&b, scale);
	strbuf_append(&b, "<p class=\"caption\">R&sup2; near 1: held memory grows in proportion "
	                  "to the requests in flight; low: something else drives it (the runs' "
	                  "spread, the cache). The last column reads the line far past most runs: "
	                  "an extrapolation.</p>\n<h2>The points and their lines</h2>\n");
	append_scatter(&b, scale);
	strbuf_append(&b, "<h2>Runs</h2>\n");
	append_runs(&b, scale);
	strbuf_append(&b, "<footer><p class=\"muted\">Made by allocspike-report scale; figures in "
	                  "scale.json beside this page.</p></footer>\n</body>\n</html>\n");
	return strbuf_take(&b);
}
