/* reports/charts.h - time-series charts drawn by gnuplot as SVG, for inlining into a page. */
#ifndef ALLOCSPIKE_REPORTS_CHARTS_H
#define ALLOCSPIKE_REPORTS_CHARTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "runfolder_reader.h"

struct chart_series {
	char *title;
	char color[8]; /* "#rrggbb" (reports/colours.h) */
	bool dashed;   /* secondary line (offered rate, p50, harness) */
	bool steps;    /* a per-interval value, drawn over the interval it covers (ending at t) */
	const char *fill; /* a filled band from lo to v in this CSS colour, or NULL for a line */
	double *t, *v, *lo;
	size_t n;
};

enum chart_kind {
	CHART_TIME,   /* series over seconds since the schedule started, phases shaded */
	CHART_BARS,   /* one bar per series (its single value), labelled with the series' title */
	CHART_CDF,    /* cumulative share of answers over latency (ms, logarithmic) */
	CHART_SPIKES, /* a value per spike over the spike number, points joined */
};

/* The x axis's title of a time chart (CHART_TIME), wherever it is drawn. */
#define CHART_TIME_XLABEL "time since the schedule started (s)"

struct chart {
	enum chart_kind kind;
	bool small;    /* one of a row of small charts (one per variant): less tall */
	char id[32];   /* element id in the page, also prefixed to the SVG's own ids */
	char *title;   /* the heading above the chart, also drawn in the chart files (from data) */
	char *caption; /* one sentence under it saying how to read it */
	char ylabel[64]; /* the y axis's title with its unit (the x axis's follows from the kind) */
	bool logy;
	double ymin,
	    ymax; /* a y range shared with the charts beside it, or NAN for gnuplot's own */
	size_t
	    key_rows; /* with a shared range: the rows of key below the plot, the most any of
	               * those charts needs, so their plot areas are as tall (0: gnuplot's own) */
	struct chart_series *series;
	size_t n_series;
	json_t *phases; /* summary "phases" (borrowed): spike periods are shaded, warm-up marked */
	json_t *marks;  /* owned: [{"t_s":..,"label":..}] vertical marks (crashes) */
	json_t
	    *bands; /* borrowed: [{"from_s":..,"to_s":..}] harness-saturated stretches, or NULL */
	char *svg;  /* the rendered <svg> element, or NULL if it could not be drawn */
};

/* The charts of one run: anon RSS (and anon beyond cache when reported), per variant the "why"
 * panel (anon RSS stacked into live, allocator-held and outside memory), answered vs offered rate,
 * latency, CPU. */
struct chart *charts_for_run(const struct runfolder *rf, const json_t *summary, size_t *n);

/* The comparison charts: per variant, anon RSS over time, one line per run, then the held memory
 * after each spike's recovery per 1,000 requests in flight, one line per run over the spike number
 * (ids chart-cmp-I and chart-spk-I for the variant at index I; the second only where a run has
 * live bytes). */
struct chart *charts_for_compare(const struct runfolder *rfs, const json_t *const *summaries,
                                 size_t n_runs, const json_t *variant_names, size_t *n);

/* Drawing (chart_gnuplot.c). */

/* Draws every chart with gnuplot. False (with the reason) if gnuplot could not be run; charts then
 * keep svg NULL and the page says why. */
bool charts_render(struct chart *charts, size_t n, char *err, size_t err_size);

/* Opens (creating it if missing) the folder chart files are written into, never through a link:
 * its descriptor, or -1 with the reason in err (a file or a link where the folder should be). */
int charts_files_dir_open(const char *path, char *err, size_t err_size);

/* The same as charts_render, and every drawn chart also as a file of its own in the folder
 * files_fd (from charts_files_dir_open; files_dir names it in messages): ID.svg as gnuplot wrote
 * it and ID.png drawn again by gnuplot's pngcairo terminal in the same run: charts for a merge
 * request. Each file is written atomically and never through a link; one that cannot be (a link
 * or a folder in its place) is named on stderr and *files_ok is set false. */
bool charts_render_files(struct chart *charts, size_t n, int files_fd, const char *files_dir,
                         bool *files_ok, char *err, size_t err_size);

/* The gnuplot script of chart INDEX (drawing into cINDEX.svg, and cINDEX.png if png) appended to
 * b. It holds no text from the run folder, only the program's own words and numbers: titles and
 * labels are in the data files. Exposed for the fuzz target that checks exactly that. */
struct strbuf;
void chart_script(const struct chart *c, int index, bool png, struct strbuf *b);

/* Whether a series, or any series of a chart, has a value to draw. */
bool chart_series_has_data(const struct chart_series *s);
bool chart_has_data(const struct chart *c);

void charts_free(struct chart *charts, size_t n);

#endif
