/* common/runfolder_agents.h - the reads of agents on other hosts (DIR/agents/NAME.jsonl, written
 * by allocspike-run collect) placed on the variant NAME's timeline rows (docs/run-folder.md,
 * "Agents' reads"). */
#ifndef ALLOCSPIKE_RUNFOLDER_AGENTS_H
#define ALLOCSPIKE_RUNFOLDER_AGENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "runfolder_reader.h"

/* For each variant of the timeline with DIR/agents/NAME.jsonl: each of its rows (the interval
 * ending at its t_s, from the row before) takes the figures of the read whose start falls in it,
 * the last one if several, into the memory and resolver cells the local sampler left empty; a row
 * no read fell in stays as it was (a gap stays a gap). The reads are placed by the schedule's start
 * on CLOCK_REALTIME (the generator's started event, start_realtime). A line that is not a read
 * is left out and counted (rf->agents[].malformed, the first with its FILE:LINE); a file that
 * cannot be used (no start to place it by, unreadable) is said in rf->agents[].error: neither
 * stops the reading. False (err) only when out of memory. */
bool runfolder_agents_place(struct runfolder *rf, char *err, size_t err_size);

#endif
