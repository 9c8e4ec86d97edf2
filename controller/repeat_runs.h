/* controller/repeat_runs.h - allocspike-run repeat: a scenario's --repeat N (docs/controller.md,
 * "The repeats"): the same scenario run N times into OUT/run-1..N, one after the other, each a
 * child that dies with the controller; the later runs given the first's calibrated spike rate and
 * query count; then `allocspike-report compare` of them. */
#ifndef ALLOCSPIKE_CONTROLLER_REPEAT_RUNS_H
#define ALLOCSPIKE_CONTROLLER_REPEAT_RUNS_H

#include <stdio.h>

/* argv[0] is "repeat"; the exit status: 0 compared, 1 a run failed or no comparison, 2 usage,
 * 130 interrupted. */
int repeat_runs_main(int argc, char **argv);
void repeat_runs_usage(FILE *out);

#endif
