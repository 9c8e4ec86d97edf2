/* reports/html.h - the self-contained report pages (one run; several runs compared). */
#ifndef ALLOCSPIKE_REPORTS_HTML_H
#define ALLOCSPIKE_REPORTS_HTML_H

#include <jansson.h>
#include <stddef.h>

#include "charts.h"
#include "strbuf.h"

/* The page of one run. charts_error, if not NULL, says why the charts are missing. Returns the
 * whole HTML text (caller frees). */
char *html_run_page(const json_t *run_json, const json_t *summary, const json_t *findings,
                    const struct chart *charts, size_t n_charts, const char *charts_error);

/* The page comparing runs (summaries[i] and run_jsons[i] belong to dirs[i]); baseline is
 * compare.json's "baseline" (label, dirs, started), named at the top. */
char *html_compare_page(const char *const *dirs, const json_t *const *run_jsons,
                        const json_t *const *summaries, size_t n_runs, const json_t *variant_names,
                        const json_t *baseline, const struct chart *charts, size_t n_charts,
                        const char *charts_error);

/* The head of every page (doctype, title, the one stylesheet) up to <body>, for pages built
 * elsewhere (the advisor's). */
void html_page_begin(struct strbuf *b, const char *title);

#endif
