/* reports/svg_plot.c - the frame of the inline-SVG scatter charts. */
#include "svg_plot.h"

#include <math.h>

#include "fixed_point.h"

enum { W = 720, H = 380, ML = 64, MR = 150, MT = 16, MB = 48 };

/* A tick's label: %g's six significant digits without its exponent form ("2000000", not
 * "2e+06"), so a tick summed up to a hair off zero reads "0". */
static const char *tick_label(char *buf, size_t size, double t)
{
	return fixed_point(buf, size, t, 6);
}

/* A round step for about five ticks over [lo, hi]. */
static double tick_step(double lo, double hi)
{
	double span = hi - lo > 0 ? hi - lo : 1, raw = span / 5, mag = pow(10, floor(log10(raw)));
	double f = raw / mag;
	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

void svg_plot_fit(struct svg_plot *p, double xlo, double xhi, double ylo, double yhi)
{
	p->xs = tick_step(xlo, xhi);
	p->ys = tick_step(ylo, yhi);
	p->x0 = floor(xlo / p->xs) * p->xs, p->x1 = ceil(xhi / p->xs) * p->xs;
	p->y0 = floor(ylo / p->ys) * p->ys, p->y1 = ceil(yhi / p->ys) * p->ys;
	if (p->x1 <= p->x0)
		p->x1 = p->x0 + p->xs;
	if (p->y1 <= p->y0)
		p->y1 = p->y0 + p->ys;
}

double svg_plot_px(const struct svg_plot *p, double x)
{
	return ML + (x - p->x0) / (p->x1 - p->x0) * (W - ML - MR);
}

double svg_plot_py(const struct svg_plot *p, double y)
{
	return H - MB - (y - p->y0) / (p->y1 - p->y0) * (H - MT - MB);
}

void svg_plot_begin(struct strbuf *b, const struct svg_plot *p, const char *id, const char *xlabel,
                    const char *ylabel)
{
	strbuf_append(b, "<div class=\"scroll\"><svg class=\"chart\" id=\"");
	strbuf_append_html(b, id);
	strbuf_printf(b,
	              "\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" role=\"img\" "
	              "font-family=\"sans-serif\" font-size=\"11\">\n",
	              W, H);
	char label[64];
	for (double t = p->x0; t <= p->x1 + p->xs / 2; t += p->xs)
		strbuf_printf(
		    b,
		    "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e2e2e2\"/>"
		    "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
		    svg_plot_px(p, t), MT, svg_plot_px(p, t), H - MB, svg_plot_px(p, t),
		    H - MB + 14, tick_label(label, sizeof(label), t));
	for (double t = p->y0; t <= p->y1 + p->ys / 2; t += p->ys)
		strbuf_printf(
		    b,
		    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e2e2e2\"/>"
		    "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
		    ML, svg_plot_py(p, t), W - MR, svg_plot_py(p, t), ML - 6, svg_plot_py(p, t) + 4,
		    tick_label(label, sizeof(label), t));
	strbuf_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", (ML + W - MR) / 2,
	              H - 10);
	strbuf_append_html(b, xlabel);
	strbuf_printf(b,
	              "</text>\n<text transform=\"translate(14 %d) rotate(-90)\" "
	              "text-anchor=\"middle\">",
	              (MT + H - MB) / 2);
	strbuf_append_html(b, ylabel);
	strbuf_append(b, "</text>\n");
}

void svg_plot_end(struct strbuf *b)
{
	strbuf_append(b, "</svg></div>\n");
}
