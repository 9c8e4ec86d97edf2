/* controller/poll_sizes.h - allocspike-run poll-sizes: footprint.sh's poller, a process of the
 * run that asks each row's live sampler for `stats` every period and appends one JSON line per row
 * to OUT_DIR/NAME.jsonl (docs/controller.md, "footprint.sh's poller"). */
#ifndef ALLOCSPIKE_CONTROLLER_POLL_SIZES_H
#define ALLOCSPIKE_CONTROLLER_POLL_SIZES_H

#include <stdio.h>

/* argv[0] is "poll-sizes"; the exit status. */
int poll_sizes_main(int argc, char **argv);
void poll_sizes_usage(FILE *out);

#endif
