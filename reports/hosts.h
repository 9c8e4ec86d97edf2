/* reports/hosts.h - the host each variant ran on (summary.json variants.NAME.host and "hosts",
 * reports/README.md): named by the agent that sampled it on another host, else by run.json. */
#ifndef ALLOCSPIKE_REPORTS_HOSTS_H
#define ALLOCSPIKE_REPORTS_HOSTS_H

#include <jansson.h>

#include "runfolder_reader.h"

/* The host label of the agent that sampled variant name, as the collector's clock events name it
 * (events.jsonl "clock" "host", the first that is an identifier); NULL when none does. */
const char *hosts_of_agent(const struct runfolder *rf, const char *name);

/* Sets each summary variants.NAME.host (the agent's host, else run.json's row host, else the
 * machine's; null when none is known) and summary "hosts": the distinct hosts named, sorted. */
void hosts_add(json_t *summary, const struct runfolder *rf);

#endif
