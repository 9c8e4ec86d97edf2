/* controller/place.h - allocspike-run place: rows placed on remote agents by a hosts file, every
 * agent's clock measured first, every row started by its agent's plan, a readiness barrier across
 * hosts, then one absolute start time T0 for the collector and the generator (docs/controller.md,
 * "allocspike-run place"). */
#ifndef ALLOCSPIKE_CONTROLLER_PLACE_H
#define ALLOCSPIKE_CONTROLLER_PLACE_H

#include <stdio.h>

/* argv[0] is "place"; returns the exit status (docs/cli.md). */
int place_main(int argc, char **argv);

void place_usage(FILE *out);

#endif
