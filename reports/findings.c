/* reports/findings.c - turns summary figures into a few plain sentences, by fixed rules. */
#include "findings.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attribution.h"
#include "judgement.h"
#include "spread.h"
#include "strbuf.h"
#include "summary_json.h"
#include "validity.h"

/* Live growth over the spikes under this (kB) is not worth a sentence. */
#define LIVE_GROWTH_KB 1024.0
/* The allocator's growth over the spikes at most this share of the live growth: "the growth is
 * the program's"; at most LIVE_MOSTLY_SHARE: "mostly the program's". */
#define LIVE_ONLY_SHARE 0.1
#define LIVE_MOSTLY_SHARE 0.5
/* Kinds of held memory under this (kB) are left out of the sentence naming them. */
#define HELD_KIND_MIN_KB 51.2
/* Answered shares under this in spikes are worth a sentence: the variant fell behind. */
#define ANSWERED_SHARE_OK 0.99

static void add(json_t *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(json_t *out, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	json_array_append_new(out, json_string(buf));
}

/* "a, b and c" */
static void join_names(struct strbuf *b, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i > 0)
			strbuf_append(b, i + 1 == n ? " and " : ", ");
		strbuf_append(b, names[i]);
	}
}

/* "1.5 MB more", "0.5 MB less" (kB in). */
static const char *more_or_less(char *buf, size_t size, double kb)
{
	snprintf(buf, size, "%.1f MB %s", fabs(kb) / 1024, kb < 0 ? "less" : "more");
	return buf;
}

/* The per-spike words of give_back_per_spike (set by spike_shape.c): "gave back to the system
 * what a spike freed in 4 of 5 spikes (0-100 % of ", "kept what the spikes freed (gave back 0-5 %
 * of ". Counted per spike like the verdict, never a mean no spike had; the caller ends the
 * parenthesis. */
static void give_back_counted(struct strbuf *b, const struct model_give_back *g, const char *freed)
{
	size_t n = g->spikes, returned = g->given_back_spikes;
	if (returned == n)
		strbuf_printf(b, "gave back to the system what each spike %s (", freed);
	else if (returned == 0)
		strbuf_printf(b, "kept what the spikes %s (gave back ", freed);
	else
		strbuf_printf(b, "gave back to the system what a spike %s in %zu of %zu spikes (",
		              freed, returned, n);
	judgement_share_range(b, g->share_min, g->share_max);
	strbuf_append(b, " of ");
}

/* Judged on anon RSS alone, per spike; with the last spike's end and peak anon RSS. */
static void findings_rss_verdict(json_t *out, const char *name, const struct model_variant *mv)
{
	const struct model_give_back *g = &mv->give_back;
	if (g->spikes == 0)
		return;
	double end = NAN, peak = NAN;
	for (size_t i = mv->n_spikes; i-- > 0 && isnan(end);) {
		end = mv->spikes[i].end_anon_kb;
		peak = mv->spikes[i].peak_anon_kb;
	}
	struct strbuf b = {0};
	strbuf_printf(&b,
	              "On anonymous RSS alone (no live bytes recorded for %s, so its own memory "
	              "cannot be told from its allocator's), %s ",
	              name, name);
	give_back_counted(&b, g, "added");
	strbuf_printf(&b,
	              "each spike's growth; anon RSS %.1f MB at the end of the last recovery, "
	              "%.1f MB at that spike's peak).",
	              end / 1024, peak / 1024);
	add(out, "%s", b.s);
	strbuf_free(&b);
}

/* Judged on what the allocator holds beyond live bytes, per spike: of its part of each spike (what
 * left its footprint plus what it kept), what went back to the system (anon RSS fell) and what it
 * reused for later allocations (its held memory fell, anon RSS did not: never called given
 * back). */
static void findings_held_verdict(json_t *out, const char *name, const struct model_variant *mv)
{
	char held[48];
	if (isnan(mv->spikes_held_growth_kb))
		return; /* no spike with attributed figures before and after it */
	more_or_less(held, sizeof(held), mv->spikes_held_growth_kb);
	const struct model_give_back *g = &mv->give_back;
	if (g->spikes == 0) {
		add(out,
		    "%s's allocator took almost no part in the spikes (under 1 MB each beyond live "
		    "memory); it held %s after the last recovery than before the first.",
		    name, held);
		return;
	}
	struct strbuf b = {0};
	strbuf_printf(&b, "%s's allocator ", name);
	give_back_counted(&b, g, "freed");
	strbuf_append(&b, "its part of each spike");
	double rhi = g->reused_share_max;
	if (g->reuse_worth_saying) {
		strbuf_append(&b, "; reused by the allocator ");
		judgement_share_range(&b, g->reused_share_min, rhi);
		strbuf_append(&b, ": its held memory fell, anon RSS did not");
	}
	if (mv->spikes_left.na_reason)
		strbuf_printf(&b,
		              "); what it held after the last recovery against before the first "
		              "is n/a: %s.",
		              mv->spikes_left.na_reason);
	else
		strbuf_printf(&b, "); it held %s after the last recovery than before the first.",
		              held);
	add(out, "%s", b.s);
	strbuf_free(&b);
}

/* Growth that is the program's own (live bytes, the cache) is named as such, with the spike that
 * added the most. */
static void findings_live_growth(json_t *out, const char *name, const struct model_variant *mv)
{
	double live = mv->spikes_live_growth_kb, held = mv->spikes_held_growth_kb;
	if (isnan(live) || live < LIVE_GROWTH_KB)
		return;
	const struct model_spike *top = NULL;
	for (size_t i = 0; i < mv->n_spikes; i++) {
		const struct model_spike *sp = &mv->spikes[i];
		if (!isnan(sp->live_growth_kb) &&
		    (!top || sp->live_growth_kb >= top->live_growth_kb))
			top = sp;
	}
	if (!top) /* the sum has a spike with live growth */
		return;
	char cache[96] = "";
	if (!isnan(top->cache_growth_kb))
		snprintf(cache, sizeof(cache),
		         "the cache grew by %.1f MB during spike %d (live bytes "
		         "%+.1f MB)",
		         top->cache_growth_kb / 1024, top->number, top->live_growth_kb / 1024);
	else
		snprintf(cache, sizeof(cache), "live bytes grew by %.1f MB during spike %d",
		         top->live_growth_kb / 1024, top->number);
	char top_held[48], all_held[48];
	/* Whose growth it is, said only when the allocator's is small beside the program's. */
	const char *whose = held <= LIVE_ONLY_SHARE * live ? ": the growth is the program's, not "
	                                                     "the allocator's"
	                    : held <= LIVE_MOSTLY_SHARE * live
	                        ? ": the growth is mostly the program's"
	                        : "";
	add(out,
	    "%s: %s; the allocator held %s. Over all spikes live memory grew by %.1f MB and the "
	    "allocator held %s%s.",
	    name, cache, more_or_less(top_held, sizeof(top_held), top->held_growth_kb), live / 1024,
	    more_or_less(all_held, sizeof(all_held), held), whose);
}

/* One kind of held memory, "13.0 MB in free chunks below the top chunk". */
struct held_kind {
	double kb;
	const char *name, *why;
};

static int held_kind_cmp(const void *a, const void *b)
{
	double x = ((const struct held_kind *)a)->kb, y = ((const struct held_kind *)b)->kb;
	return (x < y) - (x > y);
}

/* What the allocator holds at the end and why, from its own figures. */
static void findings_mechanism(json_t *out, const struct model_variant *mv)
{
	double held = mv->final_held_kb;
	if (isnan(held))
		return;
	const struct allocator_words *names = attr_names_for(mv->allocator);
	struct strbuf b = {0};
	/* "glibc", "filling (glibc)", "jemalloc (MALLOC_CONF=dirty_decay_ms:-1)" */
	model_variant_label(&b, mv, true);
	if (mv->final_live_above_heap)
		strbuf_append(
		    &b,
		    " held n/a beyond live memory at the end (" MODEL_HELD_NA_LIVE_ABOVE_HEAP ")");
	else
		strbuf_printf(&b, " held %.1f MB beyond live memory at the end", held / 1024);
	if (isnan(mv->final_trimmable_kb)) {
		strbuf_printf(&b, ", not broken down (%s)", names->unsplit_why);
	} else {
		struct held_kind k[] = {
		    {mv->final_fragmented_kb, names->fragmented, names->fragmented_why},
		    {mv->final_trimmable_kb, names->trimmable, names->trimmable_why},
		    {mv->final_allocator_other_kb, names->other, NULL}};
		qsort(k, 3, sizeof(*k), held_kind_cmp);
		const char *sep = ": ";
		for (size_t i = 0; i < 3; i++) {
			if (!(k[i].kb >= HELD_KIND_MIN_KB))
				continue;
			strbuf_printf(&b, "%s%.1f MB in %s", sep, k[i].kb / 1024, k[i].name);
			if (k[i].why && i == 0)
				strbuf_printf(&b, ", %s", k[i].why);
			sep = "; ";
		}
	}
	double not_resident = mv->final_not_resident_kb;
	if (not_resident >= HELD_KIND_MIN_KB)
		/* its free count beyond what it holds: pages it released or never touched */
		strbuf_printf(&b,
		              "; it counts %.1f MB more as free that is not resident (released or "
		              "never touched)",
		              not_resident / 1024);
	/* Live bytes beyond the resident heap are in no part: said, so live + held is not read as
	 * the program's whole request. */
	double live_not_resident = mv->final_live_not_resident_kb;
	if (live_not_resident >= HELD_KIND_MIN_KB)
		strbuf_printf(&b,
		              "; live memory counts %.1f MB more that was never touched (not "
		              "resident)",
		              live_not_resident / 1024);
	double unmapped = mv->final_unmapped_kb;
	if (names->unmapped && !isnan(unmapped)) {
		if (unmapped < HELD_KIND_MIN_KB)
			strbuf_printf(&b, "; none %s", names->unmapped);
		else
			strbuf_printf(&b, "; %.1f MB %s (unmapped, not in RSS)", unmapped / 1024,
			              names->unmapped);
	}
	strbuf_append(&b, ".");
	add(out, "%s", b.s);
	strbuf_free(&b);
}

static void findings_memory_returned(json_t *out, const json_t *summary, const struct model *model)
{
	const char *returned[64], *kept[64];
	size_t nr = 0, nk = 0;
	const char *name;
	json_t *v;
	json_object_foreach(json_object_get(summary, "variants"), name, v)
	{
		const struct model_variant *mv = model_variant_named(model, name);
		if (mv->attributed) {
			findings_held_verdict(out, name, mv);
			findings_live_growth(out, name, mv);
			findings_mechanism(out, mv);
		} else {
			findings_rss_verdict(out, name, mv);
		}
		/* counted per spike like the verdict: every spike gave back, or none did */
		size_t n = mv->give_back.spikes, given = mv->give_back.given_back_spikes;
		if (n > 0 && given == n && nr < 64)
			returned[nr++] = name;
		else if (n > 0 && given == 0 && nk < 64)
			kept[nk++] = name;
	}
	if (nr > 0 && nk > 0) {
		struct strbuf b = {0};
		strbuf_append(&b, "Memory went back to the system after spikes with ");
		join_names(&b, returned, nr);
		strbuf_append(&b, ", not with ");
		join_names(&b, kept, nk);
		strbuf_append(&b, ".");
		add(out, "%s", b.s);
		strbuf_free(&b);
	}
}

/* The peaks' shape (peaks_shape, the verdict's robust shape): how far the first spike's peak rose
 * above the level before it, the step of spike 2, then the robust trend; with too few spikes for a
 * trend, each spike's peak. */
static void findings_peaks(json_t *out, const struct model *model)
{
	for (size_t vi = 0; vi < model->n_variants; vi++) {
		const struct model_variant *mv = &model->variants[vi];
		const char *name = mv->name;
		const struct model_shape *shape = &mv->peaks.shape;
		if (!shape->n)
			continue;
		struct strbuf b = {0};
		strbuf_printf(&b, "%s's peaks: ", name);
		double trend = shape->trend_mb_per_spike;
		if (!isfinite(trend)) {
			size_t n = mv->n_spikes;
			strbuf_printf(&b, "%zu spike%s, too few for a trend: ", n,
			              n == 1 ? "" : "s");
			for (size_t i = 0; i < n; i++) {
				strbuf_append(&b, i == 0 ? "" : i + 1 == n ? " and " : ", ");
				double peak = mv->spikes[i].peak_anon_kb;
				if (isnan(peak))
					strbuf_append(&b, "n/a");
				else
					strbuf_printf(&b, "%.1f", peak / 1024);
			}
			strbuf_append(&b, " MB.");
			add(out, "%s", b.s);
			strbuf_free(&b);
			continue;
		}
		if (isfinite(shape->per_spike_mb[0]))
			strbuf_printf(&b,
			              "the first spike peaked %+.1f MB above the level before it, ",
			              shape->per_spike_mb[0]);
		double step = shape->step_mb;
		if (fabs(step) >= CLIMB_MB_PER_SPIKE)
			strbuf_printf(&b, "spike %d %+.1f MB, ", shape->step_spike, step);
		/* the word the shape chose, so the sentence and summary.json never disagree */
		const char *word = shape->trend;
		if (word && strcmp(word, "climbs") == 0)
			strbuf_printf(&b, "then they climbed %.2f MB per spike", trend);
		else if (word && strcmp(word, "falls") == 0)
			strbuf_printf(&b, "then they fell %.2f MB per spike", -trend);
		else
			strbuf_printf(&b, "then they stayed level (%+.2f MB per spike)", trend);
		/* What moved the peaks: the program's live memory or what the allocator held. */
		double live = mv->peaks.live_trend_mb_per_spike;
		double held = mv->peaks.held_trend_mb_per_spike;
		if (!isnan(live) && !isnan(held) && fabs(trend) >= CLIMB_MB_PER_SPIKE)
			strbuf_printf(&b,
			              "; at the peaks, live memory moved %+.2f and allocator-held "
			              "memory %+.2f MB per spike",
			              live, held);
		strbuf_append(&b, ".");
		add(out, "%s", b.s);
		strbuf_free(&b);
	}
}

/* Lowest and highest of a per-variant figure (MODEL_VARIANT_FIGURE), with a sentence. */
static void findings_extremes(json_t *out, const struct model *model, size_t figure,
                              const char *what, const char *unit, double scale)
{
	const char *lo = NULL, *hi = NULL;
	double lov = NAN, hiv = NAN;
	for (size_t i = 0; i < model->n_variants; i++) {
		const char *name = model->variants[i].name;
		double x = model_variant_figure(&model->variants[i], figure);
		if (isnan(x))
			continue;
		if (!lo || x < lov)
			lo = name, lov = x;
		if (!hi || x > hiv)
			hi = name, hiv = x;
	}
	if (!lo || lo == hi || strcmp(lo, hi) == 0)
		return;
	/* two decimals when one would print the same number for both */
	int dec = lround(lov * scale * 10) == lround(hiv * scale * 10) ? 2 : 1;
	/* no lowest and highest where the run-to-run spread cannot tell them apart (the rule
	 * repeats are judged by, relative only: these figures have no floor of their own) */
	if (spread_pair_agrees(lov, hiv, 0, false))
		add(out, "%s: every variant within the run-to-run spread (%.0f %%), %.*f-%.*f %s.",
		    what, SPREAD_AGREE_SHARE * 100, dec, lov * scale, dec, hiv * scale, unit);
	else if (lov > 0)
		add(out, "%s: lowest %s (%.*f %s), highest %s (%.*f %s, %.0f%% more).", what, lo,
		    dec, lov * scale, unit, hi, dec, hiv * scale, unit, (hiv / lov - 1) * 100);
	else
		add(out, "%s: lowest %s (%.*f %s), highest %s (%.*f %s).", what, lo, dec,
		    lov * scale, unit, hi, dec, hiv * scale, unit);
}

/* RSS far above anon RSS is file-backed memory (kresd maps its cache file): in RSS, never in the
 * anon figures this report judges; said so that the two do not look contradictory. */
#define FILE_BACKED_MIN_KB (16 * 1024.0)

static void findings_file_backed(json_t *out, const char *name, const struct model_variant *mv)
{
	double rss = mv->max_rss_kb, anon = mv->max_anon_kb;
	if (isnan(rss) || isnan(anon) || rss - anon < FILE_BACKED_MIN_KB || rss < 2 * anon)
		return;
	add(out,
	    "%s's peak RSS (%.0f MB) is far above its anonymous RSS (%.0f MB): the %.0f MB "
	    "between are file-backed pages (a memory-mapped cache file such as kresd's, "
	    "shared libraries), which the kernel can drop and re-read; no allocator holds them, "
	    "so every memory figure here is anonymous RSS.",
	    name, rss / 1024, anon / 1024, (rss - anon) / 1024);
}

/* A sentence per variant the scenario never started, with its failed event's reason (validity
 * "variant_not_run"); how many. */
static size_t findings_not_run(json_t *out, const json_t *summary)
{
	size_t n = 0;
	const char *name;
	json_t *why;
	json_object_foreach(json_object_get(validity_reason(summary, "variant_not_run"), "why"),
	                    name, why)
	{
		add(out, "%s did not run: %s.", name, json_string_value(why));
		n++;
	}
	return n;
}

static void findings_health(json_t *out, const json_t *summary, const struct model *model)
{
	const char *name;
	json_t *v;
	size_t crashed = 0;
	json_object_foreach(json_object_get(summary, "variants"), name, v)
	{
		size_t i;
		json_t *c;
		json_array_foreach(json_object_get(v, "crashes"), i, c)
		{
			json_t *sig = json_object_get(c, "signal"),
			       *code = json_object_get(c, "code");
			char how[64] = "";
			if (json_is_integer(sig))
				snprintf(how, sizeof(how), " (signal %lld)",
				         (long long)json_integer_value(sig));
			else if (json_is_string(sig))
				snprintf(how, sizeof(how), " (signal %s)", json_string_value(sig));
			else if (json_is_integer(code))
				snprintf(how, sizeof(how), " (exit code %lld)",
				         (long long)json_integer_value(code));
			add(out, "%s %s at %.1f s%s.", name,
			    strcmp(json_string_value(json_object_get(c, "event")), "gone") == 0
			        ? "disappeared"
			        : "crashed",
			    summary_number(c, "t_s"), how);
			crashed++;
		}
		/* The one answered share: per query by send phase (by arrival in older runs without
		 * phases.csv, which then have no pending count). */
		const struct model_variant *mv = model_variant_named(model, name);
		const struct model_send_traffic *sent = model_send_phase(mv, MODEL_TRAFFIC_SPIKE);
		bool by_send = mv->traffic_by_send.from_phases_csv;
		double share = sent ? sent->answered_share : NAN;
		if (!isnan(share) && share < ANSWERED_SHARE_OK && by_send)
			add(out,
			    "%s answered only %.1f%% of the queries sent in spikes (%.0f lost, "
			    "%.0f "
			    "still pending).",
			    name, share * 100, sent->lost, sent->pending);
		else if (!isnan(share) && share < ANSWERED_SHARE_OK)
			add(out, "%s answered only %.1f%% of the queries offered in spikes.", name,
			    share * 100);
		findings_file_backed(out, name, mv);
	}
	size_t not_run = findings_not_run(out, summary);
	if (crashed == 0 && json_object_size(json_object_get(summary, "variants")) > not_run)
		add(out, not_run ? "No variant that ran crashed." : "No variant crashed.");
	const json_t *h = json_object_get(summary, "harness");
	double sat = validity_saturated_s(h);
	size_t ev = json_array_size(json_object_get(h, "saturated_events"));
	if (sat > 0)
		add(out,
		    "The harness itself was saturated (%.1f s of intervals over %.1f core, %zu "
		    "harness_saturated events): figures in those periods may show the harness's "
		    "limit, not the resolvers'.",
		    sat, summary_number(h, "threshold_cores"), ev);
}

json_t *findings_build(const json_t *summary, const struct model *model)
{
	json_t *out = json_array();
	const json_t *run = json_object_get(summary, "run");
	const char *status = json_string_value(json_object_get(run, "status"));
	if (status && strcmp(status, "completed") != 0)
		add(out,
		    "This run did not complete (status \"%s\"): the figures cover what was "
		    "recorded up to %.1f s.",
		    status, summary_number(run, "last_t_s"));
	double planned = summary_number(run, "schedule_duration_s"),
	       last = summary_number(run, "last_t_s");
	if (!isnan(planned) && !isnan(last) &&
	    last < planned - 2 * summary_number(summary, "interval_s"))
		add(out,
		    "The timeline covers %.1f s of the schedule's %.1f s (%lld of %.0f spikes "
		    "recorded).",
		    last, planned,
		    (long long)json_integer_value(json_object_get(summary, "spike_count")),
		    summary_number(run, "schedule_spikes"));
	if (json_integer_value(json_object_get(summary, "spike_count")) == 0)
		add(out, "The timeline holds no spike, so there are no spike figures.");
	findings_memory_returned(out, summary, model);
	findings_peaks(out, model);
	findings_extremes(out, model, MODEL_VARIANT_FIGURE(final_anon_kb),
	                  "Anonymous RSS at the end", "MB", 1.0 / 1024);
	findings_extremes(
	    out, model, MODEL_VARIANT_FIGURE(mean_live_bytes_per_inflight),
	    "Live memory per request in flight at the spikes' peaks (beyond the cache)", "kB",
	    1.0 / 1024);
	findings_extremes(out, model, MODEL_VARIANT_FIGURE(cpu_s_per_million_answered),
	                  "CPU per million answered queries", "s", 1.0);
	findings_health(out, summary, model);
	return out;
}
