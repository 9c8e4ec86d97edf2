/* controller/conduct.h - allocspike-run conduct: a scenario's run with the controller as its top
 * process (docs/controller.md, "A conducted run"): its control folder, the run begun, the steps run
 * as its child, the run finished and reported, its exit status. */
#ifndef ALLOCSPIKE_CONTROLLER_CONDUCT_H
#define ALLOCSPIKE_CONTROLLER_CONDUCT_H

#include <stdio.h>

void conduct_usage(FILE *out);
int conduct_main(int argc, char **argv);

#endif
