/* reports/analysis_knee.c - the capacity knee of a calibration ramp (allocspike-report knee). */
#include "analysis.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/* A window counts as kept up with when this share of what was offered in it was answered. */
#define KNEE_ANSWERED_SHARE 0.9
/* The knee is read on one-second windows of the ramp. */
#define KNEE_WINDOW_S 1.0

struct knee_window {
	double offered, answered;
};

static long window_of(double t_s)
{
	/* A row at t closes the interval ending at t: t = 1.0 still belongs to the first window. */
	return (long)floor((t_s - 1e-6) / KNEE_WINDOW_S);
}

static bool kept_up(const struct knee_window *w)
{
	return w->offered > 0 && w->answered >= KNEE_ANSWERED_SHARE * w->offered;
}

static double rounded(double v, double unit)
{
	return round(v / unit) * unit;
}

static double cell(double v)
{
	return isnan(v) ? 0 : v;
}

/* One variant: the highest offered rate of a window kept up with, the one before it kept up with
 * too (a single good second after a backlog drained is not capacity). */
static json_t *knee_of(const struct runfolder *rf, int target)
{
	long first = 0, last = 0;
	bool any = false;
	for (size_t i = 0; i < rf->n_rows; i++) {
		const struct runfolder_row *r = &rf->rows[i];
		if (r->target != target)
			continue;
		long w = window_of(r->t_s);
		if (!any || w < first)
			first = w;
		/* After the schedule the generator keeps writing rows (offered 0) while answers
		 * drain: the ramp ends at the last window that offered anything. */
		if (cell(r->v[TIMELINE_COL_offered]) > 0 && (!any || w > last))
			last = w;
		any = true;
	}
	if (last < first)
		last = first;
	size_t n = (size_t)(last - first + 1);
	struct knee_window *win = calloc(n, sizeof(*win));
	if (!win)
		return NULL;
	for (size_t i = 0; i < rf->n_rows; i++) {
		const struct runfolder_row *r = &rf->rows[i];
		long w = window_of(r->t_s);
		if (r->target != target || w > last)
			continue;
		win[w - first].offered += cell(r->v[TIMELINE_COL_offered]);
		win[w - first].answered += cell(r->v[TIMELINE_COL_answered]);
	}
	double knee = 0, peak = 0;
	for (size_t k = 0; k < n; k++) {
		if (win[k].answered > peak)
			peak = win[k].answered;
		if (kept_up(&win[k]) && (k == 0 || kept_up(&win[k - 1])) && win[k].offered > knee)
			knee = win[k].offered;
	}
	const struct knee_window *top = &win[n - 1];
	double share = top->offered > 0 ? top->answered / top->offered : 0;
	/* A cold cache can keep every window under the share (unbound, quick runs): then the most
	 * answered in a second is the best estimate there is, and the output says so. */
	bool fallback = knee == 0 && peak > 0;
	/* Counts per window are whole numbers of queries: rates print as integers. */
	json_t *o =
	    json_pack("{s:s, s:I, s:I, s:I, s:I, s:f, s:b, s:b}", "variant", rf->targets[target],
	              "capacity_qps", (json_int_t)(fallback ? peak : knee), "knee_qps",
	              (json_int_t)knee, "peak_answered_qps", (json_int_t)peak, "top_offered_qps",
	              (json_int_t)top->offered, "top_answered_share", rounded(share, 0.001),
	              "still_answering_at_top", kept_up(top), "fallback", fallback);
	free(win);
	return o;
}

json_t *analysis_knee(const struct runfolder *rf)
{
	json_t *variants = json_array();
	for (size_t t = 0; t < rf->n_targets; t++)
		if (!runfolder_is_harness(rf->targets[t]))
			json_array_append_new(variants, knee_of(rf, (int)t));
	return json_pack("{s:f, s:f, s:o}", "window_s", KNEE_WINDOW_S, "answered_share",
	                 KNEE_ANSWERED_SHARE, "variants", variants);
}
