/* controller/rows_check.h - allocspike-run rows-check: which of a run's chosen rows can run. A row
 * runs when its program is there (our resolver's build, or a daemon's definition), and its binary,
 * run with the row's environment and the run's resolver settings, reports the allocator the table
 * names with the settings its env cell asks for (docs/controller.md, "The rows a run can run"). */
#ifndef ALLOCSPIKE_CONTROLLER_ROWS_CHECK_H
#define ALLOCSPIKE_CONTROLLER_ROWS_CHECK_H

#include <stdio.h>

void rows_check_usage(FILE *out);
int rows_check_main(int argc, char **argv);

#endif
