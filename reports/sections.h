/* reports/sections.h - the run report's sections, in the order both formats show them: each
 * once, with its id (the page's anchor), its title and per format the function that renders it
 * (NONE where that format leaves the section out). html.c and markdown.c each expand the table
 * with their column and walk it, so a section's place and title are written once. A renderer
 * writes its heading from the title (html_heading, markdown_heading), or none when it has
 * nothing to show. */
#ifndef ALLOCSPIKE_REPORTS_SECTIONS_H
#define ALLOCSPIKE_REPORTS_SECTIONS_H

/* X(id, title, html renderer, Markdown renderer). The page shows the validity box in its header
 * (above the verdict, with the status banner), summary.md as a section after the verdict. */
#define REPORT_SECTIONS(X, NONE)                                                                   \
	X(verdict, "Verdict", html_verdict, markdown_verdict)                                      \
	X(validity, "Validity", NONE, markdown_validity)                                           \
	X(findings, "What the numbers show", html_findings, NONE)                                  \
	X(charts, "Charts", html_charts, NONE)                                                     \
	X(grid, "Peak / end of recovery per spike", html_grid, markdown_grid)                      \
	X(traffic, "Traffic per query", html_traffic, NONE)                                        \
	X(spike_traffic, "Traffic in spikes", NONE, markdown_traffic)                              \
	X(transports, "Transports", html_transports, markdown_transports)                          \
	X(spikes, "Per spike", html_spike_table, NONE)                                             \
	X(figures, "Figures per variant", html_figure_table, NONE)                                 \
	X(health, "Crashes and harness saturation", html_health, NONE)                             \
	X(context, "Run context", html_context, NONE)                                              \
	X(hosts, "Hosts", NONE, markdown_hosts)                                                    \
	X(variants, "Variants", html_variants, NONE)                                               \
	X(glossary, "Terms", html_glossary, markdown_terms)                                        \
	X(anon, "Anonymous RSS", NONE, markdown_anon_chart)                                        \
	X(chart_files, "Charts", NONE, markdown_chart_files)

/* A section as its renderer sees it. */
struct report_section {
	const char *id, *title;
};

#endif
