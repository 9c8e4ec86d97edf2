/* reports/baseline_diff_text.c - compare.md and the terminal's lines of a comparison with a
 * baseline. */
#include "baseline_diff_text.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fixed_point.h"
#include "markdown.h"
#include "summary_json.h"
#include "strbuf.h"
#include "terminal_text.h"

/* A figure's value in its unit: "98.0 %", "11.6 MB", "0.198 MB/spike", "n/a". */
static void append_value(struct strbuf *b, double v, const char *unit, bool signed_diff)
{
	char t[64];
	if (isnan(v)) {
		strbuf_append(b, "n/a");
		return;
	}
	bool share = strcmp(unit, "share") == 0;
	double shown = share ? 100 * v : v;
	const char *sign = signed_diff && shown > 0 ? "+" : "";
	if (share)
		strbuf_printf(b, "%s%.1f %s", sign, shown, signed_diff ? "points" : "%");
	else
		strbuf_printf(b, "%s%s%s%s", sign, fixed_point(t, sizeof(t), shown, 3),
		              *unit ? " " : "", unit);
}

/* "+2.1 MB, higher (worse)", "0 MB, no change", "n/a": one new side's difference. */
static void append_difference(struct strbuf *b, const json_t *run, const char *unit)
{
	const char *change = json_string_value(json_object_get(run, "change"));
	double d = summary_number(run, "difference");
	if (isnan(d)) {
		strbuf_append(b,
		              change ? change : "n/a"); /* "no change" (n/a in both), "now n/a" */
		return;
	}
	append_value(b, d, unit, true);
	strbuf_printf(b, ", %s", change);
	const char *direction = json_string_value(json_object_get(run, "direction"));
	if (direction)
		strbuf_printf(b, " (%s)", direction);
}

/* The baseline's value of a figure, then for each new side sep[0], its value, sep[1], its
 * difference, sep[2]. */
static void append_cells(struct strbuf *b, const json_t *row, const char *unit,
                         const char *const sep[3])
{
	append_value(b, summary_number(json_object_get(row, "baseline"), "value"), unit, false);
	size_t k;
	json_t *run;
	json_array_foreach(json_object_get(row, "runs"), k, run)
	{
		strbuf_append(b, sep[0]);
		append_value(b, summary_number(run, "value"), unit, false);
		strbuf_append(b, sep[1]);
		append_difference(b, run, unit);
		strbuf_append(b, sep[2]);
	}
}

char *baseline_diff_sentence(const json_t *diff)
{
	struct strbuf b = {0};
	json_int_t compared = json_integer_value(json_object_get(diff, "compared"));
	json_int_t changed = json_integer_value(json_object_get(diff, "changed"));
	if (compared == 0) {
		strbuf_append(&b, "Nothing to compare: no variant.");
		return strbuf_take(&b);
	}
	if (changed == 0) {
		strbuf_printf(&b,
		              "No change: each of the %lld figures compared is inside the "
		              "run-to-run spread (or n/a on both sides).",
		              (long long)compared);
		return strbuf_take(&b);
	}
	strbuf_printf(&b, "%lld of %lld figures changed:", (long long)changed, (long long)compared);
	const char *variant;
	json_t *per;
	size_t i, k;
	json_t *fig, *run;
	const char *sep = " ";
	json_object_foreach((json_t *)json_object_get(diff, "variants"), variant, per)
	{
		json_array_foreach(json_object_get(diff, "figures"), i, fig)
		{
			const char *key = json_string_value(json_object_get(fig, "key"));
			const char *unit = json_string_value(json_object_get(fig, "unit"));
			json_array_foreach(json_object_get(json_object_get(per, key), "runs"), k,
			                   run)
			{
				const char *change =
				    json_string_value(json_object_get(run, "change"));
				if (!change || !strcmp(change, "no change"))
					continue;
				strbuf_printf(&b, "%s%s %s", sep, variant,
				              json_string_value(json_object_get(fig, "label")));
				if (json_array_size(json_object_get(diff, "runs")) > 1)
					strbuf_printf(&b, " (run %zu)", k + 1);
				strbuf_append(&b, " ");
				append_difference(&b, run, unit);
				sep = "; ";
			}
		}
	}
	strbuf_append(&b, ".");
	return strbuf_take(&b);
}

/* "`PATH` (1 run, started 2026-11-29T22:00:00Z)", "`PATH` (3 runs, repeats, started T1 to T3)" */
static void append_side(struct strbuf *b, const json_t *side)
{
	strbuf_append(b, "`");
	markdown_append_text(b, json_string_value(json_object_get(side, "label")));
	size_t n = json_array_size(json_object_get(side, "dirs"));
	strbuf_printf(b, "` (%zu run%s", n, n == 1 ? "" : "s, repeats");
	const json_t *started = json_object_get(side, "started");
	const char *first = json_string_value(json_array_get(started, 0));
	const char *last = json_string_value(json_array_get(started, n ? n - 1 : 0));
	if (first) {
		strbuf_append(b, ", started ");
		markdown_append_text(b, first);
	}
	if (first && last && n > 1) {
		strbuf_append(b, " to ");
		markdown_append_text(b, last);
	}
	strbuf_append(b, ")");
}

char *baseline_diff_markdown(const json_t *diff)
{
	struct strbuf b = {0};
	const json_t *runs = json_object_get(diff, "runs");
	strbuf_append(&b, "# allocspike: compared with a baseline\n\nBaseline: ");
	append_side(&b, json_object_get(diff, "baseline"));
	strbuf_append(&b, ".\n\nNew: ");
	size_t k, i;
	json_t *side, *fig, *name;
	json_array_foreach(runs, k, side)
	{
		if (k)
			strbuf_append(&b, ", ");
		strbuf_printf(&b, "%zu: ", k + 1);
		append_side(&b, side);
	}
	char *sentence = baseline_diff_sentence(diff);
	strbuf_append(&b, ".\n\n**");
	markdown_append_text(&b, sentence);
	free(sentence);
	strbuf_append(&b, "**\n\n");
	markdown_append_text(&b, json_string_value(summary_lookup(diff, "rule.text")));
	strbuf_append(&b, "\n");
	json_array_foreach(json_object_get(diff, "variant_order"), i, name)
	{
		const char *vn = json_string_value(name);
		const json_t *per = json_object_get(json_object_get(diff, "variants"), vn);
		strbuf_append(&b, "\n## ");
		markdown_append_text(&b, vn);
		strbuf_append(&b, "\n\n| figure | baseline |");
		json_array_foreach(runs, k, side)
		    strbuf_printf(&b, " new %zu | difference |", k + 1);
		strbuf_append(&b, "\n| --- | ---: |");
		json_array_foreach(runs, k, side) strbuf_append(&b, " ---: | --- |");
		strbuf_append(&b, "\n");
		size_t f;
		json_array_foreach(json_object_get(diff, "figures"), f, fig)
		{
			const char *unit = json_string_value(json_object_get(fig, "unit"));
			const json_t *row =
			    json_object_get(per, json_string_value(json_object_get(fig, "key")));
			static const char *const cell_seps[3] = {" | ", " | ", ""};
			strbuf_append(&b, "| ");
			markdown_append_text(&b, json_string_value(json_object_get(fig, "label")));
			strbuf_append(&b, " | ");
			append_cells(&b, row, unit, cell_seps);
			strbuf_append(&b, " |\n");
		}
	}
	return strbuf_take(&b);
}

void baseline_diff_print(const json_t *diff, FILE *f)
{
	char *sentence = baseline_diff_sentence(diff);
	terminal_text_fputs(sentence, f);
	fputc('\n', f);
	free(sentence);
	const char *vn;
	json_t *per, *fig;
	size_t i;
	json_object_foreach((json_t *)json_object_get(diff, "variants"), vn, per)
	{
		json_array_foreach(json_object_get(diff, "figures"), i, fig)
		{
			const char *unit = json_string_value(json_object_get(fig, "unit"));
			const json_t *row =
			    json_object_get(per, json_string_value(json_object_get(fig, "key")));
			static const char *const line_seps[3] = {" -> ", " (", ")"};
			struct strbuf b = {0};
			strbuf_printf(&b, "  %s, %s: ", vn,
			              json_string_value(json_object_get(fig, "label")));
			append_cells(&b, row, unit, line_seps);
			terminal_text_fputs(b.s, f);
			fputc('\n', f);
			strbuf_free(&b);
		}
	}
}
