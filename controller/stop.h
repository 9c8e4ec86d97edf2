/* controller/stop.h - allocspike-run stop and leftovers: the one stop path for processes a
 * scenario started (docs/controller.md, "Stopping a scenario's processes"). */
#ifndef ALLOCSPIKE_CONTROLLER_STOP_H
#define ALLOCSPIKE_CONTROLLER_STOP_H

#include <stdio.h>

/* argv[0] is the subcommand; each returns the exit status (docs/cli.md). */
int stop_main(int argc, char **argv);
int leftovers_main(int argc, char **argv);

void stop_usage(FILE *out);

#endif
