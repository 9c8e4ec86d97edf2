/* controller/dry_run.h - allocspike-run dry-run: a scenario's --dry-run, the run's plan printed and
 * nothing started or written (docs/controller.md, "The dry run"). The plan is made in memory by the
 * builders the run itself starts its processes with: the hierarchy's (hierarchy_command.h), the
 * rows' (row_launch.h) and the generator's (loadgen_command.h), and printed as supervise --dry-run
 * prints a plan file (supervise_plan.h). */
#ifndef ALLOCSPIKE_CONTROLLER_DRY_RUN_H
#define ALLOCSPIKE_CONTROLLER_DRY_RUN_H

#include <stdio.h>

/* argv[0] is "dry-run"; the exit status (0; 1 when a builder refuses the run; 2 for a usage
 * error or a plan that supervise would refuse). */
int dry_run_main(int argc, char **argv);
void dry_run_usage(FILE *out);

#endif
