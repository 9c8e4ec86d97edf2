/* reports/chart_mermaid.h - a chart (charts.h) as a Mermaid xychart-beta block, which GitHub and
 * GitLab draw inline where summary.md is pasted (a merge request comment, a wiki page). */
#ifndef ALLOCSPIKE_REPORTS_CHART_MERMAID_H
#define ALLOCSPIKE_REPORTS_CHART_MERMAID_H

#include <stdbool.h>

#include "charts.h"
#include "strbuf.h"

/* Points per line of a time chart: Mermaid spreads a line's values evenly over its x axis, so a
 * time series is resampled to this many (a 10-minute run: one point per 10 s). */
#define CHART_MERMAID_POINTS 60

/* Appends chart c as a fenced ```mermaid block: bars (CHART_BARS) as one bar series over the
 * series' titles, a time chart (CHART_TIME) as one line per series with data, in the series'
 * colours, followed by a line naming each line's colour (xychart-beta draws no legend). Every
 * text from the run (names, titles) is reduced to characters that cannot end a Mermaid string.
 * False, with nothing appended, for another kind or a chart without data. */
bool chart_mermaid(const struct chart *c, struct strbuf *b);

#endif
