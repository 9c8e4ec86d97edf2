/* controller/settings_check.h - allocspike-run settings: the settings a row's env cell asks for,
 * and whether a version report shows them taken (docs/controller.md). */
#ifndef ALLOCSPIKE_SETTINGS_CHECK_H
#define ALLOCSPIKE_SETTINGS_CHECK_H

#include <stdio.h>

void settings_usage(FILE *out);
int settings_main(int argc, char **argv);

#endif
