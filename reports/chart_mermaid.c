/* reports/chart_mermaid.c - a chart as a Mermaid xychart-beta block. */
#include "chart_mermaid.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Text as a Mermaid string: quoted, and of the characters an identifier or a chart title holds,
 * only those no Mermaid reading can take for syntax (a quote would end the string, '%' start a
 * directive, '#' an entity, ';' or a line break a statement); any other becomes '_'. */
static void append_mermaid_string(struct strbuf *b, const char *s)
{
	strbuf_append(b, "\"");
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		bool plain = isalnum(c) || (c && strchr(" ._-()/,'", c));
		strbuf_append_n(b, plain ? (const char *)s : "_", 1);
	}
	strbuf_append(b, "\"");
}

/* A number as Mermaid reads it: plain decimal, one decimal place. */
static void append_number(struct strbuf *b, double v)
{
	strbuf_printf(b, "%.1f", fabs(v) < 0.05 ? 0.0 : v);
}

/* The axis from lo to hi, widened to include 0 and rounded out to whole units. */
static void append_y_axis(struct strbuf *b, const char *title, double lo, double hi)
{
	strbuf_append(b, "    y-axis ");
	append_mermaid_string(b, title);
	strbuf_printf(b, " %.0f --> %.0f\n", floor(fmin(lo, 0)), ceil(fmax(hi, 0) * 1.05 + 0.5));
}

static void block_begin(struct strbuf *b, const struct chart *c, const char *palette)
{
	/* the init directive sets the lines' colours; its text is the program's own */
	strbuf_printf(b,
	              "```mermaid\n%%%%{init: {\"themeVariables\": {\"xyChart\": "
	              "{\"plotColorPalette\": \"%s\"}}}}%%%%\nxychart-beta\n    title ",
	              palette);
	append_mermaid_string(b, c->title);
	strbuf_append(b, "\n");
}

static bool append_bars(const struct chart *c, struct strbuf *b)
{
	double lo = 0, hi = 0;
	size_t n = 0;
	for (size_t s = 0; s < c->n_series; s++)
		if (c->series[s].n > 0 && !isnan(c->series[s].v[0])) {
			lo = fmin(lo, c->series[s].v[0]);
			hi = fmax(hi, c->series[s].v[0]);
			n++;
		}
	if (n == 0)
		return false;
	block_begin(b, c, "#555555");
	strbuf_append(b, "    x-axis ");
	append_mermaid_string(b, "variant");
	strbuf_append(b, " [");
	bool first = true;
	for (size_t s = 0; s < c->n_series; s++)
		if (c->series[s].n > 0 && !isnan(c->series[s].v[0])) {
			strbuf_append(b, first ? "" : ", ");
			append_mermaid_string(b, c->series[s].title);
			first = false;
		}
	strbuf_append(b, "]\n");
	append_y_axis(b, c->ylabel, lo, hi);
	strbuf_append(b, "    bar [");
	first = true;
	for (size_t s = 0; s < c->n_series; s++)
		if (c->series[s].n > 0 && !isnan(c->series[s].v[0])) {
			strbuf_append(b, first ? "" : ", ");
			append_number(b, c->series[s].v[0]);
			first = false;
		}
	strbuf_append(b, "]\n```\n");
	return true;
}

/* Series s resampled to CHART_MERMAID_POINTS values over [t0, t1]: each point the highest value in
 * its stretch (no peak is lost), a stretch without one the value before it (the first value for
 * those before any). */
static void resample(const struct chart_series *s, double t0, double t1, double *out)
{
	double width = (t1 - t0) / CHART_MERMAID_POINTS;
	for (size_t k = 0; k < CHART_MERMAID_POINTS; k++)
		out[k] = NAN;
	for (size_t i = 0; i < s->n; i++) {
		if (isnan(s->v[i]))
			continue;
		size_t k = width > 0 ? (size_t)fmax(0, floor((s->t[i] - t0) / width)) : 0;
		if (k >= CHART_MERMAID_POINTS)
			k = CHART_MERMAID_POINTS - 1;
		out[k] = isnan(out[k]) ? s->v[i] : fmax(out[k], s->v[i]);
	}
	double carry = NAN;
	for (size_t k = 0; k < CHART_MERMAID_POINTS && isnan(carry); k++)
		carry = out[k];
	for (size_t k = 0; k < CHART_MERMAID_POINTS; k++)
		out[k] = isnan(out[k]) ? carry : (carry = out[k]);
}

static bool append_lines(const struct chart *c, struct strbuf *b)
{
	double t0 = NAN, t1 = NAN, lo = 0, hi = 0;
	struct strbuf palette = {0};
	for (size_t s = 0; s < c->n_series; s++) {
		const struct chart_series *cs = &c->series[s];
		if (!chart_series_has_data(cs))
			continue;
		strbuf_printf(&palette, "%s%s", palette.len ? ", " : "", cs->color);
		for (size_t i = 0; i < cs->n; i++) {
			if (isnan(cs->v[i]))
				continue;
			t0 = isnan(t0) ? cs->t[i] : fmin(t0, cs->t[i]);
			t1 = isnan(t1) ? cs->t[i] : fmax(t1, cs->t[i]);
			lo = fmin(lo, cs->v[i]);
			hi = fmax(hi, cs->v[i]);
		}
	}
	if (!palette.len) {
		strbuf_free(&palette);
		return false;
	}
	block_begin(b, c, palette.s);
	strbuf_free(&palette);
	strbuf_append(b, "    x-axis ");
	append_mermaid_string(b, CHART_TIME_XLABEL);
	strbuf_printf(b, " %.0f --> %.0f\n", floor(t0), ceil(t1));
	append_y_axis(b, c->ylabel, lo, hi);
	double v[CHART_MERMAID_POINTS];
	for (size_t s = 0; s < c->n_series; s++) {
		if (!chart_series_has_data(&c->series[s]))
			continue;
		resample(&c->series[s], t0, t1, v);
		strbuf_append(b, "    line [");
		for (size_t k = 0; k < CHART_MERMAID_POINTS; k++) {
			strbuf_append(b, k ? ", " : "");
			append_number(b, v[k]);
		}
		strbuf_append(b, "]\n");
	}
	strbuf_append(b, "```\n\nLines:");
	bool first = true;
	for (size_t s = 0; s < c->n_series; s++) {
		if (!chart_series_has_data(&c->series[s]))
			continue;
		strbuf_printf(b, "%s `", first ? "" : ";");
		/* the legend is Markdown code: the same reduced name (no backtick), unquoted */
		struct strbuf name = {0};
		append_mermaid_string(&name, c->series[s].title);
		strbuf_append_n(b, name.s + 1, name.len - 2);
		strbuf_free(&name);
		strbuf_printf(b, "` `%s`", c->series[s].color);
		first = false;
	}
	strbuf_append(b, ".\n");
	return true;
}

bool chart_mermaid(const struct chart *c, struct strbuf *b)
{
	if (c->kind == CHART_BARS)
		return append_bars(c, b);
	if (c->kind == CHART_TIME)
		return append_lines(c, b);
	return false;
}
