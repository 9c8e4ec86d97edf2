/* reports/agent_reads.h - per variant sampled by an agent on another host: how many of its
 * intervals had a read, its longest gap, the agent's host and the clock offsets measured
 * (summary.json "agents", reports/README.md). */
#ifndef ALLOCSPIKE_REPORTS_AGENT_READS_H
#define ALLOCSPIKE_REPORTS_AGENT_READS_H

#include <jansson.h>
#include <stdio.h>

#include "runfolder_reader.h"

/* A variant whose agent's reads fell in fewer than this share of its intervals has a validity
 * reason (agent_reads_missing). */
#define AGENT_READS_MIN_SHARE 0.99

/* Sets summary "agents" ({VARIANT: ...}) when the run folder has agents/NAME.jsonl; nothing
 * otherwise, so a run without agents has the summary it always had. */
void agent_reads_add(json_t *summary, const struct runfolder *rf);

/* Each agent file that was not used, and why, as a warning on out, escaped for a terminal:
 * "allocspike-report: warning: agents/a.jsonl:3: why; the file is refused". */
void agent_reads_warn(const struct runfolder *rf, FILE *out);

#endif
