/* reports/validity.c - the validity box: why the run may not show what it claims
 * (reports/README.md "validity"). */
#include "validity.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_reads.h"
#include "judgement.h"
#include "harness_saturation.h"
#include "run_mode.h"
#include "strbuf.h"
#include "summary_json.h"

static void reason(json_t *reasons, const char *code, json_t *variants, const char *knob,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void reason(json_t *reasons, const char *code, json_t *variants, const char *knob,
                   const char *fmt, ...)
{
	char text[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	json_t *r = json_object();
	json_object_set_new(r, "code", json_string(code));
	json_object_set_new(r, "text", json_string(text));
	json_object_set_new(r, "knob", json_string(knob));
	json_object_set_new(r, "variants", variants ? variants : json_array());
	json_array_append_new(reasons, r);
}

/* "a, b and c" of a JSON array of names, into b. */
static void join(struct strbuf *b, const json_t *names)
{
	size_t i, n = json_array_size(names);
	json_t *x;
	json_array_foreach(names, i, x)
	{
		strbuf_append(b, i == 0 ? "" : i + 1 == n ? " and " : ", ");
		strbuf_append(b, json_string_value(x));
	}
}

static bool has_name(const json_t *names, const char *name)
{
	size_t i;
	json_t *x;
	json_array_foreach(names, i, x) if (strcmp(json_string_value(x), name) == 0) return true;
	return false;
}

static void check_warmup(const struct runfolder *rf, json_t *reasons)
{
	json_t *names = json_array();
	for (size_t i = 0; i < rf->n_events; i++)
		if (strcmp(rf->events[i].event, "warmup_not_steady") == 0 &&
		    !has_name(names, rf->events[i].variant))
			json_array_append_new(names, json_string(rf->events[i].variant));
	const char *v;
	json_t *w;
	json_object_foreach(json_object_get(rf->run, "warmup"), v, w)
	{
		if (json_is_false(json_object_get(w, "steady")) && !has_name(names, v))
			json_array_append_new(names, json_string(v));
	}
	if (!json_array_size(names)) {
		json_decref(names);
		return;
	}
	struct strbuf b = {0};
	join(&b, names);
	reason(reasons, "warmup_not_steady", names,
	       "raise --warmup-len or --warmup-rate, or lower --cache-size",
	       "The warm-up did not bring the cache to a steady state for %s: memory growth in the "
	       "spikes includes a cache still filling.",
	       b.s);
	strbuf_free(&b);
}

double validity_saturated_s(const json_t *harness)
{
	double s = summary_number(harness, "saturated_s");
	size_t events = json_array_size(json_object_get(harness, "saturated_events"));
	/* Each event was measured over at least one window, the timeline's windows too. */
	return fmax(s > 0 ? s : 0, (double)events * HARNESS_WINDOW_S);
}

static void check_harness(const json_t *summary, json_t *reasons)
{
	const json_t *h = json_object_get(summary, "harness");
	double s = validity_saturated_s(h);
	size_t events = json_array_size(json_object_get(h, "saturated_events"));
	if (!(s > 0))
		return;
	json_t *names = json_array();
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(h, "saturated_periods"), i, p)
	{
		const char *t = json_string_value(json_object_get(p, "target"));
		if (t && !has_name(names, t))
			json_array_append_new(names, json_string(t));
	}
	reason(reasons, "harness_saturated", names,
	       "lower --spike-rate or --baseline-rate, or give the harness its own cores "
	       "(--cpu-placement HARNESS/RESOLVERS)",
	       "The harness (load generator or simulated hierarchy) used more than %.1f core for "
	       "%.1f s (%zu saturation events): the traffic may have been limited by the harness, "
	       "not the resolvers.",
	       summary_number(h, "threshold_cores"), s, events);
}

/* The variant's answered share of the queries sent in spikes (the one definition: per query when
 * the run has phases.csv, else the interval counts; reports/traffic.c). */
static double spike_answered_share(const struct model_variant *mv)
{
	const struct model_send_traffic *spike = model_send_phase(mv, MODEL_TRAFFIC_SPIKE);
	return spike ? spike->answered_share : NAN;
}

static void check_capacity(const struct runfolder *rf, const json_t *summary,
                           const struct model *model, json_t *reasons)
{
	const json_t *cal = json_object_get(rf->run, "calibration");
	double rate = summary_number(cal, "spike_rate_qps");
	json_t *names = json_array();
	struct strbuf b = {0};
	size_t i;
	json_t *name;
	json_array_foreach(json_object_get(summary, "variant_order"), i, name)
	{
		const char *n = json_string_value(name);
		double cap =
		    summary_value_number(json_object_get(json_object_get(cal, "capacity_qps"), n));
		double share = spike_answered_share(model_variant_named(model, n));
		if (rate > 0 && cap > 0 && rate > VALIDITY_MAX_CAPACITY_MULTIPLE * cap) {
			strbuf_printf(&b,
			              "%s%s: spikes at %.1fx its calibrated capacity (%.0f qps)",
			              b.len ? "; " : "", n, rate / cap, cap);
			json_array_append(names, name);
		} else if (share < VALIDITY_MIN_SPIKE_ANSWERED_SHARE) {
			strbuf_printf(&b, "%s%s answered %.0f %% of the queries sent in spikes",
			              b.len ? "; " : "", n, 100 * share);
			json_array_append(names, name);
		}
	}
	if (json_array_size(names))
		reason(
		    reasons, "spikes_over_capacity", names,
		    "lower --spike-rate or --spike-multiple (auto: a multiple of the calibrated "
		    "capacity)",
		    "Spikes far over capacity (%s): the run measures a resolver drowning, queues "
		    "and timeouts, rather than the memory a spike it can answer leaves behind.",
		    b.s);
	else
		json_decref(names);
	strbuf_free(&b);
}

/* Whether the variant answered under VALIDITY_MIN_EACH_SPIKE_ANSWERED_SHARE of the queries sent
 * in the spike. */
static bool spike_below_line(const struct model_spike *sp)
{
	return sp->answered_share < VALIDITY_MIN_EACH_SPIKE_ANSWERED_SHARE;
}

/* Whether the variant was over its own capacity in the spike: below the line while another
 * variant beside it was not. */
static bool spike_under_answered(const struct model_spike *sp)
{
	return spike_below_line(sp) && !sp->lost_by_all;
}

static bool spike_lost_by_all(const struct model_spike *sp)
{
	return sp->lost_by_all;
}

/* The variant's spikes that hold, as a reason's "spikes" list them: [{"spike", "answered_share"}].
 */
static json_t *spikes_where(const struct model_variant *mv,
                            bool (*holds)(const struct model_spike *))
{
	json_t *out = json_array();
	for (size_t k = 0; mv && k < mv->n_spikes; k++) {
		const struct model_spike *sp = &mv->spikes[k];
		if (holds(sp))
			json_array_append_new(
			    out, json_pack("{s:i,s:o}", "spike", sp->number, "answered_share",
			                   summary_json_number(sp->answered_share)));
	}
	return out;
}

/* Marks (lost_by_all) each spike that two or more variants ran side by side and every one of them
 * answered under the line in: on one machine they share its cores, so when all fall behind at
 * once the machine did (the harness, another process, the host), not one allocator. */
static void mark_lost_by_all(const struct runfolder *rf, struct model *model)
{
	if (!run_mode_side_by_side(rf))
		return;
	for (size_t i = 0; i < model->n_variants; i++)
		for (size_t k = 0; k < model->variants[i].n_spikes; k++) {
			int number = model->variants[i].spikes[k].number;
			size_t ran = 0, below = 0;
			for (size_t j = 0; j < model->n_variants; j++) {
				long kj = model_spike_index(&model->variants[j], number);
				const struct model_spike *sp =
				    kj >= 0 ? &model->variants[j].spikes[kj] : NULL;
				if (!sp || isnan(sp->answered_share))
					continue;
				ran++;
				below += spike_below_line(sp);
			}
			model->variants[i].spikes[k].lost_by_all = ran >= 2 && below == ran;
		}
}

/* More spikes than a sentence lists (the reason's "spikes" has them all). */
#define VALIDITY_MAX_LISTED_SPIKES 64

/* The spikes every variant lost together (lost_by_all), once for the run: the spikes and the
 * range of what the variants answered in them. */
static void check_lost_by_all(const json_t *summary, const struct model *model, json_t *reasons)
{
	json_t *spikes = json_object(), *names = json_array();
	struct strbuf list = {0};
	double lo = INFINITY, hi = -INFINITY;
	/* the spikes' numbers, each once, in order (a variant that crashed may lack some) */
	int numbers[VALIDITY_MAX_LISTED_SPIKES];
	size_t n = 0;
	for (size_t i = 0; i < model->n_variants; i++)
		for (size_t k = 0; k < model->variants[i].n_spikes; k++) {
			int number = model->variants[i].spikes[k].number;
			size_t at = 0;
			if (!model->variants[i].spikes[k].lost_by_all)
				continue;
			while (at < n && numbers[at] < number)
				at++;
			if ((at < n && numbers[at] == number) || n == VALIDITY_MAX_LISTED_SPIKES)
				continue;
			memmove(&numbers[at + 1], &numbers[at], (n - at) * sizeof(*numbers));
			numbers[at] = number;
			n++;
		}
	for (size_t k = 0; k < n; k++)
		strbuf_printf(&list, "%s%d", k == 0 ? "" : k + 1 == n ? " and " : ", ", numbers[k]);
	size_t i;
	json_t *name;
	json_array_foreach(json_object_get(summary, "variant_order"), i, name)
	{
		const struct model_variant *mv =
		    model_variant_named(model, json_string_value(name));
		json_t *lost = spikes_where(mv, spike_lost_by_all);
		for (size_t k = 0; mv && k < mv->n_spikes; k++)
			if (mv->spikes[k].lost_by_all) {
				lo = fmin(lo, mv->spikes[k].answered_share);
				hi = fmax(hi, mv->spikes[k].answered_share);
			}
		if (json_array_size(lost)) {
			json_array_append(names, name);
			json_object_set_new(spikes, json_string_value(name), lost);
		} else {
			json_decref(lost);
		}
	}
	if (n && json_array_size(names)) {
		reason(
		    reasons, "spikes_lost_by_all", names,
		    "a quieter machine, fewer variants at once (--variants) or one at a time "
		    "(--serial), or lower --spike-multiple",
		    "Every variant answered under %.0f %% of the queries sent in spike%s %s "
		    "(%.1f-%.1f %% answered): running side by side they fell behind together, so "
		    "the machine was short (the harness, another process or the host), not one "
		    "allocator; their memory in %s is that of a queue.",
		    100 * VALIDITY_MIN_EACH_SPIKE_ANSWERED_SHARE, n == 1 ? "" : "s", list.s,
		    100 * lo, 100 * hi, n == 1 ? "it" : "them");
		json_object_set_new(json_array_get(reasons, json_array_size(reasons) - 1), "spikes",
		                    spikes);
	} else {
		json_decref(names);
		json_decref(spikes);
	}
	strbuf_free(&list);
}

size_t validity_spikes_under_answered(const struct model_variant *mv)
{
	size_t m = 0;
	for (size_t k = 0; k < mv->n_spikes; k++)
		m += spike_under_answered(&mv->spikes[k]);
	return m;
}

void validity_under_answered_words(struct strbuf *b, const struct model_variant *mv)
{
	size_t m = validity_spikes_under_answered(mv), said = 0;
	if (m > 3) {
		/* many spikes: how many and the range, not a list no one reads */
		double lo = INFINITY, hi = -INFINITY;
		for (size_t k = 0; k < mv->n_spikes; k++)
			if (spike_under_answered(&mv->spikes[k])) {
				lo = fmin(lo, mv->spikes[k].answered_share);
				hi = fmax(hi, mv->spikes[k].answered_share);
			}
		strbuf_printf(b, "%zu spikes (%.1f-%.1f %% answered)", m, 100 * lo, 100 * hi);
		return;
	}
	strbuf_printf(b, "spike%s ", m == 1 ? "" : "s");
	for (size_t k = 0; k < mv->n_spikes; k++) {
		const struct model_spike *sp = &mv->spikes[k];
		if (!spike_under_answered(sp))
			continue;
		strbuf_printf(b, "%s%d (%.1f %% answered)",
		              said == 0       ? ""
		              : said + 1 == m ? " and "
		                              : ", ",
		              sp->number, 100 * sp->answered_share);
		said++;
	}
}

/* Per spike, by send phase (phases.csv): over all spikes a variant may answer 99 % and still
 * drown in one of them, its memory then that of a queue. */
static void check_each_spike(const json_t *summary, const struct model *model, json_t *reasons)
{
	json_t *names = json_array(), *spikes = json_object();
	struct strbuf b = {0};
	size_t i;
	json_t *name;
	json_array_foreach(json_object_get(summary, "variant_order"), i, name)
	{
		const struct model_variant *mv =
		    model_variant_named(model, json_string_value(name));
		json_t *under = spikes_where(mv, spike_under_answered);
		size_t n_under = json_array_size(under);
		if (n_under) {
			strbuf_printf(&b, "%s%s in ", b.len ? "; " : "", json_string_value(name));
			validity_under_answered_words(&b, mv);
		}
		if (n_under) {
			json_array_append(names, name);
			json_object_set_new(spikes, json_string_value(name), under);
		} else {
			json_decref(under);
		}
	}
	if (json_array_size(names)) {
		reason(
		    reasons, "spike_under_answered", names,
		    "lower --spike-rate or --spike-multiple, or raise --calibrate-len (a capacity "
		    "measured too high)",
		    "Answered under %.0f %% of the queries sent in a spike: %s. In such a spike "
		    "the "
		    "variant was over its capacity, its memory that of a queue, whatever it "
		    "answered over all spikes.",
		    100 * VALIDITY_MIN_EACH_SPIKE_ANSWERED_SHARE, b.s);
		json_object_set_new(json_array_get(reasons, json_array_size(reasons) - 1), "spikes",
		                    spikes);
	} else {
		json_decref(names);
		json_decref(spikes);
	}
	strbuf_free(&b);
}

/* A variant still answering at the top of its ramp has only a lower bound for a capacity. That
 * matters when the bound could be the slowest variant's capacity, which sets the spike height; a
 * faster variant's bound above it does not. */
static void check_calibration(const struct runfolder *rf, json_t *reasons)
{
	const json_t *cal = json_object_get(rf->run, "calibration");
	const json_t *capacity = json_object_get(cal, "capacity_qps");
	/* the calibration's own choice (scenarios/lib/calibrate.sh); without it, every bound counts
	 */
	double lowest = summary_number(cal, "capacity_of_slowest_qps");
	if (isnan(lowest))
		lowest = INFINITY;
	json_t *names = json_array();
	const char *v;
	json_t *top;
	json_object_foreach(json_object_get(cal, "still_answering_at_top"), v, top)
	{
		/* by key, not path: a variant's name may hold a dot */
		double q = summary_value_number(json_object_get(capacity, v));
		if (json_is_true(top) && (isnan(q) || q <= lowest))
			json_array_append_new(names, json_string(v));
	}
	for (size_t i = 0; i < rf->n_events; i++) {
		if (strcmp(rf->events[i].event, "calibration_fallback") != 0)
			continue;
		const char *fv = json_string_value(json_object_get(rf->events[i].obj, "variant"));
		if (fv && !has_name(names, fv))
			json_array_append_new(names, json_string(fv));
	}
	if (!json_array_size(names)) {
		json_decref(names);
		return;
	}
	struct strbuf b = {0};
	join(&b, names);
	reason(reasons, "calibration_capped", names,
	       "raise --calibrate-max (the top of the calibration ramp) or --calibrate-len",
	       "The calibration did not find the capacity of %s (still answering at the top of "
	       "its ramp with the lowest capacity of all, or never 90 %% of it): the capacity is "
	       "only a bound, and so is the spike height derived from it.",
	       b.s);
	strbuf_free(&b);
}

static void check_crashes(const json_t *summary, const struct model *model, json_t *reasons)
{
	json_t *names = json_array();
	size_t i;
	json_t *name;
	json_array_foreach(json_object_get(summary, "variant_order"), i, name)
	{
		if (model_variant_named(model, json_string_value(name))->crash_count > 0)
			json_array_append(names, name);
	}
	if (!json_array_size(names)) {
		json_decref(names);
		return;
	}
	struct strbuf b = {0};
	join(&b, names);
	reason(reasons, "variant_crashed", names,
	       "read logs/VARIANT.log and fix the crash, then run again",
	       "%s crashed: its figures stop at the crash, and memory of a restarted or dead "
	       "process says nothing about its allocator.",
	       b.s);
	strbuf_free(&b);
}

/* A `failed` event of a variant (not the scenario's own): the scenario refused to start it (its
 * program missing, its allocator not the one named, a preload that did not take). */
static void check_not_run(const struct runfolder *rf, json_t *reasons)
{
	json_t *names = json_array(), *why = json_object();
	struct strbuf b = {0};
	for (size_t i = 0; i < rf->n_events; i++) {
		const struct runfolder_event *e = &rf->events[i];
		if (strcmp(e->event, "failed") != 0 || runfolder_is_harness(e->variant) ||
		    has_name(names, e->variant))
			continue;
		const char *r = json_string_value(json_object_get(e->obj, "reason"));
		r = r && *r ? r : "no reason recorded";
		json_array_append_new(names, json_string(e->variant));
		json_object_set_new(why, e->variant, json_string(r));
		strbuf_printf(&b, "%s%s (%s)", b.len ? "; " : "", e->variant, r);
	}
	if (json_array_size(names)) {
		reason(reasons, "variant_not_run", names,
		       "give the variant what it lacks (the reason says what), or leave it out "
		       "with --variants",
		       "Not run: %s. The comparison lacks %s.", b.s,
		       json_array_size(names) == 1 ? "it" : "them");
		json_object_set_new(json_array_get(reasons, json_array_size(reasons) - 1), "why",
		                    why);
	} else {
		json_decref(names);
		json_decref(why);
	}
	strbuf_free(&b);
}

/* A variant with timeline rows that gives no figure to compare: absent from the summary, or not
 * one memory sample in all its rows (its process gone or never found). A gate over its figures
 * would pass on nothing, so the run says it. */
static void check_no_figures(const struct runfolder *rf, const struct model *model, json_t *reasons)
{
	size_t *rows = calloc(rf->n_targets ? rf->n_targets : 1, sizeof(*rows));
	if (!rows)
		abort();
	for (size_t i = 0; i < rf->n_rows; i++)
		rows[rf->rows[i].target]++;
	json_t *names = json_array();
	struct strbuf b = {0};
	for (size_t t = 0; t < rf->n_targets; t++) {
		const char *n = rf->targets[t];
		if (!rows[t] || runfolder_is_harness(n))
			continue;
		const struct model_variant *mv = model_variant_named(model, n);
		if (!isnan(mv->max_anon_kb) || !isnan(mv->max_rss_kb))
			continue;
		strbuf_printf(&b, "%s%s (%zu rows)", b.len ? ", " : "", n, rows[t]);
		json_array_append_new(names, json_string(n));
	}
	free(rows);
	if (json_array_size(names))
		reason(
		    reasons, "variant_without_figures", names,
		    "read logs/VARIANT.log: the process was gone or never found, then run again",
		    "No memory figures for %s: timeline rows without a single memory sample say "
		    "nothing about the allocator, and no figure of the comparison stands for it.",
		    b.s);
	else
		json_decref(names);
	strbuf_free(&b);
}

/* Variants sampled by an agent on another host whose reads fell in under AGENT_READS_MIN_SHARE of
 * their intervals (summary "agents", set by agent_reads.c): each named with its longest gap. */
static void check_agent_reads(const json_t *summary, json_t *reasons)
{
	const char *name;
	json_t *a, *names = json_array();
	struct strbuf text = {0};
	json_object_foreach((json_t *)json_object_get(summary, "agents"), name, a)
	{
		double share = json_number_value(json_object_get(a, "share"));
		if (share >= AGENT_READS_MIN_SHARE)
			continue;
		const json_t *gap = json_object_get(a, "longest_gap");
		strbuf_printf(&text, "%s%s %.1f %%", json_array_size(names) ? "; " : "", name,
		              100 * share);
		if (json_is_object(gap))
			strbuf_printf(&text, " (longest gap %.3g s from t=%.3f s)",
			              json_number_value(json_object_get(gap, "length_s")),
			              json_number_value(json_object_get(gap, "start_s")));
		json_array_append_new(names, json_string(name));
	}
	if (json_array_size(names) == 0) {
		json_decref(names);
		return;
	}
	reason(reasons, "agent_reads_missing", names,
	       "keep the agent's stream up and give it --record (allocspike-run collect fills "
	       "a dropped stream from the record), or run the variant on a host with more room",
	       "The agent's reads fell in under %.0f %% of the intervals of %s: memory is missing "
	       "there (a gap stays a gap, nothing is interpolated).",
	       100 * AGENT_READS_MIN_SHARE, text.s);
	strbuf_free(&text);
}

/* The first clock measurement of variant name's agent that could not place its reads (events.jsonl
 * "clock" and "clock_failed", written by allocspike-run collect): failed, known only beyond its
 * bound (half the round trip), or moved by more than one interval since the one before (reads
 * between them would be placed wrong by that much). NULL when every one was fine; *count: how many
 * were not, *total: of how many. */
static json_t *clock_trouble(const struct runfolder *rf, const char *name, double interval_ms,
                             size_t *count, size_t *total)
{
	json_t *first = NULL;
	double prev = NAN;
	*count = *total = 0;
	for (size_t i = 0; i < rf->n_events; i++) {
		const struct runfolder_event *e = &rf->events[i];
		bool failed = strcmp(e->event, "clock_failed") == 0;
		if ((!failed && strcmp(e->event, "clock") != 0) || strcmp(e->variant, name) != 0)
			continue;
		(*total)++;
		json_t *o = e->obj, *trouble = NULL;
		double off = json_number_value(json_object_get(o, "offset_ms"));
		double half_rtt = json_number_value(json_object_get(o, "rtt_ms")) / 2;
		const json_t *bound = json_object_get(o, "bound_ms");
		if (failed) {
			const char *why = json_string_value(json_object_get(o, "reason"));
			trouble =
			    json_pack("{s:s, s:s}", "kind", "failed", "reason", why ? why : "");
		} else if (json_is_false(json_object_get(o, "within_bound")) ||
		           (json_is_number(bound) && half_rtt > json_number_value(bound))) {
			trouble = json_pack(
			    "{s:s, s:o, s:o}", "kind", "uncertainty", "uncertainty_ms",
			    summary_json_real(half_rtt), "bound_ms",
			    json_is_number(bound) ? summary_json_real(json_number_value(bound))
			                          : json_null());
		} else if (isfinite(off)) {
			if (isfinite(prev) && fabs(off - prev) > interval_ms)
				trouble = json_pack("{s:s, s:o, s:o, s:o, s:o}", "kind", "moved",
				                    "moved_ms", summary_json_real(fabs(off - prev)),
				                    "from_ms", summary_json_real(prev), "to_ms",
				                    summary_json_real(off), "interval_ms",
				                    summary_json_real(interval_ms));
			prev = off;
		}
		if (!trouble)
			continue;
		(*count)++;
		if (first) {
			json_decref(trouble);
			continue;
		}
		first = trouble;
		json_object_set_new(first, "t_s", summary_json_real(e->t_s));
	}
	return first;
}

/* What one measurement beyond the bound says, into b. */
static void clock_trouble_text(struct strbuf *b, const json_t *t)
{
	const char *kind = json_string_value(json_object_get(t, "kind"));
	double x = json_number_value(json_object_get(t, "uncertainty_ms"));
	if (strcmp(kind, "failed") == 0)
		strbuf_printf(b, "the measurement failed (%.120s)",
		              json_string_value(json_object_get(t, "reason")));
	else if (strcmp(kind, "uncertainty") == 0 && json_is_number(json_object_get(t, "bound_ms")))
		strbuf_printf(b, "offset known only within +-%.3f ms, over the bound of %.3f ms", x,
		              json_number_value(json_object_get(t, "bound_ms")));
	else if (strcmp(kind, "uncertainty") == 0)
		strbuf_printf(b, "offset known only within +-%.3f ms, over its bound", x);
	else
		strbuf_printf(b,
		              "offset moved %.3f ms (from %.3f to %.3f ms), more than one interval "
		              "(%.0f ms)",
		              json_number_value(json_object_get(t, "moved_ms")),
		              json_number_value(json_object_get(t, "from_ms")),
		              json_number_value(json_object_get(t, "to_ms")),
		              json_number_value(json_object_get(t, "interval_ms")));
}

/* Variants whose agent's clock was not known within the bound during the run, or moved by more
 * than an interval between two measurements: their reads may be placed wrong (docs/controller.md,
 * "The clock"). Each named with its host, the time, and the figure of its first such
 * measurement. */
static void check_agent_clocks(const struct runfolder *rf, const json_t *summary, json_t *reasons)
{
	double interval_ms = 1000 * json_number_value(json_object_get(summary, "interval_s"));
	if (!(interval_ms > 0))
		interval_ms = 100; /* the run's default interval */
	const char *name;
	json_t *v, *names = json_array(), *clocks = json_object();
	struct strbuf text = {0};
	json_object_foreach((json_t *)json_object_get(summary, "variants"), name, v)
	{
		size_t count, total;
		json_t *t = clock_trouble(rf, name, interval_ms, &count, &total);
		if (!t)
			continue;
		const char *host = json_string_value(json_object_get(v, "host"));
		json_object_set_new(t, "host", host ? json_string(host) : json_null());
		json_object_set_new(t, "count", json_integer((json_int_t)count));
		json_object_set_new(t, "measurements", json_integer((json_int_t)total));
		strbuf_printf(&text, "%s%s on %s at t=%.3f s: ", json_array_size(names) ? "; " : "",
		              name, host ? host : "an unknown host",
		              json_number_value(json_object_get(t, "t_s")));
		clock_trouble_text(&text, t);
		strbuf_printf(&text, " (%zu of its %zu measurements)", count, total);
		json_array_append_new(names, json_string(name));
		json_object_set_new(clocks, name, t);
	}
	if (json_array_size(names) == 0) {
		json_decref(names);
		json_decref(clocks);
		return;
	}
	reason(reasons, "agent_clock_unbounded", names,
	       "keep the hosts' clocks disciplined (chrony) and the path to the agents quiet, or "
	       "measure more often (allocspike-run collect --clock-every)",
	       "The clock of an agent was not known within its bound during the run, or moved by "
	       "more than an interval between two measurements, so its reads may be placed wrong "
	       "on the timeline: %s. t is the collection's time (the controller's events).",
	       text.s);
	json_object_set_new(json_array_get(reasons, json_array_size(reasons) - 1), "clocks",
	                    clocks);
	strbuf_free(&text);
}

/* What a reason that names a variant says of it, in the per-variant words. */
static const struct {
	const char *code, *words;
} VARIANT_WORDS[] = {
    {"spikes_over_capacity", "over its capacity"},
    {"spike_under_answered", "over its capacity"},
    {"spikes_lost_by_all", "behind with the machine"},
    {"variant_crashed", "crashed"},
    {"variant_not_run", "not run"},
    {"variant_without_figures", "without figures"},
    {"warmup_not_steady", "its cache still filling"},
    {"calibration_capped", "its capacity only a bound"},
    {"agent_clock_unbounded", "its agent's clock beyond the bound"},
};

/* Per variant, whether any reason names it and which ({NAME: {valid, reasons[]}}), and the words
 * "valid for glibc and jemalloc; musl over its capacity" (reports/README.md "validity"). */
static void validity_per_variant(const json_t *summary, const json_t *reasons, json_t *o)
{
	json_t *per = json_object();
	struct strbuf valid = {0}, other = {0};
	size_t n_valid = 0, i;
	json_t *name;
	/* the words of the first marked variant, and whether every variant has the same */
	char *shared = NULL;
	bool all_same = true;
	json_array_foreach(json_object_get(summary, "variant_order"), i, name)
	{
		json_t *codes = json_array();
		struct strbuf words = {0};
		for (size_t r = 0; r < json_array_size(reasons); r++) {
			const json_t *reason = json_array_get(reasons, r);
			const char *code = json_string_value(json_object_get(reason, "code"));
			if (!has_name(json_object_get(reason, "variants"), json_string_value(name)))
				continue;
			json_array_append_new(codes, json_string(code));
			for (size_t w = 0; w < sizeof(VARIANT_WORDS) / sizeof(*VARIANT_WORDS); w++)
				if (strcmp(VARIANT_WORDS[w].code, code) == 0 &&
				    !(words.s && strstr(words.s, VARIANT_WORDS[w].words)))
					strbuf_printf(&words, "%s%s", words.len ? ", " : "",
					              VARIANT_WORDS[w].words);
		}
		json_t *v = json_object();
		json_object_set_new(v, "valid", json_boolean(json_array_size(codes) == 0));
		json_object_set_new(v, "reasons", codes);
		json_object_set_new(per, json_string_value(name), v);
		const char *said = words.len ? words.s : "with a reason below";
		if (json_array_size(codes) == 0) {
			n_valid++;
		} else {
			strbuf_printf(&other, "; %s %s", json_string_value(name), said);
			if (!shared)
				shared = strdup(said);
			all_same = all_same && shared && strcmp(shared, said) == 0;
		}
		strbuf_free(&words);
	}
	size_t k = 0;
	json_array_foreach(json_object_get(summary, "variant_order"), i, name)
	{
		if (!json_is_true(
		        json_object_get(json_object_get(per, json_string_value(name)), "valid")))
			continue;
		k++;
		strbuf_printf(&valid, "%s%s",
		              k == 1         ? ""
		              : k == n_valid ? " and "
		                             : ", ",
		              json_string_value(name));
	}
	struct strbuf text = {0};
	if (n_valid == 0 && all_same && shared &&
	    json_array_size(json_object_get(summary, "variant_order")) > 1)
		/* one reason for all (the machine fell behind): said once */
		strbuf_printf(&text, "valid for no variant; every variant %s", shared);
	else
		strbuf_printf(&text, "%s%s%s", n_valid ? "valid for " : "valid for no variant",
		              n_valid ? valid.s : "", other.len ? other.s : "");
	free(shared);
	json_object_set_new(o, "variants", per);
	json_object_set_new(o, "variants_text", json_string(text.s ? text.s : ""));
	/* Whether a reason names a variant: the page and summary.md show the words in amber then.
	 */
	json_object_set_new(o, "variants_marked", json_boolean(other.len > 0));
	strbuf_free(&valid);
	strbuf_free(&other);
	strbuf_free(&text);
}

json_t *validity_build(const struct runfolder *rf, const json_t *summary, struct model *model)
{
	mark_lost_by_all(rf, model);
	json_t *reasons = json_array();
	const json_t *run = json_object_get(summary, "run");
	if (!json_is_true(json_object_get(run, "complete")))
		reason(reasons, "run_incomplete", NULL, "run it again to the end",
		       "The run did not complete (status \"%s\"): later spikes are missing.",
		       json_string_value(json_object_get(run, "status")));
	check_warmup(rf, reasons);
	check_harness(summary, reasons);
	check_capacity(rf, summary, model, reasons);
	check_lost_by_all(summary, model, reasons);
	check_each_spike(summary, model, reasons);
	check_calibration(rf, reasons);
	check_not_run(rf, reasons);
	check_crashes(summary, model, reasons);
	check_no_figures(rf, model, reasons);
	check_agent_reads(summary, reasons);
	check_agent_clocks(rf, summary, reasons);
	json_int_t spikes = json_integer_value(json_object_get(summary, "spike_count"));
	if (spikes < VALIDITY_MIN_SPIKES)
		reason(reasons, "too_few_spikes", NULL, "raise --spikes (3 or more; 8 by default)",
		       "Only %lld spike%s: what the spikes left is compared over %d or more, fewer "
		       "make "
		       "it one spike's noise (a growth per spike needs %d).",
		       (long long)spikes, spikes == 1 ? "" : "s", VALIDITY_MIN_SPIKES,
		       1 + TREND_MIN_SPIKES);
	json_t *o = json_object();
	json_object_set_new(o, "valid", json_boolean(json_array_size(reasons) == 0));
	json_object_set_new(o, "reason_count", json_integer((json_int_t)json_array_size(reasons)));
	validity_per_variant(summary, reasons, o);
	json_object_set_new(o, "reasons", reasons);
	return o;
}

const json_t *validity_reason(const json_t *summary, const char *code)
{
	const json_t *reasons = json_object_get(json_object_get(summary, "validity"), "reasons");
	for (size_t i = 0; i < json_array_size(reasons); i++) {
		const json_t *r = json_array_get(reasons, i);
		const char *c = json_string_value(json_object_get(r, "code"));
		if (c && strcmp(c, code) == 0)
			return r;
	}
	return NULL;
}
