/* reports/svg_plot.h - the frame of the scatter charts drawn as inline SVG (the advisor's Pareto
 * chart, the scale page): ranges rounded out to round ticks, grid, tick and axis labels, and the
 * mapping from data to pixels. gnuplot's charts (charts.c) are time series; these are not. */
#ifndef ALLOCSPIKE_REPORTS_SVG_PLOT_H
#define ALLOCSPIKE_REPORTS_SVG_PLOT_H

#include "strbuf.h"

struct svg_plot {
	double x0, x1, y0, y1; /* the data range shown, rounded out to whole ticks */
	double xs, ys;         /* tick steps */
};

/* The frame over [xlo, xhi] x [ylo, yhi], each end rounded out to a tick of about five. */
void svg_plot_fit(struct svg_plot *p, double xlo, double xhi, double ylo, double yhi);
/* Pixel position of a data value. */
double svg_plot_px(const struct svg_plot *p, double x);
double svg_plot_py(const struct svg_plot *p, double y);
/* Opens the chart (a scrolling div and the <svg> with id) with its grid, ticks and axis titles;
 * the caller draws inside, then svg_plot_end. The right margin leaves room for point labels. */
void svg_plot_begin(struct strbuf *b, const struct svg_plot *p, const char *id, const char *xlabel,
                    const char *ylabel);
void svg_plot_end(struct strbuf *b);

#endif
