/* reports/markdown.h - summary.md: the top of the report in GitHub-flavoured Markdown, for a merge
 * request (GitHub and GitLab render it inline; they do not render an attached HTML page). */
#ifndef ALLOCSPIKE_REPORTS_MARKDOWN_H
#define ALLOCSPIKE_REPORTS_MARKDOWN_H

#include <jansson.h>
#include <stddef.h>

#include "charts.h"

/* The verdict, the validity box, the variant-by-spike peak / end grid, spike traffic and links
 * to the chart files (charts/ID.png, as charts_render_files writes them; n_charts 0: no charts).
 * Caller frees. */
char *markdown_summary(const json_t *summary, const struct chart *charts, size_t n_charts);

/* Appends text for inline use in Markdown (a table cell, a list item, a heading): it renders as
 * exactly that text, on one line, with no markup, block or link of its own. The one Markdown
 * escaper: every string from a run goes through it. */
struct strbuf;
void markdown_append_text(struct strbuf *b, const char *text);

#endif
