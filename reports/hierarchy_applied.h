/* reports/hierarchy_applied.h - the loss and delay the simulated hierarchy applied over a run, from
 * its per-second summary (upstream-applied-summary.tsv, docs/upstream.md). */
#ifndef ALLOCSPIKE_REPORTS_HIERARCHY_APPLIED_H
#define ALLOCSPIKE_REPORTS_HIERARCHY_APPLIED_H

#include <jansson.h>

/* {"source", "queries", "dropped", "loss", "delay_mean_ms"} over every second and tier of the run
 * folder dir's applied summary; JSON null when the run has none (older runs, daemons' runs). A
 * world other than lan sets its own loss and a delay per server, so this, not the options, is what
 * the run's hierarchy did. */
json_t *hierarchy_applied_read(const char *dir);

#endif
