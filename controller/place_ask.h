/* controller/place_ask.h - what place asks the agents before it sends a plan (docs/controller.md,
 * "allocspike-run place"): each row's agent whether the row's program is on its host (GET /rows,
 * the check rows-check makes, run there), and each generator host's agent which addresses it may
 * send from (GET /sources), so that every row answers the shards whichever address their
 * queries leave from. */
#ifndef ALLOCSPIKE_CONTROLLER_PLACE_ASK_H
#define ALLOCSPIKE_CONTROLLER_PLACE_ASK_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "events_log.h"
#include "place.h"

/* No row whose agent says its program is missing on its host; else the placement refused naming
 * the host, the row and what is missing (on stderr, and as an event of log when not NULL). A row
 * its agent's table lacks, or an agent that does not answer, is left to its plan, refused there
 * with the reason. */
bool place_ask_rows(const struct place_row *rows, size_t n, const struct place_options *o,
                    struct events_log *log);

/* The generator hosts' addresses, each as ADDR/32 or ADDR/128 once, into o->shard_allow (a new
 * JSON array): each agent's own address from the hosts file and every address its GET /sources
 * names. False (the host named) when an agent does not answer. */
bool place_ask_sources(struct place_options *o, struct events_log *log);

#endif
