/* reports/html.c - writes the report pages: one file, no outside references, narrow and printable.
 */
#include "html.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colours.h"
#include "fixed_point.h"
#include "glossary.h"
#include "machine_busy.h"
#include "pileup.h"
#include "spike_find.h"
#include "spread.h"
#include "sections.h"
#include "strbuf.h"
#include "summary_json.h"
#include "traffic.h"
#include "transports.h"
#include "validity.h"
#include "verdict.h"

enum fig_format {
	F_MB_FROM_KB,
	F_KB_FROM_BYTES,
	F_MB,
	F_SHARE,
	F_MS,
	F_MS3, /* a latency from a histogram: three significant digits (its precision) */
	F_NUMBER,
	F_RATIO,
	F_COUNT
};

struct figure_def {
	const char *path; /* in a variant's summary object */
	const char *label;
	enum fig_format fmt;
};

/* The per-variant figures shown in the tables, in reading order (defined in README.md). */
static const struct figure_def figures[] = {
    {"peaks_shape.trend_mb_per_spike", "peak trend (MB/spike, from spike 2)", F_MB},
    {"peak_growth_first_to_last_mb", "peak growth, first to last spike (MB)", F_MB},
    {"recovery_growth_mb_per_spike", "recovery-level growth (MB/spike, from spike 2)", F_MB},
    {"recovery_growth_first_to_last_mb", "recovery-level growth, first to last (MB)", F_MB},
    {"mean_given_back_share", "share of spike growth given back (mean)", F_SHARE},
    {"max_anon_kb", "maximum anon RSS (MB)", F_MB_FROM_KB},
    {"final_anon_kb", "final anon RSS (MB)", F_MB_FROM_KB},
    {"max_rss_kb", "maximum RSS (MB)", F_MB_FROM_KB},
    {"final_rss_kb", "final RSS (MB)", F_MB_FROM_KB},
    {"warmup_end_anon_kb", "anon RSS at the end of warm-up (MB)", F_MB_FROM_KB},
    {"beyond_cache_final_kb", "final anon beyond cache_bytes (MB)", F_MB_FROM_KB},
    {"beyond_cache_growth_mb_per_spike", "beyond-cache growth after recovery (MB/spike)", F_MB},
    {"anon_over_cache", "anon RSS / cache_bytes (final)", F_RATIO},
    {"anon_over_allocated", "anon RSS / allocator's allocated bytes (final)", F_RATIO},
    {"mean_held_returned_share", "allocator's part of each spike returned to the system (mean)",
     F_SHARE},
    {"recovery_held_growth_mb_per_spike", "allocator-held growth after recovery (MB/spike)", F_MB},
    {"recovery_live_growth_mb_per_spike", "live growth after recovery (MB/spike)", F_MB},
    {"peaks_shape.held_trend_mb_per_spike", "allocator-held trend at peaks (MB/spike)", F_MB},
    {"peaks_shape.live_trend_mb_per_spike", "live trend at peaks (MB/spike)", F_MB},
    {"final_live_kb", "final live bytes (MB)", F_MB_FROM_KB},
    {"final_held_kb", "final allocator-held beyond live (MB)", F_MB_FROM_KB},
    {"final_trimmable_kb", "of which free, returnable (MB)", F_MB_FROM_KB},
    {"final_fragmented_kb", "of which free, fragmented (MB)", F_MB_FROM_KB},
    {"final_unmapped_kb", "final unmapped, still reserved (MB)", F_MB_FROM_KB},
    {"final_outside_kb", "final anon outside the allocator (MB)", F_MB_FROM_KB},
    {"mean_live_bytes_per_inflight", "live memory per request in flight (kB)", F_KB_FROM_BYTES},
    {"mean_end_held_mb_per_1000_highest_inflight",
     "held after recovery per 1,000 in flight at the highest peak so far (MB, mean)", F_RATIO},
    {"mean_end_held_share_of_highest_heap",
     "held after recovery as a share of the highest footprint so far (mean)", F_SHARE},
    {"cpu_s_per_million_answered", "CPU s per million answered", F_NUMBER},
    {"cpu_s", "CPU s (after warm-up)", F_NUMBER},
    /* by the phase a query was sent in: counted by arrival, a spike's late answers landed in
     * the baseline after it and made its share exceed 100 % */
    {"traffic_by_send.phases.spike.answered_share", "answered share of queries sent in spikes",
     F_SHARE},
    {"traffic_by_send.phases.spike.lat_p50_ms", "latency p50, queries sent in spikes (ms)", F_MS},
    {"traffic_by_send.phases.spike.lat_p99_ms", "latency p99, queries sent in spikes (ms)", F_MS},
    {"spike_traffic.lat_p99_max_ms", "worst interval p99 in spikes (ms)", F_MS},
    {"traffic_by_send.phases.baseline.answered_share", "answered share of queries sent at baseline",
     F_SHARE},
    {"traffic_by_send.phases.baseline.lat_p50_ms", "latency p50, queries sent at baseline (ms)",
     F_MS},
    {"traffic_by_send.phases.baseline.lat_p99_ms", "latency p99, queries sent at baseline (ms)",
     F_MS},
    {"crash_count", "crashes", F_COUNT},
};
#define N_FIGURES (sizeof(figures) / sizeof(*figures))

static const char *const page_css =
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1d1d1d;"
    "margin:0 auto;max-width:1400px;padding:0 14px 40px;box-sizing:border-box}"
    /* wide tables take the page's width (no sideways scrolling at 1400 px); prose keeps a
     * readable measure */
    "p,ul,dl,.banner,.ok,.amber{max-width:960px}"
    "h1{font-size:1.5em;margin:.8em 0 .2em}h2{font-size:1.2em;margin:1.6em 0 .4em;"
    "border-bottom:1px solid #ccc}h3{font-size:1.02em;margin:1.2em 0 .2em}"
    "table{border-collapse:collapse;font-size:13px;margin:.3em 0}"
    "th,td{border-bottom:1px solid #e2e2e2;padding:3px 8px;text-align:right;vertical-align:top}"
    "th:first-child,td:first-child{text-align:left;white-space:nowrap}th{background:#f4f4f4}"
    "table.kv td{text-align:left}table.kv th{text-align:left;white-space:nowrap}"
    ".scroll{overflow-x:auto;max-width:100%}"
    "svg.chart{width:100%;height:auto;display:block;max-width:900px;min-width:560px}"
    ".caption{color:#555;font-size:13px;margin:.1em 0 0}"
    ".banner{padding:8px 12px;margin:.8em 0;border-left:6px solid #b00020;background:#fde7ea}"
    ".ok{padding:6px 12px;margin:.8em 0;border-left:6px solid #2e7d32;background:#eaf5ea}"
    ".amber{padding:6px 12px;margin:.8em 0;border-left:6px solid #b26a00;background:#fff3dc}"
    ".swatch{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin-right:5px;"
    "vertical-align:baseline}"
    ".nochart{padding:20px;border:1px dashed #aaa;color:#666}"
    "dl.glossary dt{font-weight:600;margin-top:.4em}dl.glossary dd{margin:0 0 0 1.5em}"
    "a.term{color:inherit;text-decoration:underline dotted}"
    ".context-line{font-size:14px;color:#333}.findings li{margin:.25em 0}nav a{margin-right:1em}"
    "code{font-size:12px;word-break:break-all}.muted{color:#666}"
    "@media (max-width:640px){body{font-size:14px;padding:0 8px}table{font-size:12px}"
    "th,td{padding:2px 5px}}"
    "@media print{body{max-width:none;font-size:11px;padding:0}nav{display:none}"
    ".chart-box,table{break-inside:avoid;page-break-inside:avoid}h2{break-after:avoid}"
    ".banner{background:none;border:2px solid #b00020}.scroll{overflow:visible}"
    "th{background:none}.context-line{font-size:11px}.caption{font-size:10px}}";

static void page_begin(struct strbuf *b, const char *title)
{
	strbuf_append(b,
	              "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	              "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	              "<title>");
	strbuf_append_html(b, title);
	strbuf_printf(b, "</title>\n<style>%s</style>\n</head>\n<body>\n", page_css);
}

static void append_figure(struct strbuf *b, double v, enum fig_format fmt)
{
	if (isnan(v)) {
		strbuf_append(b, "<span class=\"muted\">n/a</span>");
		return;
	}
	switch (fmt) {
	case F_MB_FROM_KB:
		strbuf_printf(b, "%.1f", v / 1024);
		break;
	case F_KB_FROM_BYTES:
		strbuf_printf(b, "%.1f", v / 1024);
		break;
	case F_MB:
		strbuf_printf(b, "%+.2f", v);
		break;
	case F_SHARE:
		strbuf_printf(b, "%.1f%%", v * 100);
		break;
	case F_MS:
		strbuf_printf(b, "%.1f", v);
		break;
	case F_MS3:
	case F_NUMBER: {
		char text[64];
		strbuf_append(b, fixed_point(text, sizeof(text), v, 3));
		break;
	}
	case F_RATIO:
		strbuf_printf(b, "%.2f", v);
		break;
	case F_COUNT:
		strbuf_printf(b, "%.0f", v);
		break;
	}
}

/* A value that says nothing (null, "", "-", an object or array of such) is left out. */
static bool json_empty(const json_t *v)
{
	if (!v || json_is_null(v))
		return true;
	if (json_is_string(v))
		return !*json_string_value(v) || strcmp(json_string_value(v), "-") == 0;
	const char *k;
	json_t *x;
	size_t i;
	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, k, x) if (!json_empty(x)) return false;
		return true;
	}
	if (json_is_array(v)) {
		json_array_foreach(v, i, x) if (!json_empty(x)) return false;
		return true;
	}
	return false;
}

/* A JSON value as text, numbers written one way everywhere (integers whole, others to four
 * significant digits, fixed-point: 0.168, not 0.16800000000000001; 12346, not 1.235e+04); objects
 * become "k=v, ..." and arrays "a, b", nested ones in parentheses, empty fields left out. */
static void append_json_text(struct strbuf *b, const json_t *v)
{
	if (json_empty(v)) {
		strbuf_append(b, "<span class=\"muted\">n/a</span>");
	} else if (json_is_string(v)) {
		strbuf_append_html(b, json_string_value(v));
	} else if (json_is_integer(v)) {
		strbuf_printf(b, "%lld", (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		char text[64];
		strbuf_append(b, fixed_point(text, sizeof(text), json_real_value(v), 4));
	} else if (json_is_boolean(v)) {
		strbuf_append(b, json_is_true(v) ? "yes" : "no");
	} else if (json_is_object(v)) {
		const char *k;
		json_t *x;
		bool first = true;
		json_object_foreach((json_t *)v, k, x)
		{
			if (json_empty(x))
				continue;
			strbuf_append(b, first ? "" : ", ");
			strbuf_append_html(b, k);
			strbuf_append(b, "=");
			bool nested = json_is_object(x) || json_is_array(x);
			strbuf_append(b, nested ? "(" : "");
			append_json_text(b, x);
			strbuf_append(b, nested ? ")" : "");
			first = false;
		}
	} else if (json_is_array(v)) {
		size_t i;
		json_t *x;
		bool first = true;
		json_array_foreach(v, i, x)
		{
			if (json_empty(x))
				continue;
			strbuf_append(b, first ? "" : ", ");
			append_json_text(b, x);
			first = false;
		}
	}
}

/* A row of the context table; a field with nothing in it is left out. */
static void kv_row(struct strbuf *b, const char *label, const json_t *v)
{
	if (json_empty(v))
		return;
	strbuf_append(b, "<tr><th>");
	strbuf_append_html(b, label);
	strbuf_append(b, "</th><td>");
	append_json_text(b, v);
	strbuf_append(b, "</td></tr>\n");
}

/* What the run page's sections are rendered from (sections.h). */
struct page_input {
	const json_t *run_json, *summary, *findings;
	const struct chart *charts;
	size_t n_charts;
	const char *charts_error; /* why there are no charts, or NULL */
};

/* A section's heading, its id the anchor the page's links point at. */
static void html_heading(struct strbuf *b, const struct report_section *sec)
{
	strbuf_printf(b, "<h2 id=\"%s\">%s</h2>\n", sec->id, sec->title);
}

static void append_status_banner(struct strbuf *b, const json_t *summary)
{
	const json_t *run = json_object_get(summary, "run");
	const char *status = json_string_value(json_object_get(run, "status"));
	bool truncated = json_is_true(json_object_get(run, "timeline_truncated")) ||
	                 json_is_true(json_object_get(run, "events_truncated"));
	double planned = summary_number(run, "schedule_duration_s"),
	       last = summary_number(run, "last_t_s");
	bool short_timeline = !isnan(planned) && !isnan(last) &&
	                      last < planned - 2 * summary_number(summary, "interval_s");
	if (status && strcmp(status, "completed") == 0 && !truncated && !short_timeline) {
		strbuf_append(b, "<p class=\"ok\" id=\"status\">Status: completed.</p>\n");
		return;
	}
	strbuf_append(b, "<div class=\"banner\" id=\"status\"><strong>Status: ");
	strbuf_append_html(b, status ? status : "unknown");
	strbuf_append(b, ".</strong> ");
	if (status && strcmp(status, "interrupted") == 0)
		strbuf_append(b, "This run was interrupted before it finished. ");
	else if (status && strcmp(status, "failed") == 0)
		strbuf_append(b, "This run failed. ");
	else if (status && strcmp(status, "running") == 0)
		strbuf_append(b, "This run had not finished when the report was made (or its "
		                 "scenario stopped without saying so). ");
	const json_t *stop = json_object_get(run, "stop_event");
	if (json_is_object(stop)) {
		strbuf_printf(b, "Stopped at %.1f s", summary_number(stop, "t_s"));
		if (json_object_get(stop, "signal") &&
		    !json_is_null(json_object_get(stop, "signal"))) {
			strbuf_append(b, " (signal ");
			append_json_text(b, json_object_get(stop, "signal"));
			strbuf_append(b, ")");
		}
		strbuf_append(b, ". ");
	}
	if (json_is_object(stop) && json_is_string(json_object_get(stop, "reason"))) {
		strbuf_append(b, "Reason: ");
		strbuf_append_html(b, json_string_value(json_object_get(stop, "reason")));
		strbuf_append(b, ". ");
	}
	strbuf_printf(b, "The figures cover what was recorded, up to %.1f s. ",
	              summary_number(run, "last_t_s"));
	if (short_timeline)
		strbuf_printf(b, "The timeline covers %.1f s of the schedule's %.1f s. ", last,
		              planned);
	if (truncated)
		strbuf_append(b, "The last line of a file was cut off mid-write and was left out.");
	strbuf_append(b, "</div>\n");
}

static void append_hierarchy_text(struct strbuf *b, const json_t *h, const json_t *applied);

/* The scenario's options less those the world set instead (run.json leaves the hierarchy's
 * figure null then): the lan world's defaults a reader would take for what the run applied. */
static json_t *options_applied(const json_t *options, const json_t *hierarchy)
{
	static const struct {
		const char *option, *hierarchy_key;
	} set_by_world[] = {{"loss", "loss"}, {"latency_ms", "latency_ms_median"}};
	json_t *out = json_copy((json_t *)options);
	for (size_t i = 0; json_is_object(out) && i < sizeof(set_by_world) / sizeof(*set_by_world);
	     i++)
		if (json_is_null(json_object_get(hierarchy, set_by_world[i].hierarchy_key)))
			json_object_del(out, set_by_world[i].option);
	return out;
}

static void html_context(struct strbuf *b, const struct page_input *in,
                         const struct report_section *sec)
{
	const json_t *run_json = in->run_json, *summary = in->summary;
	const json_t *params = json_object_get(run_json, "parameters");
	const json_t *machine = json_object_get(run_json, "machine");
	const json_t *qf = json_object_get(run_json, "queryfile");
	html_heading(b, sec);
	strbuf_append(b, "<div class=\"scroll\"><table "
	                 "class=\"kv\">\n");
	kv_row(b, "scenario", json_object_get(run_json, "scenario"));
	kv_row(b, "started", json_object_get(run_json, "started"));
	kv_row(b, "ended", json_object_get(run_json, "ended"));
	kv_row(b, "status", json_object_get(run_json, "status"));
	kv_row(b, "machine: cores", json_object_get(machine, "cores"));
	json_t *mem = json_object_get(machine, "memory_kb");
	if (json_is_number(mem)) {
		json_t *gb = json_real(json_number_value(mem) / 1048576.0);
		char text[64];
		snprintf(text, sizeof(text), "%.1f GB", json_real_value(gb));
		json_decref(gb);
		json_t *s = json_string(text);
		kv_row(b, "machine: memory", s);
		json_decref(s);
	}
	kv_row(b, "machine: kernel", json_object_get(machine, "kernel"));
	kv_row(b, "machine: transparent huge pages", json_object_get(machine, "thp"));
	kv_row(b, "machine: open files limit", json_object_get(machine, "open_files_limit"));
	kv_row(b, "mode", json_object_get(params, "mode"));
	kv_row(b, "CPU placement", json_object_get(params, "cpu_placement"));
	kv_row(b, "schedule", json_object_get(params, "schedule"));
	kv_row(b, "sampling interval (ms)", json_object_get(params, "interval_ms"));
	const json_t *hierarchy = json_object_get(params, "hierarchy");
	const json_t *applied = json_object_get(summary, "hierarchy_applied");
	if (!json_empty(hierarchy) || json_is_object(applied)) {
		strbuf_append(b, "<tr><th>hierarchy (what it applied)</th><td>");
		append_hierarchy_text(b, hierarchy, applied);
		strbuf_append(b, "</td></tr>\n");
	}
	kv_row(b, "hierarchy settings", json_object_get(params, "hierarchy"));
	kv_row(b, "resolver settings", json_object_get(params, "resolver"));
	kv_row(b, "query file", json_object_get(qf, "path"));
	kv_row(b, "query file statistics", json_object_get(qf, "stats"));
	kv_row(b, "calibration", json_object_get(run_json, "calibration"));
	/* Parameters the contract may grow: shown rather than dropped. */
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)params, k, v)
	{
		static const char *const shown[] = {"mode",        "cpu_placement", "schedule",
		                                    "interval_ms", "hierarchy",     "resolver"};
		bool known = false;
		for (size_t i = 0; i < sizeof(shown) / sizeof(*shown); i++)
			known = known || strcmp(k, shown[i]) == 0;
		if (known)
			continue;
		json_t *shown_v = strcmp(k, "options") == 0
		                      ? options_applied(v, json_object_get(params, "hierarchy"))
		                      : json_incref(v);
		kv_row(b, k, shown_v);
		json_decref(shown_v);
	}
	kv_row(b, "spikes recorded", json_object_get(summary, "spike_count"));
	/* the run on more than one host: where each variant ran */
	if (json_array_size(json_object_get(summary, "hosts")) > 1)
		json_object_foreach((json_t *)json_object_get(summary, "variants"), k, v)
		{
			char label[160];
			snprintf(label, sizeof(label), "host of %s", k);
			json_t *host = json_object_get(v, "host");
			json_t *unknown = json_is_string(host) ? NULL : json_string("unknown");
			kv_row(b, label, unknown ? unknown : host);
			json_decref(unknown);
		}
	/* variants sampled by an agent on another host: its host, coverage, clock offsets */
	json_object_foreach((json_t *)json_object_get(summary, "agents"), k, v)
	{
		char label[160];
		snprintf(label, sizeof(label), "agent of %s", k);
		kv_row(b, label, json_object_get(v, "text"));
	}
	strbuf_append(b, "</table></div>\n");
}

static void append_swatch(struct strbuf *b, const char *colour)
{
	strbuf_printf(b, "<span class=\"swatch\" style=\"background:%s\"></span>", colour);
}

/* The hierarchy's world and what the run set of it; a world other than lan draws each server's
 * RTT and has its own loss, which run.json then leaves null (docs/run-folder.md). */
static void append_hierarchy_text(struct strbuf *b, const json_t *h, const json_t *applied)
{
	const json_t *world = json_object_get(h, "world");
	const json_t *median = json_object_get(h, "latency_ms_median");
	const json_t *loss = json_object_get(h, "loss");
	if (json_is_string(world)) {
		strbuf_append_html(b, json_string_value(world));
		strbuf_append(b, " world, ");
	}
	if (json_is_number(json_object_get(applied, "loss"))) { /* hierarchy_applied.h */
		strbuf_printf(b, "applied: loss %.1f %%, mean delay %.0f ms",
		              100 * json_number_value(json_object_get(applied, "loss")),
		              json_number_value(json_object_get(applied, "delay_mean_ms")));
		return;
	}
	if (json_is_null(median) && json_is_string(world)) {
		strbuf_append(b, "a base RTT per server");
	} else {
		strbuf_append(b, "latency ");
		append_json_text(b, median);
		strbuf_append(b, " ms median, ");
		append_json_text(b, json_object_get(h, "latency_ms_p99"));
		strbuf_append(b, " ms p99");
	}
	strbuf_append(b, ", loss ");
	if (json_is_null(loss) && json_is_string(world))
		/* the world's own figure, which only the applied summary records */
		strbuf_append(b,
		              "set by the world, not recorded (no upstream-applied-summary.tsv)");
	else
		append_json_text(b, loss);
}

/* One line with the context a reader needs first; the full table is further down. */
static void append_context_line(struct strbuf *b, const json_t *run_json, const json_t *summary)
{
	const json_t *params = json_object_get(run_json, "parameters");
	const json_t *machine = json_object_get(run_json, "machine");
	const json_t *h = json_object_get(params, "hierarchy");
	strbuf_append(b, "<p class=\"context-line\" id=\"context-line\">");
	strbuf_append(b, "<strong>Machine</strong> ");
	append_json_text(b, json_object_get(machine, "cores"));
	strbuf_append(b, " cores, kernel ");
	append_json_text(b, json_object_get(machine, "kernel"));
	strbuf_append(b, ", THP ");
	append_json_text(b, json_object_get(machine, "thp"));
	strbuf_append(b, " &middot; <strong>mode</strong> ");
	append_json_text(b, json_object_get(params, "mode"));
	strbuf_append(b, " &middot; <strong>schedule</strong> <code>");
	append_json_text(b, json_object_get(params, "schedule"));
	strbuf_append(b, "</code> &middot; <strong>hierarchy</strong> ");
	append_hierarchy_text(b, h, json_object_get(summary, "hierarchy_applied"));
	strbuf_append(b, " &middot; <strong>queries</strong> ");
	append_json_text(b, json_object_get(json_object_get(run_json, "queryfile"), "path"));
	strbuf_append(b, " &middot; <strong>variants</strong> ");
	size_t i;
	json_t *name;
	json_array_foreach(json_object_get(summary, "variant_order"), i, name)
	{
		const json_t *v =
		    json_object_get(json_object_get(summary, "variants"), json_string_value(name));
		strbuf_append(b, i ? ", " : "");
		append_swatch(b, colours_of(summary, json_string_value(name)));
		strbuf_append_html(b, json_string_value(name));
		if (json_is_string(json_object_get(v, "allocator"))) {
			strbuf_append(b, " (");
			strbuf_append_html(b, json_string_value(json_object_get(v, "allocator")));
			strbuf_append(b, ")");
		}
	}
	strbuf_append(b, "</p>\n");
}

static void html_variants(struct strbuf *b, const struct page_input *in,
                          const struct report_section *sec)
{
	const json_t *run_json = in->run_json, *summary = in->summary;
	html_heading(b, sec);
	strbuf_append(b, "<div class=\"scroll\"><table>\n"
	                 "<tr><th>variant</th><th>kind</th><th>allocator</th><th>libc</th>"
	                 "<th>library</th><th>environment</th><th>version (as the binary reports "
	                 "it)</th><th>note</th></tr>\n");
	const json_t *order = json_object_get(summary, "variant_order");
	size_t i;
	json_t *name;
	json_array_foreach(order, i, name)
	{
		const json_t *meta = NULL, *row;
		size_t j;
		json_array_foreach(json_object_get(run_json, "variants"), j, row)
		{
			if (json_equal(json_object_get(row, "name"), name))
				meta = row;
		}
		strbuf_append(b, "<tr><td>");
		append_swatch(b, colours_of(summary, json_string_value(name)));
		strbuf_append_html(b, json_string_value(name));
		static const char *const cols[] = {"kind", "allocator", "libc", "library",
		                                   "env",  "version",   "note"};
		for (size_t c = 0; c < sizeof(cols) / sizeof(*cols); c++) {
			strbuf_append(b, "</td><td style=\"text-align:left\">");
			append_json_text(b, json_object_get(meta, cols[c]));
		}
		strbuf_append(b, "</td></tr>\n");
	}
	strbuf_append(b, "</table></div>\n");
}

/* A sentence with each allocator term it uses linked, the first time, to its explanation in the
 * glossary at the foot of the page. */
static void append_linked_html(struct strbuf *b, const char *text)
{
	bool linked[64] = {false}; /* more than the glossary's terms */
	size_t from = 0, pos = 0, len;
	for (int t; text && (t = glossary_next(text, &pos, &len)) >= 0; from = pos += len) {
		strbuf_append_html_n(b, text + from, pos - from);
		if (linked[t]) {
			strbuf_append_html_n(b, text + pos, len);
			continue;
		}
		linked[t] = true;
		strbuf_printf(b, "<a class=\"term\" href=\"#term-%s\">",
		              glossary_at((size_t)t)->slug);
		strbuf_append_html_n(b, text + pos, len);
		strbuf_append(b, "</a>");
	}
	strbuf_append_html(b, text ? text + from : "");
}

/* The explanation of every allocator term the sentences link to. */
static void html_glossary(struct strbuf *b, const struct page_input *in,
                          const struct report_section *sec)
{
	(void)in;
	html_heading(b, sec);
	strbuf_append(b, "<dl class=\"glossary\">\n");
	for (size_t i = 0; i < glossary_count(); i++) {
		const struct glossary_term *t = glossary_at(i);
		strbuf_printf(b, "<dt id=\"term-%s\">", t->slug);
		strbuf_append_html(b, t->term);
		strbuf_append(b, "</dt><dd>");
		strbuf_append_html(b, t->definition);
		strbuf_append(b, "</dd>\n");
	}
	strbuf_append(b, "</dl>\n");
}

static void html_findings(struct strbuf *b, const struct page_input *in,
                          const struct report_section *sec)
{
	const json_t *findings = in->findings;
	html_heading(b, sec);
	strbuf_append(b, "<ul class=\"findings\">\n");
	size_t i;
	json_t *s;
	json_array_foreach(findings, i, s)
	{
		strbuf_append(b, "<li>");
		append_linked_html(b, json_string_value(s));
		strbuf_append(b, "</li>\n");
	}
	strbuf_append(b, "</ul>\n");
}

static void append_chart(struct strbuf *b, const struct chart *c)
{
	strbuf_printf(b, "<section class=\"chart-box\" id=\"%s\">\n<h3 id=\"%s-title\">", c->id,
	              c->id);
	strbuf_append_html(b, c->title);
	strbuf_append(b, "</h3>\n");
	/* in a narrow window a chart keeps a readable size and scrolls sideways */
	if (c->svg)
		strbuf_printf(b, "<div class=\"scroll\">%s</div>", c->svg);
	else
		strbuf_append(b, "<p class=\"nochart\">No data recorded for this chart.</p>");
	strbuf_append(b, "\n<p class=\"caption\">");
	strbuf_append_html(b, c->caption);
	strbuf_append(b, "</p>\n</section>\n");
}

static void append_charts_error(struct strbuf *b, const char *error)
{
	if (!error)
		return;
	strbuf_append(b, "<p class=\"banner\">Charts could not be drawn: ");
	strbuf_append_html(b, error);
	strbuf_append(b, "</p>\n");
}

static void html_charts(struct strbuf *b, const struct page_input *in,
                        const struct report_section *sec)
{
	const struct chart *charts = in->charts;
	size_t n = in->n_charts;
	const char *error = in->charts_error;
	html_heading(b, sec);
	append_charts_error(b, error);
	for (size_t i = 0; i < n; i++)
		if (strcmp(charts[i].id, "chart-ranking") != 0) /* at the top, with the verdict */
			append_chart(b, &charts[i]);
}

/* The verdict: a sentence per variant, then the ranking chart. */
static void html_verdict(struct strbuf *b, const struct page_input *in,
                         const struct report_section *sec)
{
	const json_t *summary = in->summary;
	const struct chart *charts = in->charts;
	size_t n_charts = in->n_charts;
	const json_t *verdict = json_object_get(summary, "verdict");
	html_heading(b, sec);
	strbuf_append(b, "<ul class=\"verdict\">\n");
	size_t i;
	json_t *name;
	json_array_foreach(json_object_get(summary, "variant_order"), i, name)
	{
		strbuf_append(b, "<li>");
		append_swatch(b, colours_of(summary, json_string_value(name)));
		append_linked_html(
		    b, json_string_value(json_array_get(json_object_get(verdict, "sentences"), i)));
		strbuf_append(b, "</li>\n");
	}
	strbuf_append(b, "</ul>\n");
	for (size_t c = 0; c < n_charts; c++)
		if (strcmp(charts[c].id, "chart-ranking") == 0)
			append_chart(b, &charts[c]);
}

/* Which variants the run is valid for ("valid for glibc and jemalloc; musl over its capacity"),
 * amber when a reason names a variant. */
static void append_validity_variants(struct strbuf *b, const json_t *validity)
{
	const char *text = json_string_value(json_object_get(validity, "variants_text"));
	if (!text || !*text)
		return;
	bool marked = json_is_true(json_object_get(validity, "variants_marked"));
	strbuf_printf(
	    b, "<p class=\"%s\" id=\"validity-variants\">Per variant: ", marked ? "amber" : "ok");
	strbuf_append_html(b, text);
	strbuf_append(b, ".</p>\n");
}

/* Every reason the run may not show what it claims, each with the knob to turn. */
static void append_validity(struct strbuf *b, const json_t *summary)
{
	const json_t *validity = json_object_get(summary, "validity");
	if (json_is_true(json_object_get(validity, "valid"))) {
		/* the spikes' minimum as validity.c checks it: a trend needs more (verdict.c says
		 * so) */
		strbuf_printf(b,
		              "<p class=\"ok\" id=\"validity\">Validity: nothing found that "
		              "would keep this run from showing what it claims (complete, warm-up "
		              "steady, harness not saturated, spikes within capacity, calibration "
		              "not capped, no crash, %d spikes or more).</p>\n",
		              VALIDITY_MIN_SPIKES);
		append_validity_variants(b, validity);
		return;
	}
	strbuf_append(b, "<div class=\"banner\" id=\"validity\"><strong>This run may not show "
	                 "what it claims.</strong>\n");
	append_validity_variants(b, validity);
	strbuf_append(b, "<ul>\n");
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(validity, "reasons"), i, r)
	{
		strbuf_append(b, "<li><code>");
		strbuf_append_html(b, json_string_value(json_object_get(r, "code")));
		strbuf_append(b, "</code> ");
		strbuf_append_html(b, json_string_value(json_object_get(r, "text")));
		strbuf_append(b, " <em>Knob:</em> ");
		strbuf_append_html(b, json_string_value(json_object_get(r, "knob")));
		strbuf_append(b, "</li>\n");
	}
	strbuf_append(b, "</ul></div>\n");
}

/* The variant-by-spike grid: peak / end of recovery, anon RSS. */
static void html_grid(struct strbuf *b, const struct page_input *in,
                      const struct report_section *sec)
{
	const json_t *summary = in->summary;
	html_heading(b, sec);
	strbuf_append(b, "<p "
	                 "class=\"caption\">Anonymous RSS in MB: the highest from the spike's "
	                 "start to the end of its recovery / the value at the end of the "
	                 "recovery.</p>\n<div class=\"scroll\"><table id=\"spike-grid\">\n<tr>"
	                 "<th>variant</th>");
	json_int_t *numbers;
	size_t n_spikes = spike_find_numbers(summary, &numbers);
	for (size_t k = 0; k < n_spikes; k++)
		strbuf_printf(b, "<th>spike %lld</th>", (long long)numbers[k]);
	strbuf_append(b, "</tr>\n");
	size_t i;
	json_t *name;
	json_array_foreach(json_object_get(summary, "variant_order"), i, name)
	{
		const json_t *v =
		    json_object_get(json_object_get(summary, "variants"), json_string_value(name));
		strbuf_append(b, "<tr><td>");
		append_swatch(b, colours_of(summary, json_string_value(name)));
		strbuf_append_html(b, json_string_value(name));
		strbuf_append(b, "</td>");
		/* one cell per spike number, so a variant that missed a spike keeps the columns */
		for (size_t k = 0; k < n_spikes; k++) {
			const json_t *sp = spike_find(json_object_get(v, "spikes"), numbers[k]);
			char cell[64];
			if (sp)
				strbuf_printf(b, "<td>%s</td>",
				              verdict_grid_cell(sp, cell, sizeof(cell)));
			else
				strbuf_append(b, "<td><span class=\"muted\">n/a</span></td>");
		}
		strbuf_append(b, "</tr>\n");
	}
	strbuf_append(b, "</table></div>\n");
	free(numbers);
}

/* The machine's busy share in the spikes (machine_busy.h), and what it means when near full. */
static void append_machine_busy(struct strbuf *b, const json_t *m)
{
	if (!json_is_object(m))
		return;
	double p95 = summary_number(m, "spikes_p95");
	strbuf_printf(
	    b,
	    "<p id=\"machine-busy\">In the spikes the run's %.0f processes kept the "
	    "machine's %.0f cores %.0f %% busy on average, %.0f %% at the 95th percentile "
	    "of one-second windows.",
	    summary_number(m, "processes"), summary_number(m, "cores"),
	    100 * summary_number(m, "spikes_mean"), 100 * p95);
	if (p95 >= MACHINE_BUSY_SHARE)
		strbuf_append(
		    b, " So busy, a short stall of the machine piles requests up at every "
		       "variant at once: how high a spike's pile-up goes (requests in flight), "
		       "and the held memory that follows it, varies from run to run more than "
		       "the allocators do. Compare spikes by their pile-up (the spread table "
		       "of <code>--repeat</code>), or run fewer variants at once "
		       "(<code>--serial</code>) or lower <code>--spike-multiple</code>.");
	strbuf_append(b, "</p>\n");
}

/* Traffic per query by the phase each was sent in, with the rcodes and true quantiles. */
static void html_traffic(struct strbuf *b, const struct page_input *in,
                         const struct report_section *sec)
{
	const json_t *summary = in->summary;
	const json_t *order = json_object_get(summary, "variant_order");
	const json_t *variants = json_object_get(summary, "variants");
	const char *source = json_string_value(
	    summary_lookup(json_object_get(variants, json_string_value(json_array_get(order, 0))),
	                   "traffic_by_send.source"));
	bool by_send = source && strcmp(source, "phases.csv") == 0;
	html_heading(b, sec);
	strbuf_append(b, "<p class=\"caption\">");
	if (by_send)
		strbuf_append(b,
		              "Each query is counted in the phase it was sent in (phases.csv): an "
		              "answer that arrives after its spike ended still counts as answered "
		              "in the spike. Lost: given up (timed out); late: answers that came "
		              "after the query was given up; pending: still awaited when the file "
		              "was written. The rcodes split the answered queries. Latency: true "
		              "quantiles of all the answers of the phase, from the merged "
		              "histograms; " TRAFFIC_LATENCY_PRECISION ".");
	else
		strbuf_append(b, "This run has no phases.csv (an older run folder): counts are "
		                 "summed from timeline.csv by the interval each answer or timeout "
		                 "happened in, so answers to a spike's queries that arrive in the "
		                 "recovery count there, and the answered share can pass 100 %. No "
		                 "latency histograms: see the interval quantiles in the figure "
		                 "table.");
	strbuf_append(b, "</p>\n<div class=\"scroll\"><table id=\"traffic-table\">\n<tr><th>variant"
	                 "</th><th>phase</th><th>sent</th><th>answered</th><th>answered share"
	                 "</th><th>lost</th><th>late</th><th>pending</th><th>NOERROR</th>"
	                 "<th>NXDOMAIN</th><th>SERVFAIL</th><th>other rcode</th><th>p50 (ms)</th>"
	                 "<th>p90 (ms)</th><th>p99 (ms)</th><th>p99.9 (ms)</th><th>max (ms)</th>"
	                 "</tr>\n");
	static const struct {
		const char *key;
		enum fig_format fmt;
	} cols[] = {{"sent", F_COUNT},        {"answered", F_COUNT},  {"answered_share", F_SHARE},
	            {"lost", F_COUNT},        {"late", F_COUNT},      {"pending", F_COUNT},
	            {"noerror", F_COUNT},     {"nxdomain", F_COUNT},  {"servfail", F_COUNT},
	            {"rcode_other", F_COUNT}, {"lat_p50_ms", F_MS3},  {"lat_p90_ms", F_MS3},
	            {"lat_p99_ms", F_MS3},    {"lat_p999_ms", F_MS3}, {"lat_max_ms", F_MS3}};
	size_t i;
	json_t *name;
	json_array_foreach(order, i, name)
	{
		const json_t *phases = summary_lookup(
		    json_object_get(variants, json_string_value(name)), "traffic_by_send.phases");
		for (size_t p = 0; p < MODEL_TRAFFIC_PHASE_COUNT; p++) {
			const json_t *ph = json_object_get(phases, model_traffic_phases[p]);
			if (!ph)
				continue;
			strbuf_append(b, "<tr><td>");
			append_swatch(b, colours_of(summary, json_string_value(name)));
			strbuf_append_html(b, json_string_value(name));
			strbuf_printf(b, "</td><td>%s</td>", model_traffic_phases[p]);
			for (size_t c = 0; c < sizeof(cols) / sizeof(*cols); c++) {
				strbuf_append(b, "<td>");
				append_figure(b, summary_number(ph, cols[c].key), cols[c].fmt);
				strbuf_append(b, "</td>");
			}
			strbuf_append(b, "</tr>\n");
		}
	}
	strbuf_append(b, "</table></div>\n");
}

static void html_spike_table(struct strbuf *b, const struct page_input *in,
                             const struct report_section *sec)
{
	const json_t *summary = in->summary;
	html_heading(b, sec);
	strbuf_append(
	    b, "<p class=\"caption\">Anonymous RSS "
	       "in MB. Before: the last value before the spike; peak: the highest from "
	       "the spike's start to the end of its recovery; end: the last value of the "
	       "recovery; given back: (peak &minus; end) / (peak &minus; before). "
	       "Attributed, in MB: live (what the program holds) and held (what the "
	       "allocator holds beyond it) at the peak and at the end; returned: what left "
	       "the allocator's footprint from the peak to the end; allocator's part "
	       "given back: returned / (returned + growth of held); per request: growth "
	       "of live memory beyond the cache over growth of requests in flight, up to "
	       "the peak (kB); held per 1,000 in flight: held at the end over the most "
	       "requests in flight at any peak so far, in thousands (MB); held share: held "
	       "at the end over the allocator&#39;s highest footprint so far.</p>\n"
	       "<div class=\"scroll\"><table id=\"spike-table\">\n<tr><th>variant</th>"
	       "<th>spike</th><th>start (s)</th><th>before</th><th>peak</th>"
	       "<th>peak RSS</th><th>end of recovery</th><th>given back</th>"
	       "<th>end beyond cache</th><th>live at peak</th><th>held at peak</th>"
	       "<th>live at end</th><th>held at end</th><th>returned</th>"
	       "<th>allocator&#39;s part returned to the system</th><th>per request in flight "
	       "(kB)</th><th>peak in flight</th><th>held per 1,000 in flight (highest peak)</th>"
	       "<th>held share of highest footprint</th></tr>\n");
	const json_t *order = json_object_get(summary, "variant_order");
	size_t i;
	json_t *name;
	json_array_foreach(order, i, name)
	{
		const json_t *v =
		    json_object_get(json_object_get(summary, "variants"), json_string_value(name));
		size_t k;
		json_t *sp;
		json_array_foreach(json_object_get(v, "spikes"), k, sp)
		{
			strbuf_append(b, "<tr><td>");
			append_swatch(b, colours_of(summary, json_string_value(name)));
			strbuf_append_html(b, json_string_value(name));
			strbuf_printf(b, "</td><td>%lld</td><td>",
			              (long long)json_integer_value(json_object_get(sp, "spike")));
			append_figure(b, summary_number(sp, "from_s"), F_MS);
			static const struct {
				const char *key;
				enum fig_format fmt;
			} cols[] = {{"before_anon_kb", F_MB_FROM_KB},
			            {"peak_anon_kb", F_MB_FROM_KB},
			            {"peak_rss_kb", F_MB_FROM_KB},
			            {"end_anon_kb", F_MB_FROM_KB},
			            {"given_back_share", F_SHARE},
			            {"end_beyond_cache_kb", F_MB_FROM_KB},
			            {"peak_live_kb", F_MB_FROM_KB},
			            {"peak_held_kb", F_MB_FROM_KB},
			            {"end_live_kb", F_MB_FROM_KB},
			            {"end_held_kb", F_MB_FROM_KB},
			            {"returned_kb", F_MB_FROM_KB},
			            {"held_returned_share", F_SHARE},
			            {"live_bytes_per_inflight", F_KB_FROM_BYTES},
			            {"peak_inflight", F_COUNT},
			            {"end_held_mb_per_1000_highest_inflight", F_RATIO},
			            {"end_held_share_of_highest_heap", F_SHARE}};
			for (size_t c = 0; c < sizeof(cols) / sizeof(*cols); c++) {
				strbuf_append(b, "</td><td>");
				append_figure(b, summary_number(sp, cols[c].key), cols[c].fmt);
			}
			strbuf_append(b, "</td></tr>\n");
		}
	}
	strbuf_append(b, "</table></div>\n");
}

static void html_figure_table(struct strbuf *b, const struct page_input *in,
                              const struct report_section *sec)
{
	const json_t *summary = in->summary;
	html_heading(b, sec);
	strbuf_append(b,
	              "<p class=\"caption\">"
	              "MB = 1024 kB. Warm-up and calibration are left out of spike, CPU and "
	              "traffic figures. Every figure is in summary.json under the name given in "
	              "reports/README.md.</p>\n<div class=\"scroll\"><table id=\"figure-table\">\n"
	              "<tr><th>figure</th>");
	const json_t *order = json_object_get(summary, "variant_order");
	size_t i;
	json_t *name;
	json_array_foreach(order, i, name)
	{
		strbuf_append(b, "<th>");
		append_swatch(b, colours_of(summary, json_string_value(name)));
		strbuf_append_html(b, json_string_value(name));
		strbuf_append(b, "</th>");
	}
	strbuf_append(b, "</tr>\n");
	for (size_t f = 0; f < N_FIGURES; f++) {
		strbuf_append(b, "<tr><td>");
		strbuf_append_html(b, figures[f].label);
		strbuf_append(b, "</td>");
		json_array_foreach(order, i, name)
		{
			const json_t *v = json_object_get(json_object_get(summary, "variants"),
			                                  json_string_value(name));
			strbuf_append(b, "<td>");
			append_figure(b, summary_number(v, figures[f].path), figures[f].fmt);
			strbuf_append(b, "</td>");
		}
		strbuf_append(b, "</tr>\n");
	}
	strbuf_append(b, "</table></div>\n");
}

static void html_health(struct strbuf *b, const struct page_input *in,
                        const struct report_section *sec)
{
	const json_t *summary = in->summary;
	html_heading(b, sec);
	struct strbuf rows = {0};
	const char *name;
	json_t *v;
	json_object_foreach(json_object_get(summary, "variants"), name, v)
	{
		size_t i;
		json_t *c;
		json_array_foreach(json_object_get(v, "crashes"), i, c)
		{
			strbuf_append(&rows, "<tr><td>");
			strbuf_append_html(&rows, name);
			strbuf_printf(&rows, "</td><td>%.1f</td><td style=\"text-align:left\">",
			              summary_number(c, "t_s"));
			append_json_text(&rows, c);
			strbuf_append(&rows, "</td></tr>\n");
		}
	}
	if (rows.len)
		strbuf_printf(b,
		              "<div class=\"scroll\"><table id=\"crash-table\"><tr><th>variant"
		              "</th><th>time (s)</th><th>event</th></tr>\n%s</table></div>\n",
		              rows.s);
	else
		strbuf_append(b, "<p>No variant exited with a signal or a non-zero code, and none "
		                 "disappeared.</p>\n");
	strbuf_free(&rows);

	const json_t *h = json_object_get(summary, "harness");
	strbuf_printf(b,
	              "<p>The harness counts as saturated in an interval where the load "
	              "generator or the hierarchy used more than %.1f core, or when the generator "
	              "reported <code>harness_saturated</code>. Highest use: ",
	              summary_number(h, "threshold_cores"));
	const char *t;
	bool first = true;
	json_object_foreach(json_object_get(h, "max_cpu_share"), t, v)
	{
		strbuf_append(b, first ? "" : ", ");
		strbuf_append_html(b, t);
		strbuf_append(b, " ");
		append_figure(b, summary_value_number(v), F_RATIO);
		strbuf_append(b, " core");
		first = false;
	}
	strbuf_append(b, first ? "no harness rows recorded.</p>\n" : ".</p>\n");
	append_machine_busy(b, json_object_get(summary, "machine_busy"));
	size_t i;
	json_t *p;
	if (json_array_size(json_object_get(h, "saturated_periods")) +
	        json_array_size(json_object_get(h, "saturated_events")) ==
	    0) {
		strbuf_append(b, "<p>The harness was not saturated.</p>\n");
		return;
	}
	strbuf_append(b, "<div class=\"scroll\"><table id=\"harness-table\"><tr><th>process</th>"
	                 "<th>from (s)</th><th>to (s)</th><th>CPU (cores)</th></tr>\n");
	json_array_foreach(json_object_get(h, "saturated_periods"), i, p)
	{
		strbuf_append(b, "<tr><td>");
		strbuf_append_html(b, json_string_value(json_object_get(p, "target")));
		strbuf_printf(b, "</td><td>%.1f</td><td>%.1f</td><td>%.2f</td></tr>\n",
		              summary_number(p, "from_s"), summary_number(p, "to_s"),
		              summary_number(p, "max_cpu_share"));
	}
	json_array_foreach(json_object_get(h, "saturated_events"), i, p)
	{
		strbuf_append(b, "<tr><td>");
		strbuf_append_html(b, json_string_value(json_object_get(p, "variant")));
		strbuf_printf(b, " (event)</td><td>%.1f</td><td></td><td>",
		              summary_number(p, "t_s"));
		append_figure(b, summary_number(p, "cpu_share"), F_RATIO);
		strbuf_append(b, "</td></tr>\n");
	}
	strbuf_append(b, "</table></div>\n");
}

/* Nothing without transports.csv. */
static void html_transports(struct strbuf *b, const struct page_input *in,
                            const struct report_section *sec)
{
	if (!transports_any(in->summary))
		return;
	html_heading(b, sec);
	transports_html(b, in->summary);
}

#define HTML_SECTION(id, title, html, markdown) {{#id, title}, html},
static const struct {
	struct report_section s;
	void (*render)(struct strbuf *, const struct page_input *, const struct report_section *);
} html_sections[] = {REPORT_SECTIONS(HTML_SECTION, NULL)};
#undef HTML_SECTION

char *html_run_page(const json_t *run_json, const json_t *summary, const json_t *findings,
                    const struct chart *charts, size_t n_charts, const char *charts_error)
{
	struct strbuf b = {0};
	const json_t *run = json_object_get(summary, "run");
	char title[512];
	snprintf(title, sizeof(title), "allocspike report: %s run of %s",
	         json_string_value(json_object_get(run, "scenario"))
	             ? json_string_value(json_object_get(run, "scenario"))
	             : "unnamed",
	         json_string_value(json_object_get(run, "started"))
	             ? json_string_value(json_object_get(run, "started"))
	             : "unknown time");
	page_begin(&b, title);
	strbuf_append(&b, "<header>\n<h1>");
	strbuf_append_html(&b, title);
	strbuf_append(&b, "</h1>\n<p class=\"muted\">Run folder <code>");
	strbuf_append_html(&b, json_string_value(json_object_get(run, "dir")));
	strbuf_append(&b, "</code></p>\n");
	append_context_line(&b, run_json, summary);
	append_status_banner(&b, summary);
	append_validity(&b, summary);
	strbuf_append(&b, "<nav><a href=\"#verdict\">Verdict</a><a href=\"#findings\">Findings</a>"
	                  "<a href=\"#charts\">Charts</a>");
	for (size_t i = 0; i < n_charts; i++)
		if (strncmp(charts[i].id, "chart-why", 9) == 0) {
			/* the first "why" panel: where the memory is and who holds it */
			strbuf_printf(&b, "<a href=\"#%s\">Why</a>", charts[i].id);
			break;
		}
	strbuf_append(&b, "<a href=\"#grid\">Peak / end</a><a href=\"#traffic\">Traffic</a>"
	                  "<a href=\"#spikes\">Per spike</a><a href=\"#figures\">Figures</a>"
	                  "<a href=\"#context\">Context</a><a href=\"#glossary\">Terms</a></nav>\n"
	                  "</header>\n<main>\n");
	const struct page_input in = {run_json, summary, findings, charts, n_charts, charts_error};
	for (size_t i = 0; i < sizeof(html_sections) / sizeof(*html_sections); i++)
		if (html_sections[i].render)
			html_sections[i].render(&b, &in, &html_sections[i].s);
	strbuf_append(&b,
	              "</main>\n<footer><p class=\"muted\">Made by allocspike-report from the "
	              "run folder above; the same figures are in its summary.json.</p></footer>\n"
	              "</body>\n</html>\n");
	return strbuf_take(&b);
}

/* Mean, sample standard deviation, min and max of the available values. */
static void spread(const double *x, size_t n, double *mean, double *sd, double *lo, double *hi,
                   size_t *m)
{
	double s = 0;
	*m = 0;
	*lo = *hi = NAN;
	for (size_t i = 0; i < n; i++)
		if (!isnan(x[i])) {
			s += x[i];
			(*m)++;
			if (isnan(*lo) || x[i] < *lo)
				*lo = x[i];
			if (isnan(*hi) || x[i] > *hi)
				*hi = x[i];
		}
	*mean = *m ? s / (double)*m : NAN;
	double ss = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(x[i]))
			ss += (x[i] - *mean) * (x[i] - *mean);
	*sd = *m >= 2 ? sqrt(ss / (double)(*m - 1)) : NAN;
}

/* The per-spike figures whose agreement across repeats the comparison states (README.md,
 * "Comparison"): the raw allocator-held memory, what drives its spread, and the held memory
 * normalised by it. */
static const struct figure_def spike_spread_figures[] = {
    {"peak_held_kb", "allocator-held at the peak (MB)", F_MB_FROM_KB},
    {"end_held_kb", "allocator-held after recovery (MB)", F_MB_FROM_KB},
    {"peak_inflight", "requests in flight at the peak", F_COUNT},
    {"highest_inflight", "most in flight at any peak so far", F_COUNT},
    {"end_held_mb_per_1000_highest_inflight", "held per 1,000 of those (MB)", F_RATIO},
    {"highest_heap_kb", "allocator's highest footprint so far (MB)", F_MB_FROM_KB},
    {"end_held_share_of_highest_heap", "held as a share of that footprint", F_SHARE},
};
enum { N_SPIKE_SPREAD = sizeof(spike_spread_figures) / sizeof(*spike_spread_figures) };
/* The held memory after recovery moved along its line over the pile-up (pileup.h): the row after
 * the figures above. */
static const struct figure_def pileup_figure = {
    NULL, "allocator-held after recovery at the spike's median pile-up (MB)", F_MB_FROM_KB};
#define PILEUP_X "highest_inflight"
#define PILEUP_Y "end_held_kb"

/* The spread as a share of the median, or for a share in percentage points (spread.h), flagged
 * when the repeats do not agree. */
static void append_spread_share(struct strbuf *b, const struct spread *s, bool agrees,
                                enum fig_format fmt)
{
	bool apart = s->n >= 2 && !agrees;
	if (apart)
		strbuf_append(b, "<strong style=\"color:#b00020\">");
	if (fmt == F_SHARE && s->n >= 2)
		strbuf_printf(b, "%.1f points", 100 * (s->max - s->min));
	else
		append_figure(b, s->share, F_SHARE);
	if (apart && fmt == F_SHARE)
		strbuf_printf(b, " &gt; %.0f points</strong>", SPREAD_SHARE_FLOOR_POINTS);
	else if (apart)
		strbuf_printf(b, " &gt; %.0f%%</strong>", SPREAD_AGREE_SHARE * 100);
}

/* Each run's value of a spike figure of variant vn, at [run * n_spikes + spike number - 1]. */
static double *spike_values(const json_t *const *summaries, size_t n_runs, const char *vn,
                            size_t n_spikes, const char *key)
{
	double *x = calloc(n_runs * n_spikes + 1, sizeof(*x));
	if (!x)
		abort();
	for (size_t r = 0; r < n_runs; r++) {
		const json_t *v = json_object_get(json_object_get(summaries[r], "variants"), vn);
		for (size_t k = 1; k <= n_spikes; k++) {
			char path[96];
			snprintf(path, sizeof(path), "spikes.%zu.%s", k, key);
			x[r * n_spikes + k - 1] = v ? summary_number(v, path) : NAN;
		}
	}
	return x;
}

/* A row of the spread table: each run's value of spike k, min, median, max and spread; counts
 * it in *agree and *judged. */
static void append_spread_row(struct strbuf *rows, const struct figure_def *f, size_t k,
                              const double *runs, size_t n_runs, size_t *agree, size_t *judged)
{
	strbuf_printf(rows, "<tr><td>spike %zu: ", k);
	strbuf_append_html(rows, f->label);
	strbuf_append(rows, "</td>");
	for (size_t r = 0; r < n_runs; r++) {
		strbuf_append(rows, "<td>");
		append_figure(rows, runs[r], f->fmt);
		strbuf_append(rows, "</td>");
	}
	struct spread s = spread_of(runs, n_runs);
	const double cols[] = {s.min, s.median, s.max};
	for (size_t c = 0; c < 3; c++) {
		strbuf_append(rows, "<td>");
		append_figure(rows, cols[c], f->fmt);
		strbuf_append(rows, "</td>");
	}
	/* held memory in MB: a spread under the resolution held memory is judged at agrees; a
	 * share is judged in points */
	bool agrees =
	    f->fmt == F_SHARE
	        ? spread_agrees_share(&s)
	        : spread_agrees(&s, f->fmt == F_MB_FROM_KB ? SPREAD_HELD_FLOOR_MB * 1024 : 0);
	strbuf_append(rows, "<td>");
	append_spread_share(rows, &s, agrees, f->fmt);
	strbuf_append(rows, "</td></tr>\n");
	if (s.n >= 2) {
		(*judged)++;
		*agree += agrees;
	}
}

/* What the pile-up row is: the line, over how many points, how well it fits. */
static void append_pileup_caption(struct strbuf *b, const struct pileup *p)
{
	if (isnan(p->fit.slope)) {
		strbuf_append(
		    b, "The last row has no line of held memory over the pile-up to move along "
		       "(these runs give fewer than two different pile-ups, as when a request "
		       "list is full at every peak): it keeps each value already at its spike's "
		       "median pile-up and leaves out the others.");
		return;
	}
	/* to the 0.01 MB printed, without a "-0.00" */
	double intercept_mb = round(p->fit.intercept / 1024 * 100) / 100 + 0.0;
	strbuf_printf(
	    b,
	    "The last row moves each run's held memory after recovery along the line "
	    "fitted through all %zu spikes of the runs, held = %.2f MB + %.2f MB per 1,000 "
	    "of the most requests in flight at any peak so far (R&sup2; %.2f), to the "
	    "spike's median pile-up over the runs: what is left of its spread is what "
	    "the pile-up does not explain.",
	    p->fit.points, intercept_mb, p->fit.slope * 1000 / 1024, p->fit.r2);
}

/* When a run kept the machine busy (machine_busy.h): why its pile-ups differ, and which row to
 * read. */
static void append_runs_busy_caption(struct strbuf *b, const json_t *const *summaries,
                                     size_t n_runs)
{
	double lo = NAN, hi = NAN;
	for (size_t r = 0; r < n_runs; r++) {
		double v =
		    summary_number(json_object_get(summaries[r], "machine_busy"), "spikes_p95");
		if (isnan(v))
			continue;
		lo = isnan(lo) ? v : fmin(lo, v);
		hi = isnan(hi) ? v : fmax(hi, v);
	}
	if (!(hi >= MACHINE_BUSY_SHARE))
		return;
	strbuf_printf(
	    b,
	    " These runs kept the machine %.0f-%.0f %% busy at the 95th percentile of the "
	    "spikes' seconds: a stall of the machine then piles requests up at every "
	    "variant at once, so a spike's pile-up, and the raw held memory, differ from "
	    "run to run; the last row is the one to compare.",
	    100 * lo, 100 * hi);
}

/* Per spike of variant vn: per figure of spike_spread_figures and for the held memory at the
 * median pile-up, each run's value, min, median, max and spread; a count per figure of the
 * spikes whose repeats agree. */
static void append_spike_spread(struct strbuf *b, const json_t *const *summaries, size_t n_runs,
                                const char *vn, size_t variant_index)
{
	size_t n_spikes = 0;
	for (size_t r = 0; r < n_runs; r++) {
		const json_t *v = json_object_get(json_object_get(summaries[r], "variants"), vn);
		size_t k = json_array_size(json_object_get(v, "spikes"));
		if (k > n_spikes)
			n_spikes = k;
	}
	if (n_spikes == 0)
		return;
	enum { N_ROWS = N_SPIKE_SPREAD + 1 };
	const struct figure_def *defs[N_ROWS];
	double *values[N_ROWS];
	for (size_t f = 0; f < N_SPIKE_SPREAD; f++) {
		defs[f] = &spike_spread_figures[f];
		values[f] = spike_values(summaries, n_runs, vn, n_spikes, defs[f]->path);
	}
	double *x = spike_values(summaries, n_runs, vn, n_spikes, PILEUP_X);
	double *y = spike_values(summaries, n_runs, vn, n_spikes, PILEUP_Y);
	struct pileup p;
	pileup_build(&p, x, y, n_runs, n_spikes);
	defs[N_SPIKE_SPREAD] = &pileup_figure;
	values[N_SPIKE_SPREAD] = p.at_median;
	double *runs = calloc(n_runs, sizeof(*runs));
	if (!runs)
		abort();
	size_t agree[N_ROWS] = {0}, judged[N_ROWS] = {0};
	struct strbuf rows = {0};
	for (size_t k = 1; k <= n_spikes; k++)
		for (size_t f = 0; f < N_ROWS; f++) {
			for (size_t r = 0; r < n_runs; r++)
				runs[r] = values[f][r * n_spikes + k - 1];
			append_spread_row(&rows, defs[f], k, runs, n_runs, &agree[f], &judged[f]);
		}
	strbuf_printf(b,
	              "<h3 id=\"spread-%zu\">Spread of the repeats per spike</h3>\n<p class="
	              "\"caption\">Spikes whose runs agree within %.0f%% (spread: (max &minus; "
	              "min) / median; held memory also when its runs lie within %.0f MB; a share "
	              "when they lie within %.0f percentage points, whatever its ratio): ",
	              variant_index, SPREAD_AGREE_SHARE * 100, SPREAD_HELD_FLOOR_MB,
	              SPREAD_SHARE_FLOOR_POINTS);
	for (size_t f = 0; f < N_ROWS; f++) {
		strbuf_append(b, f ? "; " : "");
		strbuf_append_html(b, defs[f]->label);
		strbuf_printf(b, " %zu of %zu", agree[f], judged[f]);
	}
	strbuf_append(b, ".</p>\n<p class=\"caption\">");
	append_pileup_caption(b, &p);
	append_runs_busy_caption(b, summaries, n_runs);
	strbuf_append(b, "</p>\n<div class=\"scroll\"><table class=\"cmp-spread\"><tr><th>spike: "
	                 "figure</th>");
	for (size_t r = 0; r < n_runs; r++)
		strbuf_printf(b, "<th>run %zu</th>", r + 1);
	strbuf_append(b, "<th>min</th><th>median</th><th>max</th><th>spread</th></tr>\n");
	strbuf_append(b, rows.s ? rows.s : "");
	strbuf_free(&rows);
	strbuf_append(b, "</table></div>\n");
	for (size_t f = 0; f < N_SPIKE_SPREAD; f++)
		free(values[f]);
	free(x);
	free(y);
	free(runs);
	pileup_free(&p);
}

/* "Baseline: PATH, started T (run 1 below)", or of a folder of repeats "PATH, 3 runs (repeats),
 * started T1 to T3 (runs 1-3 below)": the baseline is the first side, so its runs lead the
 * table. */
static void append_compare_baseline(struct strbuf *b, const json_t *baseline)
{
	const json_t *started = json_object_get(baseline, "started");
	size_t n = json_array_size(json_object_get(baseline, "dirs"));
	if (n == 0)
		return;
	strbuf_append(b, "<p id=\"baseline\"><strong>Baseline:</strong> <code>");
	strbuf_append_html(b, json_string_value(json_object_get(baseline, "label")));
	strbuf_append(b, "</code>");
	if (n > 1)
		strbuf_printf(b, ", %zu runs (repeats)", n);
	const char *first = json_string_value(json_array_get(started, 0));
	const char *last = json_string_value(json_array_get(started, n - 1));
	strbuf_append(b, ", started ");
	strbuf_append_html(b, first ? first : "(not recorded)");
	if (n > 1 && last) {
		strbuf_append(b, " to ");
		strbuf_append_html(b, last);
	}
	if (n > 1)
		strbuf_printf(b, " (runs 1-%zu below)", n);
	else
		strbuf_append(b, " (run 1 below)");
	strbuf_append(b, "; the differences (the .md and .json beside this page) are against "
	                 "it.</p>\n");
}

char *html_compare_page(const char *const *dirs, const json_t *const *run_jsons,
                        const json_t *const *summaries, size_t n_runs, const json_t *variant_names,
                        const json_t *baseline, const struct chart *charts, size_t n_charts,
                        const char *charts_error)
{
	struct strbuf b = {0};
	page_begin(&b, "allocspike comparison");
	strbuf_printf(&b, "<header>\n<h1>allocspike: %zu runs compared</h1>\n", n_runs);
	append_compare_baseline(&b, baseline);
	strbuf_append(&b, "</header>\n<main>\n");
	strbuf_append(&b,
	              "<h2 id=\"runs\">Runs</h2>\n<div class=\"scroll\"><table id=\"run-table\">"
	              "<tr><th>run</th><th>folder</th><th>status</th><th>started</th>"
	              "<th>machine</th><th>schedule</th><th>hierarchy</th></tr>\n");
	for (size_t r = 0; r < n_runs; r++) {
		const json_t *params = json_object_get(run_jsons[r], "parameters");
		strbuf_printf(&b, "<tr><td>");
		strbuf_printf(&b, "run %zu</td><td style=\"text-align:left\"><code>", r + 1);
		strbuf_append_html(&b, dirs[r]);
		strbuf_append(&b, "</code></td><td>");
		const char *status = json_string_value(json_object_get(run_jsons[r], "status"));
		if (status && strcmp(status, "completed") != 0)
			strbuf_append(&b, "<strong style=\"color:#b00020\">");
		append_json_text(&b, json_object_get(run_jsons[r], "status"));
		if (status && strcmp(status, "completed") != 0)
			strbuf_append(&b, "</strong>");
		static const char *const cols[] = {"started", "machine", "schedule", "hierarchy"};
		for (size_t c = 0; c < 4; c++) {
			strbuf_append(&b, "</td><td style=\"text-align:left\">");
			const json_t *v = json_object_get(run_jsons[r], cols[c]);
			if (!v)
				v = json_object_get(params, cols[c]);
			append_json_text(&b, v);
		}
		strbuf_append(&b, "</td></tr>\n");
	}
	strbuf_append(&b,
	              "</table></div>\n<p class=\"caption\">For each variant: each run's "
	              "figure, then over the runs that have it: mean, standard deviation (sample) "
	              "and range, the spread of repeats.</p>\n");
	append_charts_error(&b, charts_error);
	double *x = calloc(n_runs, sizeof(double));
	size_t i;
	json_t *name;
	json_array_foreach(variant_names, i, name)
	{
		const char *vn = json_string_value(name);
		strbuf_printf(&b, "<h2 id=\"variant-%zu\">", i);
		strbuf_append_html(&b, vn);
		strbuf_append(&b, "</h2>\n<div class=\"scroll\"><table class=\"cmp\"><tr><th>figure"
		                  "</th>");
		for (size_t r = 0; r < n_runs; r++) {
			strbuf_append(&b, "<th>");
			char shade[8]; /* the run's line in the variant's chart */
			colours_shade(colours_of(summaries[r], vn), (unsigned)r, shade);
			append_swatch(&b, shade);
			strbuf_printf(&b, "run %zu</th>", r + 1);
		}
		strbuf_append(&b, "<th>mean</th><th>sd</th><th>range</th></tr>\n");
		for (size_t f = 0; f < N_FIGURES; f++) {
			strbuf_append(&b, "<tr><td>");
			strbuf_append_html(&b, figures[f].label);
			strbuf_append(&b, "</td>");
			for (size_t r = 0; r < n_runs; r++) {
				const json_t *v =
				    json_object_get(json_object_get(summaries[r], "variants"), vn);
				x[r] = v ? summary_number(v, figures[f].path) : NAN;
				strbuf_append(&b, "<td>");
				if (v)
					append_figure(&b, x[r], figures[f].fmt);
				else
					strbuf_append(&b, "<span class=\"muted\">absent</span>");
				strbuf_append(&b, "</td>");
			}
			double mean, sd, lo, hi;
			size_t m;
			spread(x, n_runs, &mean, &sd, &lo, &hi, &m);
			enum fig_format sd_fmt = figures[f].fmt == F_MB ? F_RATIO : figures[f].fmt;
			strbuf_append(&b, "<td>");
			append_figure(&b, mean, figures[f].fmt);
			strbuf_append(&b, "</td><td>");
			append_figure(&b, sd, sd_fmt);
			strbuf_append(&b, "</td><td>");
			if (m >= 2) {
				append_figure(&b, lo, figures[f].fmt);
				strbuf_append(&b, " &ndash; ");
				append_figure(&b, hi, figures[f].fmt);
			} else {
				append_figure(&b, NAN, figures[f].fmt);
			}
			strbuf_append(&b, "</td></tr>\n");
		}
		strbuf_append(&b, "</table></div>\n");
		append_spike_spread(&b, summaries, n_runs, vn, i);
		/* the variant's charts, by the ids charts_for_compare gives them */
		char ids[2][32];
		snprintf(ids[0], sizeof(ids[0]), "chart-cmp-%zu", i);
		snprintf(ids[1], sizeof(ids[1]), "chart-spk-%zu", i);
		for (size_t k = 0; k < 2; k++)
			for (size_t c = 0; c < n_charts; c++)
				if (strcmp(charts[c].id, ids[k]) == 0)
					append_chart(&b, &charts[c]);
	}
	free(x);
	strbuf_append(&b, "</main>\n<footer><p class=\"muted\">Made by allocspike-report compare."
	                  "</p></footer>\n</body>\n</html>\n");
	return strbuf_take(&b);
}

void html_page_begin(struct strbuf *b, const char *title)
{
	page_begin(b, title);
}
