/* controller/collect.h - allocspike-run collect: the agents' reads gathered into a run folder on
 * the controller's clock (docs/controller.md). */
#ifndef ALLOCSPIKE_CONTROLLER_COLLECT_H
#define ALLOCSPIKE_CONTROLLER_COLLECT_H

#include <stdio.h>

/* argv[0] is "collect"; returns the exit status (docs/cli.md). */
int collect_main(int argc, char **argv);

void collect_usage(FILE *out);

#endif
