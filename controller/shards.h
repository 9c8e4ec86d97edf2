/* controller/shards.h - allocspike-run shards: the run's generator as N shards on the generator
 * hosts of a hosts file (its @shard lines, docs/controller.md "Generator shards"): every shard
 * agent's clock measured, each sent a shard plan (shard I of N, the schedule, the query file's
 * path, the targets, T0 on its own clock), the shards watched until every generator ended, their
 * fragments fetched over the agents' HTTP, the agents withdrawn, and allocspike-report merge
 * making one run folder of the fragments. A shard that fails or whose agent vanishes fails the
 * run, naming its host. */
#ifndef ALLOCSPIKE_CONTROLLER_SHARDS_H
#define ALLOCSPIKE_CONTROLLER_SHARDS_H

#include <stdio.h>

/* argv[0] is "shards"; returns the exit status: 0 every shard completed and merged, 1 a shard or
 * the merge failed (the host named), 2 usage, 130 interrupted. */
int shards_main(int argc, char **argv);

void shards_usage(FILE *out);

#endif
