/* reports/analysis_footprint.c - the request footprint of every row of a footprint run
 * (scenarios/footprint.sh, docs/daemons.md "footprint.sh"): per spike the live bytes and requests
 * in flight before, at the peak and after, bytes per request in flight two ways (rise, drain), a
 * least-squares fit of live bytes on requests in flight over the sampler's polls, the traffic of
 * the spike, and the size mix of what the requests held (the sampler's size classes). Writes
 * RUN/footprint.json and RUN/footprint.md. */
#include "analysis.h"
#include "grow.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "summary_json.h"

/* Before a spike: the 3 s before its start (the quick schedule has a 4 s baseline after its
 * warm-up); its peak: from its start to 3 s after its end (the daemons' in-flight figures come
 * every 2 s through the sidecar, so the two maxima are taken apart); after: the last 5 s of the
 * recovery that follows. */
#define BEFORE_S 3.0
#define TAIL_S 3.0
#define AFTER_S 5.0
/* A poll whose in-flight figure is older than this is left out of the fit. */
#define FRESH_S 0.6
/* The fewest polls a fit is made from. */
#define FIT_MIN_POLLS 10

/* The size groups of the mix: <= 256 B, <= 4 KiB, above (and the open last class). */
enum { GROUP_LE256, GROUP_LE4K, GROUP_GT4K, GROUP_COUNT };
static const char *const group_names[GROUP_COUNT] = {"le256", "le4k", "gt4k"};

/* One sampler poll (sizes/NAME.jsonl): figures NAN where the line has none. */
struct poll {
	double t_s, live_bytes, inflight, inflight_age_s;
	json_t *classes; /* size_classes, a reference held, or NULL */
};

struct polls {
	struct poll *v;
	size_t n;
};

struct window {
	int spike;
	double start, end;
};

static void polls_free(struct polls *p)
{
	for (size_t i = 0; i < p->n; i++)
		json_decref(p->v[i].classes);
	free(p->v);
	*p = (struct polls){0};
}

/* RUN/sizes/NAME.jsonl placed on the timeline's clock (origin: the wall-clock second of t = 0).
 * A missing file is no polls; a line that is not a JSON object is skipped, as the sampler's last
 * line may be cut. */
static bool polls_read(const char *run, const char *name, double origin, struct polls *out)
{
	*out = (struct polls){0};
	char path[4096];
	snprintf(path, sizeof(path), "%s/sizes/%s.jsonl", run, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return true;
	char *line = NULL;
	size_t cap = 0, have = 0;
	bool ok = true;
	while (ok && getline(&line, &cap, f) > 0) {
		json_t *o = json_loads(line, 0, NULL);
		double unix_s = summary_number(o, "unix_s");
		if (json_is_object(o) && isfinite(unix_s)) {
			void *p = grow_room(out->v, &have, out->n, sizeof(*out->v), 64);
			ok = p != NULL;
			if (p)
				out->v = p;
			if (ok) {
				json_t *classes = json_object_get(o, "size_classes");
				out->v[out->n++] = (struct poll){
				    .t_s = unix_s - origin,
				    .live_bytes = summary_number(o, "live_bytes"),
				    .inflight = summary_number(o, "inflight"),
				    .inflight_age_s = summary_number(o, "inflight_age_s"),
				    .classes =
				        json_is_object(classes) ? json_incref(classes) : NULL};
			}
		}
		json_decref(o);
	}
	free(line);
	fclose(f);
	return ok;
}

/* The group of a size class whose upper bound is le (JSON null: the open last class). */
static int group_of(const json_t *le)
{
	if (!json_is_number(le))
		return GROUP_GT4K;
	double top = json_number_value(le);
	return top <= 256 ? GROUP_LE256 : top <= 4096 ? GROUP_LE4K : GROUP_GT4K;
}

/* A size_classes object's KEY array (live_bytes, allocs) summed per group. */
static void group_sum(const json_t *classes, const char *key, double out[GROUP_COUNT])
{
	memset(out, 0, GROUP_COUNT * sizeof(*out));
	const json_t *le = json_object_get(classes, "le"), *v = json_object_get(classes, key);
	for (size_t i = 0; i < json_array_size(le) && i < json_array_size(v); i++)
		out[group_of(json_array_get(le, i))] += summary_value_number(json_array_get(v, i));
}

static double round_to(double v, double step)
{
	return nearbyint(v / step) * step;
}

/* {le256, le4k, gt4k} as shares of their total to 0.001 (null each when the total is 0). */
static json_t *shares_json(const double g[GROUP_COUNT])
{
	double total = 0;
	for (int i = 0; i < GROUP_COUNT; i++)
		total += g[i];
	json_t *o = json_object();
	for (int i = 0; i < GROUP_COUNT; i++)
		json_object_set_new(o, group_names[i],
		                    total > 0 ? json_real(round_to(g[i] / total, 0.001))
		                              : json_null());
	return o;
}

static json_t *groups_json(const double g[GROUP_COUNT])
{
	json_t *o = json_object();
	for (int i = 0; i < GROUP_COUNT; i++)
		json_object_set_new(o, group_names[i], json_real(g[i]));
	return o;
}

/* num / den to the nearest whole number; null when either is missing or den is not above 0. */
static json_t *ratio_json(double num, double den)
{
	return isfinite(num) && isfinite(den) && den > 0
	           ? json_integer((json_int_t)nearbyint(num / den))
	           : json_null();
}

/* The spikes of ROWS (one variant's, in file order) from their phases, by spike number. */
static size_t spike_windows(const struct runfolder *rf, int target, struct window **out)
{
	struct window *w = NULL;
	size_t n = 0;
	for (size_t i = 0; i < rf->n_rows; i++) {
		const struct runfolder_row *r = &rf->rows[i];
		if (r->target != target || strcmp(r->phase, "spike") != 0)
			continue;
		size_t k = 0;
		while (k < n && w[k].spike != r->spike)
			k++;
		if (k == n) {
			void *p = realloc(w, (n + 1) * sizeof(*w));
			if (!p)
				break;
			w = p;
			w[n++] = (struct window){.spike = r->spike, .start = r->t_s, .end = r->t_s};
		}
		w[k].start = fmin(w[k].start, r->t_s);
		w[k].end = fmax(w[k].end, r->t_s);
	}
	/* by spike number (a handful: insertion) */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && w[j - 1].spike > w[j].spike; j--) {
			struct window t = w[j];
			w[j] = w[j - 1];
			w[j - 1] = t;
		}
	*out = w;
	return n;
}

/* Mean (with its count) and maximum of one column over a variant's rows with lo <= t_s <= hi (and
 * t_s > above): NAN where no row has the figure. */
struct column_stats {
	double mean, max, sum;
	int count;
};

static struct column_stats column_over(const struct runfolder *rf, int target,
                                       enum timeline_column col, double lo, double hi, bool hi_open,
                                       double above)
{
	struct column_stats s = {.max = NAN};
	for (size_t i = 0; i < rf->n_rows; i++) {
		const struct runfolder_row *r = &rf->rows[i];
		if (r->target != target || r->t_s < lo || r->t_s > hi ||
		    (hi_open && r->t_s >= hi) || r->t_s <= above || !isfinite(r->v[col]))
			continue;
		s.sum += r->v[col];
		s.count++;
		s.max = isfinite(s.max) ? fmax(s.max, r->v[col]) : r->v[col];
	}
	s.mean = s.count ? s.sum / s.count : NAN;
	return s;
}

static int rows_between(const struct runfolder *rf, int target, double lo, double hi)
{
	int n = 0;
	for (size_t i = 0; i < rf->n_rows; i++)
		n += rf->rows[i].target == target && rf->rows[i].t_s >= lo && rf->rows[i].t_s <= hi;
	return n;
}

static bool in_a_spike(const struct window *w, size_t nw, double t)
{
	for (size_t k = 0; k < nw; k++)
		if (w[k].start - 0.5 <= t && t <= w[k].end + TAIL_S)
			return true;
	return false;
}

/* The quietest poll with a size mix outside the spikes and their tails, from the baseline on: by
 * the end of each recovery the requests a spike left have drained. NULL without one. */
static const struct poll *idle_poll(const struct polls *p, const struct window *w, size_t nw)
{
	if (!nw)
		return NULL;
	double first = w[0].start;
	for (size_t k = 1; k < nw; k++)
		first = fmin(first, w[k].start);
	const struct poll *idle = NULL;
	for (size_t i = 0; i < p->n; i++) {
		const struct poll *q = &p->v[i];
		if (q->t_s >= first - 4 && q->classes && isfinite(q->live_bytes) &&
		    !in_a_spike(w, nw, q->t_s) && (!idle || q->live_bytes < idle->live_bytes))
			idle = q;
	}
	return idle;
}

/* The size-class figures of one spike: the mix at its highest poll and what grew since idle. */
static void spike_size_mix(json_t *s, const struct polls *p, const struct window *w,
                           const struct poll *idle)
{
	const struct poll *top = NULL;
	for (size_t i = 0; i < p->n; i++) {
		const struct poll *q = &p->v[i];
		double live = isfinite(q->live_bytes) ? q->live_bytes : 0;
		if (q->classes && w->start <= q->t_s && q->t_s <= w->end + TAIL_S &&
		    (!top || live > (isfinite(top->live_bytes) ? top->live_bytes : 0)))
			top = q;
	}
	if (!top)
		return;
	double gp[GROUP_COUNT], gi[GROUP_COUNT], inc[GROUP_COUNT], ap[GROUP_COUNT], ai[GROUP_COUNT];
	group_sum(top->classes, "live_bytes", gp);
	json_object_set_new(s, "size_mix_peak", shares_json(gp));
	json_object_set_new(s, "poll_peak_live_bytes", summary_json_real(top->live_bytes));
	if (!idle)
		return;
	group_sum(idle->classes, "live_bytes", gi);
	group_sum(top->classes, "allocs", ap);
	group_sum(idle->classes, "allocs", ai);
	for (int g = 0; g < GROUP_COUNT; g++) {
		inc[g] = fmax(0, gp[g] - gi[g]);
		ap[g] -= ai[g];
	}
	json_object_set_new(s, "size_mix_increase", shares_json(inc));
	json_object_set_new(s, "increase_bytes", groups_json(inc));
	json_object_set_new(s, "allocs_during", groups_json(ap));
	json_t *by_class = json_array();
	const json_t *le = json_object_get(top->classes, "le");
	const json_t *tb = json_object_get(top->classes, "live_bytes");
	const json_t *tk = json_object_get(top->classes, "live_blocks");
	const json_t *ib = json_object_get(idle->classes, "live_bytes");
	const json_t *ik = json_object_get(idle->classes, "live_blocks");
	for (size_t i = 0; i < json_array_size(le); i++) {
		double bytes = summary_value_number(json_array_get(tb, i)) -
		               summary_value_number(json_array_get(ib, i));
		if (bytes == 0 || isnan(bytes))
			continue;
		json_array_append_new(
		    by_class, json_pack("{s:O,s:f,s:f}", "le", json_array_get(le, i), "blocks",
		                        summary_value_number(json_array_get(tk, i)) -
		                            summary_value_number(json_array_get(ik, i)),
		                        "bytes", bytes));
	}
	json_object_set_new(s, "increase_by_class", by_class);
}

static json_t *spike_json(const struct runfolder *rf, int target, const struct window *w,
                          const struct window *all, size_t nw, const struct polls *p,
                          const struct poll *idle)
{
	double start = w->start, end = w->end;
	double rec_end = -INFINITY;
	for (size_t k = 0; k < nw; k++)
		if (all[k].start > end)
			rec_end = isfinite(rec_end) ? fmin(rec_end, all[k].start - 0.5)
			                            : all[k].start - 0.5;
	if (!isfinite(rec_end))
		for (size_t i = 0; i < rf->n_rows; i++)
			if (rf->rows[i].target == target)
				rec_end = fmax(rec_end, rf->rows[i].t_s);
	struct column_stats b_live = column_over(rf, target, TIMELINE_COL_live_bytes,
	                                         start - BEFORE_S, start - 0.1, true, -INFINITY);
	struct column_stats b_inf = column_over(rf, target, TIMELINE_COL_inflight, start - BEFORE_S,
	                                        start - 0.1, true, -INFINITY);
	struct column_stats p_live = column_over(rf, target, TIMELINE_COL_live_bytes, start - 0.1,
	                                         end + TAIL_S, false, -INFINITY);
	struct column_stats p_inf = column_over(rf, target, TIMELINE_COL_inflight, start - 0.1,
	                                        end + TAIL_S, false, -INFINITY);
	struct column_stats a_live = column_over(rf, target, TIMELINE_COL_live_bytes,
	                                         rec_end - AFTER_S, rec_end, false, end + TAIL_S);
	struct column_stats a_inf = column_over(rf, target, TIMELINE_COL_inflight,
	                                        rec_end - AFTER_S, rec_end, false, end + TAIL_S);
	json_t *s = json_object();
	json_object_set_new(s, "spike", json_integer(w->spike));
	json_object_set_new(s, "start_s", json_real(start));
	json_object_set_new(s, "end_s", json_real(end));
	json_object_set_new(s, "samples_before", json_integer(b_live.count));
	json_object_set_new(s, "samples_during",
	                    json_integer(rows_between(rf, target, start - 0.1, end + TAIL_S)));
	json_object_set_new(s, "samples_after", json_integer(a_live.count));
	json_object_set_new(s, "live_before", summary_json_real(b_live.mean));
	json_object_set_new(s, "live_peak", summary_json_real(p_live.max));
	json_object_set_new(s, "live_after", summary_json_real(a_live.mean));
	json_object_set_new(s, "inflight_before", summary_json_real(b_inf.mean));
	json_object_set_new(s, "inflight_peak", summary_json_real(p_inf.max));
	json_object_set_new(s, "inflight_after", summary_json_real(a_inf.mean));
	/* rise counts what the spike added to the cache too; drain only what left with the requests
	 */
	json_object_set_new(s, "bytes_per_req_rise",
	                    ratio_json(p_live.max - b_live.mean, p_inf.max - b_inf.mean));
	json_object_set_new(s, "bytes_per_req_drain",
	                    ratio_json(p_live.max - a_live.mean, p_inf.max - a_inf.mean));
	static const enum timeline_column sums[] = {TIMELINE_COL_offered,  TIMELINE_COL_sent,
	                                            TIMELINE_COL_answered, TIMELINE_COL_timeouts,
	                                            TIMELINE_COL_servfail, TIMELINE_COL_noerror,
	                                            TIMELINE_COL_nxdomain};
	for (size_t i = 0; i < sizeof(sums) / sizeof(*sums); i++)
		json_object_set_new(s, runfolder_column_name(sums[i]),
		                    json_real(column_over(rf, target, sums[i], start - 0.1,
		                                          end + TAIL_S, false, -INFINITY)
		                                  .sum));
	spike_size_mix(s, p, w, idle);
	return s;
}

/* The least-squares slope of live bytes on requests in flight over the polls from the baseline on
 * with a fresh in-flight figure: bytes per request in flight from every poll, not only the peaks.
 */
static json_t *fit_json(const struct polls *p, const struct window *w, size_t nw)
{
	double first = 0;
	for (size_t k = 0; k < nw; k++)
		first = k ? fmin(first, w[k].start) : w[k].start;
	double *x = malloc((p->n ? p->n : 1) * sizeof(*x)),
	       *y = malloc((p->n ? p->n : 1) * sizeof(*y));
	size_t n = 0;
	double x_max = 0;
	for (size_t i = 0; x && y && i < p->n; i++) {
		const struct poll *q = &p->v[i];
		if (q->t_s >= first - 4 && isfinite(q->inflight) && isfinite(q->live_bytes) &&
		    isfinite(q->inflight_age_s) && q->inflight_age_s >= 0 &&
		    q->inflight_age_s <= FRESH_S) {
			x_max = n ? fmax(x_max, q->inflight) : q->inflight;
			x[n] = q->inflight;
			y[n++] = q->live_bytes;
		}
	}
	/* NAN slope: no two distinct in-flight figures; NAN r2: live bytes did not vary */
	struct line_fit line =
	    n >= FIT_MIN_POLLS ? fit_line(x, y, n) : (struct line_fit){.slope = NAN};
	bool fitted = isfinite(line.slope) && isfinite(line.r2);
	free(x);
	free(y);
	json_t *o = json_pack("{s:I}", "polls", (json_int_t)n);
	json_object_set_new(o, "bytes_per_req",
	                    fitted ? json_integer((json_int_t)nearbyint(line.slope)) : json_null());
	json_object_set_new(o, "r2", fitted ? json_real(round_to(line.r2, 0.001)) : json_null());
	if (fitted)
		json_object_set_new(o, "inflight_max", json_real(x_max));
	return o;
}

static json_t *variant_json(const struct runfolder *rf, int target, const struct polls *p)
{
	struct window *w = NULL;
	size_t nw = spike_windows(rf, target, &w);
	const struct poll *idle = idle_poll(p, w, nw);
	json_t *spikes = json_array();
	for (size_t k = 0; k < nw; k++)
		json_array_append_new(spikes, spike_json(rf, target, &w[k], w, nw, p, idle));
	json_t *o = json_object();
	json_object_set_new(o, "spikes", spikes);
	json_object_set_new(o, "fit", fit_json(p, w, nw));
	if (idle) {
		double gi[GROUP_COUNT];
		group_sum(idle->classes, "live_bytes", gi);
		json_object_set_new(o, "size_mix_idle", shares_json(gi));
		json_object_set_new(o, "live_idle_poll", json_real(idle->live_bytes));
	}
	free(w);
	return o;
}

/* ---- footprint.md ---- */

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* "median (min-max, n)" of one per-spike figure, whole numbers; n/a without any. */
static void per_spike_range(FILE *out, const json_t *spikes, const char *key, bool with_count)
{
	size_t n = 0;
	double *v = malloc((json_array_size(spikes) + 1) * sizeof(*v));
	for (size_t i = 0; v && i < json_array_size(spikes); i++) {
		double x = summary_number(json_array_get(spikes, i), key);
		if (isfinite(x))
			v[n++] = x;
	}
	if (!n) {
		fputs(with_count ? "n/a (n/a, 0)" : "n/a (n/a)", out);
		free(v);
		return;
	}
	qsort(v, n, sizeof(*v), compare_doubles);
	double median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	fprintf(out, "%.0f (%.0f-%.0f", nearbyint(median), v[0], v[n - 1]);
	if (with_count)
		fprintf(out, ", %zu", n);
	fputc(')', out);
	free(v);
}

/* A share object as "a / b / c" percentages ("-" for a null one), or n/a. */
static void mix_text(FILE *out, const json_t *mix)
{
	if (!json_is_object(mix)) {
		fputs("n/a", out);
		return;
	}
	for (int g = 0; g < GROUP_COUNT; g++) {
		double v = summary_number(mix, group_names[g]);
		if (g)
			fputs(" / ", out);
		if (isfinite(v))
			fprintf(out, "%.0f", nearbyint(100 * v));
		else
			fputc('-', out);
	}
}

/* A share to three decimals as written in the JSON (1.0, 0.987). */
static void share_text(FILE *out, double v)
{
	if (!isfinite(v)) {
		fputs("n/a", out);
		return;
	}
	char text[32];
	snprintf(text, sizeof(text), "%.3f", v);
	size_t len = strlen(text);
	while (len > 0 && text[len - 1] == '0' && text[len - 2] != '.')
		text[--len] = '\0';
	fputs(text, out);
}

static double spikes_sum(const json_t *spikes, const char *key)
{
	double sum = 0;
	for (size_t i = 0; i < json_array_size(spikes); i++) {
		double v = summary_number(json_array_get(spikes, i), key);
		sum += isfinite(v) ? v : 0;
	}
	return sum;
}

static void markdown_row(FILE *out, const char *name, const json_t *v)
{
	const json_t *spikes = json_object_get(v, "spikes"), *fit = json_object_get(v, "fit");
	double peak = 0, inc[GROUP_COUNT] = {0}, inc_total = 0;
	for (size_t i = 0; i < json_array_size(spikes); i++) {
		const json_t *s = json_array_get(spikes, i);
		double p = summary_number(s, "inflight_peak");
		peak = isfinite(p) ? fmax(peak, p) : peak;
		for (int g = 0; g < GROUP_COUNT; g++) {
			double b =
			    summary_number(json_object_get(s, "increase_bytes"), group_names[g]);
			inc[g] += isfinite(b) ? b : 0;
			inc_total += isfinite(b) ? b : 0;
		}
	}
	fprintf(out, "| %s | ", name);
	per_spike_range(out, spikes, "bytes_per_req_rise", true);
	fputs(" | ", out);
	per_spike_range(out, spikes, "bytes_per_req_drain", false);
	double slope = summary_number(fit, "bytes_per_req");
	if (isfinite(slope))
		fprintf(out, " | %.0f (%.0f, ", slope, summary_number(fit, "polls"));
	else
		fprintf(out, " | n/a (%.0f, ", summary_number(fit, "polls"));
	share_text(out, summary_number(fit, "r2"));
	fprintf(out, ") | %.0f | ", peak);
	if (inc_total > 0) {
		json_t *mix = shares_json(inc);
		mix_text(out, mix);
		json_decref(mix);
	} else {
		fputs("n/a", out);
	}
	fputs(" | ", out);
	mix_text(out, json_object_get(v, "size_mix_idle"));
	fprintf(out, " | %.0f / %.0f | %.0f | %.0f |\n", spikes_sum(spikes, "answered"),
	        spikes_sum(spikes, "offered"), spikes_sum(spikes, "timeouts"),
	        spikes_sum(spikes, "servfail"));
}

static bool markdown_write(const char *path, const json_t *result)
{
	FILE *out = fopen(path, "w");
	if (!out)
		return false;
	fputs(
	    "| row | bytes/req in flight, rise (median, min-max, spikes) | drain (median, min-max) "
	    "| fit (polls, r2) | peak in flight (max) | size mix of increase, % <=256 B / <=4 KiB "
	    "/ >4 KiB | mix at idle | answered / offered in spikes | timeouts | SERVFAIL |\n"
	    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
	    out);
	const char *name;
	const json_t *v;
	json_object_foreach((json_t *)result, name, v)
	{
		markdown_row(out, name, v);
	}
	bool ok = !ferror(out);
	return fclose(out) == 0 && ok;
}

json_t *analysis_footprint(const struct runfolder *rf, const char *run, double origin,
                           bool has_origin)
{
	json_t *result = json_object();
	for (size_t t = 0; result && t < rf->n_targets; t++) {
		if (runfolder_is_harness(rf->targets[t]))
			continue;
		struct polls p = {0};
		if (has_origin && !polls_read(run, rf->targets[t], origin, &p)) {
			polls_free(&p);
			json_decref(result);
			return NULL;
		}
		json_object_set_new(result, rf->targets[t], variant_json(rf, (int)t, &p));
		polls_free(&p);
	}
	return result;
}

bool analysis_footprint_write(const char *run, const json_t *result, char *err, size_t err_size)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/footprint.json", run);
	if (json_dump_file(result, path,
	                   JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)) != 0) {
		snprintf(err, err_size, "cannot write %s", path);
		return false;
	}
	snprintf(path, sizeof(path), "%s/footprint.md", run);
	if (!markdown_write(path, result)) {
		snprintf(err, err_size, "cannot write %s", path);
		return false;
	}
	return true;
}
