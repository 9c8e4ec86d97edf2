/* controller/run_context.h - allocspike-run machine and programs: run.json's `machine` (what on this
 * host can change a memory curve) and `programs` (the harness programs' paths and reports). */
#ifndef ALLOCSPIKE_CONTROLLER_RUN_CONTEXT_H
#define ALLOCSPIKE_CONTROLLER_RUN_CONTEXT_H

#include <stdio.h>

void run_context_usage(FILE *out);
int machine_main(int argc, char **argv);
int programs_main(int argc, char **argv);

#endif
