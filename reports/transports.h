/* reports/transports.h - per variant and transport (UDP, TCP, DoT): queries, answers, latency and
 * connections from transports.csv, and the resolver's memory per open connection. */
#ifndef ALLOCSPIKE_REPORTS_TRANSPORTS_H
#define ALLOCSPIKE_REPORTS_TRANSPORTS_H

#include <jansson.h>
#include <stdbool.h>

#include "model.h"
#include "runfolder_reader.h"
#include "strbuf.h"

/* Sets each variant's "transports" in summary (reports/README.md): its figures per transport and
 * the resolver's connections; null when the run folder has no transports.csv (a UDP-only run, or
 * one from before it was written); {"error": "transports.csv:LINE: why"} when it is refused. Each
 * spike's memory figures come from the model (figures.c fills it first). */
void transports_add(json_t *summary, const struct runfolder *rf, const struct model *model);

/* Whether some variant has transports figures (a run folder with transports.csv). */
bool transports_any(const json_t *summary);

/* The per-transport table and the memory per connection, under the heading the section table
 * writes (sections.h); in Markdown, text from the run goes through text (summary.md's escaper,
 * markdown_append_text). */
void transports_html(struct strbuf *b, const json_t *summary);
void transports_markdown(struct strbuf *b, const json_t *summary,
                         void (*text)(struct strbuf *, const char *));

#endif
