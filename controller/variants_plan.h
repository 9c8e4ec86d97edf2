/* controller/variants_plan.h - allocspike-run variants: the rows of variants.tsv a run chooses,
 * read and checked once, printed for the scenarios (one tab-separated line a row, no eval needed)
 * or as run.json's variants rows (docs/controller.md, "The variants a run chooses"). */
#ifndef ALLOCSPIKE_CONTROLLER_VARIANTS_PLAN_H
#define ALLOCSPIKE_CONTROLLER_VARIANTS_PLAN_H

#include <stdio.h>

/* argv[0] is the subcommand; returns the exit status (docs/cli.md). */
int variants_main(int argc, char **argv);

void variants_usage(FILE *out);

#endif
