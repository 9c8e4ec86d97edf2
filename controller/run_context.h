/* controller/run_context.h - allocspike-run machine and programs: run.json's `machine` (what on
 * this host can change a memory curve) and `programs` (the harness programs' paths and reports). */
#ifndef ALLOCSPIKE_CONTROLLER_RUN_CONTEXT_H
#define ALLOCSPIKE_CONTROLLER_RUN_CONTEXT_H

#include <jansson.h>
#include <stdio.h>

void run_context_usage(FILE *out);
int machine_main(int argc, char **argv);

/* run.json's machine, with the open-files limit in force given; NULL when out of memory. */
json_t *run_context_machine(unsigned long long open_files);

/* The cores this process may run on, as nproc counts them. */
long run_context_cores(void);

/* run.json's programs: each harness program in dir, its path ("" when not built) and its
 * --version --json (null when it gives none); NULL when out of memory. */
json_t *run_context_programs(const char *dir);
int programs_main(int argc, char **argv);

#endif
