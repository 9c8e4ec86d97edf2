/* agent/rows_answer.h - an agent's answer to GET /rows (docs/agent.md): for each row of its
 * --variants-table, whether the row's program is on this host, by the check rows-check makes
 * (common/row_program.h), so that a controller places a row only where it can run and need not
 * have the agents' build itself. */
#ifndef ALLOCSPIKE_AGENT_ROWS_ANSWER_H
#define ALLOCSPIKE_AGENT_ROWS_ANSWER_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/* [{"row": NAME, "kind": KIND, "runnable": true}, {"row": ..., "runnable": false, "missing":
 * "allocspike-resolver-x in DIR"}, ...] for the table at table_path, the programs looked for
 * beside the agent and in daemons_dir; NULL with the reason in err (a table that does not read:
 * its FILE:LINE). */
json_t *rows_answer_list(const char *table_path, const char *daemons_dir, char *err,
                         size_t err_size);

#endif
