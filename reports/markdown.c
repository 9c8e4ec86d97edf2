/* reports/markdown.c - summary.md, the report's top in GitHub-flavoured Markdown. */
#include "markdown.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chart_mermaid.h"
#include "fixed_point.h"
#include "glossary.h"
#include "sections.h"
#include "spike_find.h"
#include "strbuf.h"
#include "summary_json.h"
#include "transports.h"
#include "verdict.h"

/* Text inline in Markdown (a table cell, a list item, a heading), rendered by GitHub exactly as the
 * text: a line break or any other control character is a space (a carriage return would start a
 * new block: a heading, a fence); every character CommonMark or GFM reads as inline markup is
 * backslash-escaped; and nothing an autolink would take (www., SCHEME://, an address with @) is
 * left whole, so a name is never a live link. */
void markdown_append_text(struct strbuf *b, const char *text)
{
	const char *start = text ? text : "";
	for (const char *p = start; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c < 0x20 || c == 0x7f)
			strbuf_append(b, " ");
		else if (strchr("\\`*_[]<>#|~&", c))
			strbuf_printf(b, "\\%c", c);
		else if (c == ':' && p[1] == '/' && p[2] == '/')
			strbuf_append(b,
			              "&#58;"); /* a character reference is text, never a scheme */
		else if (c == '.' && p - start >= 3 && strncasecmp(p - 3, "www", 3) == 0)
			strbuf_append(b, "&#46;");
		else if (c == '@')
			/* GFM links an address even when its @ is escaped; an empty comment between
			 * the two halves keeps them apart (GitHub hides it) */
			strbuf_append(b, "@<!-- -->");
		else
			strbuf_append_n(b, p, 1);
	}
}

/* The drawn chart of that id, or NULL. */
/* What summary.md's sections are rendered from (sections.h). */
struct summary_input {
	const json_t *summary;
	const struct chart *charts;
	size_t n_charts;
};

/* A section's heading line. */
static void markdown_heading(struct strbuf *b, const struct report_section *sec)
{
	strbuf_printf(b, "## %s\n", sec->title);
}

static const struct chart *drawn_chart(const struct chart *charts, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (charts[i].svg && strcmp(charts[i].id, id) == 0)
			return &charts[i];
	return NULL;
}

/* A chart inline where summary.md is pasted (Mermaid), its PNG linked beside it. */
static void append_inline_chart(struct strbuf *b, const struct chart *c, const char *alt)
{
	strbuf_append(b, "\n");
	chart_mermaid(c, b);
	strbuf_printf(b, "\n![%s](charts/%s.png)\n", alt, c->id);
}

static void markdown_verdict(struct strbuf *b, const struct summary_input *in,
                             const struct report_section *sec)
{
	const json_t *summary = in->summary;
	const struct chart *ranking = drawn_chart(in->charts, in->n_charts, "chart-ranking");
	markdown_heading(b, sec);
	strbuf_append(b, "\n");
	size_t i;
	json_t *s;
	json_array_foreach(summary_lookup(summary, "verdict.sentences"), i, s)
	{
		strbuf_append(b, "- ");
		markdown_append_text(b, json_string_value(s));
		strbuf_append(b, "\n");
	}
	if (ranking)
		append_inline_chart(b, ranking,
		                    "What the spikes left behind, per variant, least first");
	strbuf_append(b, "\n");
}

/* Which variants the run is valid for; where a reason names a variant, as a warning (GitHub and
 * GitLab render "[!WARNING]" as an amber box, other renderers as a quote). */
static void append_validity_variants(struct strbuf *b, const json_t *summary)
{
	const char *text = json_string_value(summary_lookup(summary, "validity.variants_text"));
	if (!text || !*text)
		return;
	bool marked = json_is_true(summary_lookup(summary, "validity.variants_marked"));
	strbuf_append(b, marked ? "> [!WARNING]\n> Per variant: " : "Per variant: ");
	markdown_append_text(b, text);
	strbuf_append(b, ".\n\n");
}

static void markdown_validity(struct strbuf *b, const struct summary_input *in,
                              const struct report_section *sec)
{
	const json_t *summary = in->summary;
	markdown_heading(b, sec);
	strbuf_append(b, "\n");
	if (json_is_true(summary_lookup(summary, "validity.valid"))) {
		strbuf_append(b, "Nothing found that would keep this run from showing what it "
		                 "claims.\n\n");
		append_validity_variants(b, summary);
		return;
	}
	strbuf_append(b, "**This run may not show what it claims.**\n\n");
	append_validity_variants(b, summary);
	strbuf_append(b, "| reason | what | knob |\n| --- | --- | --- |\n");
	size_t i;
	json_t *r;
	json_array_foreach(summary_lookup(summary, "validity.reasons"), i, r)
	{
		strbuf_append(b, "| `");
		strbuf_append(b, json_string_value(json_object_get(r, "code")));
		strbuf_append(b, "` | ");
		markdown_append_text(b, json_string_value(json_object_get(r, "text")));
		strbuf_append(b, " | ");
		markdown_append_text(b, json_string_value(json_object_get(r, "knob")));
		strbuf_append(b, " |\n");
	}
	strbuf_append(b, "\n");
}

static void markdown_grid(struct strbuf *b, const struct summary_input *in,
                          const struct report_section *sec)
{
	const json_t *summary = in->summary;
	json_int_t *numbers;
	size_t n_spikes = spike_find_numbers(summary, &numbers);
	markdown_heading(b, sec);
	strbuf_append(b, "\nAnonymous RSS in MB: the highest "
	                 "from the spike's start to the end of its recovery / the value at the end "
	                 "of the recovery.\n\n| variant |");
	for (size_t k = 0; k < n_spikes; k++)
		strbuf_printf(b, " spike %lld |", (long long)numbers[k]);
	strbuf_append(b, "\n| --- |");
	for (size_t k = 0; k < n_spikes; k++)
		strbuf_append(b, " ---: |");
	strbuf_append(b, "\n");
	size_t i;
	json_t *name;
	json_array_foreach(json_object_get(summary, "variant_order"), i, name)
	{
		const json_t *v =
		    json_object_get(json_object_get(summary, "variants"), json_string_value(name));
		strbuf_append(b, "| ");
		markdown_append_text(b, json_string_value(name));
		strbuf_append(b, " |");
		/* one cell per spike number, so a variant that missed a spike keeps the columns */
		for (size_t k = 0; k < n_spikes; k++) {
			char cell[64] = "n/a";
			const json_t *sp = spike_find(json_object_get(v, "spikes"), numbers[k]);
			if (sp)
				verdict_grid_cell(sp, cell, sizeof(cell));
			strbuf_printf(b, " %s |", cell);
		}
		strbuf_append(b, "\n");
	}
	strbuf_append(b, "\n");
	free(numbers);
}

/* " 12.3 |" (fmt), or " n/a |"; fmt NULL: three significant digits, fixed-point (a latency from
 * histograms, precise to 1.6 %: "1800", never "1.8e+03"). */
static void append_value(struct strbuf *b, double v, const char *fmt, double scale)
{
	char text[64];
	if (isnan(v))
		strbuf_append(b, " n/a |");
	else if (!fmt)
		strbuf_printf(b, " %s |", fixed_point(text, sizeof(text), v * scale, 3));
	else
		strbuf_printf(b, fmt, v * scale);
}

static void markdown_traffic(struct strbuf *b, const struct summary_input *in,
                             const struct report_section *sec)
{
	const json_t *summary = in->summary;
	const char *source = json_string_value(summary_lookup(
	    json_object_get(
	        json_object_get(summary, "variants"),
	        json_string_value(json_array_get(json_object_get(summary, "variant_order"), 0))),
	    "traffic_by_send.source"));
	markdown_heading(b, sec);
	strbuf_append(b, "\n");
	if (source && strcmp(source, "phases.csv") == 0)
		strbuf_append(b,
		              "Each query counted in the phase it was sent in (an answer after the "
		              "spike still counts in it); latency quantiles of all the spikes' "
		              "answers, from their histograms.\n\n");
	else
		strbuf_append(b,
		              "This run has no phases.csv: answers and timeouts are counted in the "
		              "interval they happened in, so a spike's late answers count in its "
		              "recovery.\n\n");
	strbuf_append(b,
	              "| variant | sent | answered | lost | late | SERVFAIL | p50 (ms) | p99 (ms) "
	              "|\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
	size_t i;
	json_t *name;
	json_array_foreach(json_object_get(summary, "variant_order"), i, name)
	{
		const json_t *sp = summary_lookup(
		    json_object_get(json_object_get(summary, "variants"), json_string_value(name)),
		    "traffic_by_send.phases.spike");
		strbuf_append(b, "| ");
		markdown_append_text(b, json_string_value(name));
		strbuf_append(b, " |");
		append_value(b, summary_number(sp, "sent"), " %.0f |", 1);
		append_value(b, summary_number(sp, "answered_share"), " %.1f %% |", 100);
		append_value(b, summary_number(sp, "lost"), " %.0f |", 1);
		append_value(b, summary_number(sp, "late"), " %.0f |", 1);
		append_value(b, summary_number(sp, "servfail"), " %.0f |", 1);
		append_value(b, summary_number(sp, "lat_p50_ms"), NULL, 1);
		append_value(b, summary_number(sp, "lat_p99_ms"), NULL, 1);
		strbuf_append(b, "\n");
	}
	strbuf_append(b, "\n");
}

/* The allocator terms the verdict uses, explained (the page links each to the same text). */
static void markdown_terms(struct strbuf *b, const struct summary_input *in,
                           const struct report_section *sec)
{
	const json_t *summary = in->summary;
	bool used[64] = {false}; /* more than the glossary's terms */
	size_t i, n = 0;
	json_t *s;
	json_array_foreach(summary_lookup(summary, "verdict.sentences"), i, s)
	{
		glossary_mark_used(json_string_value(s), used);
	}
	for (i = 0; i < glossary_count(); i++)
		n += used[i];
	if (n == 0)
		return;
	markdown_heading(b, sec);
	strbuf_append(b, "\nThe allocator terms above (all of them: docs/glossary.md "
	                 "in allocspike).\n\n");
	for (i = 0; i < glossary_count(); i++)
		if (used[i]) {
			strbuf_append(b, "- **");
			markdown_append_text(b, glossary_at(i)->term);
			strbuf_append(b, "**: ");
			markdown_append_text(b, glossary_at(i)->definition);
			strbuf_append(b, "\n");
		}
	strbuf_append(b, "\n");
}

/* Where the variants ran: each variant's host when the run had more than one (summary.json
 * variants.NAME.host, hosts), then the variants an agent read on another host (summary.json
 * agents): its host, how many of the run's intervals it read, its clock. Nothing for a run on one
 * machine. The page says it in its context. */
static void markdown_hosts(struct strbuf *b, const struct summary_input *in,
                           const struct report_section *sec)
{
	const json_t *agents = json_object_get(in->summary, "agents");
	bool several = json_array_size(json_object_get(in->summary, "hosts")) > 1;
	const char *name;
	const json_t *agent, *v;
	if (json_object_size(agents) == 0 && !several)
		return;
	markdown_heading(b, sec);
	strbuf_append(b, "\n");
	if (several)
		json_object_foreach((json_t *)json_object_get(in->summary, "variants"), name, v)
		{
			const char *host = json_string_value(json_object_get(v, "host"));
			strbuf_append(b, "- ");
			markdown_append_text(b, name);
			strbuf_append(b, " ran on ");
			markdown_append_text(b, host ? host : "an unknown host");
			strbuf_append(b, "\n");
		}
	json_object_foreach((json_t *)agents, name, agent)
	{
		strbuf_append(b, "- agent of ");
		markdown_append_text(b, name);
		strbuf_append(b, ": ");
		markdown_append_text(b, json_string_value(json_object_get(agent, "text")));
		strbuf_append(b, "\n");
	}
	strbuf_append(b, "\n");
}

/* Nothing without transports.csv. */
static void markdown_transports(struct strbuf *b, const struct summary_input *in,
                                const struct report_section *sec)
{
	if (!transports_any(in->summary))
		return;
	markdown_heading(b, sec);
	transports_markdown(b, in->summary, markdown_append_text);
}

static void markdown_anon_chart(struct strbuf *b, const struct summary_input *in,
                                const struct report_section *sec)
{
	const struct chart *anon = drawn_chart(in->charts, in->n_charts, "chart-anon");
	if (!anon)
		return;
	markdown_heading(b, sec);
	append_inline_chart(b, anon, "Anonymous RSS per variant");
	strbuf_append(b, "\n");
}

/* Each chart's PNG and SVG file. */
static void markdown_chart_files(struct strbuf *b, const struct summary_input *in,
                                 const struct report_section *sec)
{
	bool any = false;
	for (size_t i = 0; i < in->n_charts; i++) {
		const struct chart *c = &in->charts[i];
		if (!c->svg)
			continue;
		if (!any) {
			markdown_heading(b, sec);
			strbuf_append(b, "\n");
		}
		any = true;
		strbuf_append(b, "- ");
		markdown_append_text(b, c->title);
		strbuf_printf(b, ": [PNG](charts/%s.png), [SVG](charts/%s.svg)\n", c->id, c->id);
	}
}

#define MARKDOWN_SECTION(id, title, html, markdown) {{#id, title}, markdown},
static const struct {
	struct report_section s;
	void (*render)(struct strbuf *, const struct summary_input *,
	               const struct report_section *);
} markdown_sections[] = {REPORT_SECTIONS(MARKDOWN_SECTION, NULL)};
#undef MARKDOWN_SECTION

char *markdown_summary(const json_t *summary, const struct chart *charts, size_t n_charts)
{
	struct strbuf b = {0};
	const json_t *run = json_object_get(summary, "run");
	const char *scenario = json_string_value(json_object_get(run, "scenario"));
	const char *started = json_string_value(json_object_get(run, "started"));
	strbuf_append(&b, "# allocspike: ");
	markdown_append_text(&b, scenario ? scenario : "unnamed");
	strbuf_append(&b, " run of ");
	markdown_append_text(&b, started ? started : "unknown time");
	strbuf_append(&b, "\n\nStatus: ");
	markdown_append_text(&b, json_string_value(json_object_get(run, "status")));
	strbuf_printf(&b,
	              "; %lld spikes. The full page is `report.html`, every figure is in "
	              "`summary.json`.\n\n",
	              (long long)json_integer_value(json_object_get(summary, "spike_count")));
	const struct summary_input in = {summary, charts, n_charts};
	for (size_t i = 0; i < sizeof(markdown_sections) / sizeof(*markdown_sections); i++)
		if (markdown_sections[i].render)
			markdown_sections[i].render(&b, &in, &markdown_sections[i].s);
	return strbuf_take(&b);
}
