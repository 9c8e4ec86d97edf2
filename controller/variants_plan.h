/* controller/variants_plan.h - allocspike-run variants: the rows of variants.tsv a run chooses,
 * read and checked once, printed for the scenarios (one tab-separated line a row, no eval needed)
 * or as run.json's variants rows (docs/controller.md, "The variants a run chooses"). */
#ifndef ALLOCSPIKE_CONTROLLER_VARIANTS_PLAN_H
#define ALLOCSPIKE_CONTROLLER_VARIANTS_PLAN_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "variants_table.h"

/* argv[0] is the subcommand; returns the exit status (docs/cli.md). */
int variants_main(int argc, char **argv);

void variants_usage(FILE *out);

/* run.json's rows of the chosen rows (indexes into table, in the run's order), version null; NULL
 * when out of memory. */
json_t *variants_rows_json(const struct variants_table *table, const size_t *chosen, size_t count);

/* The table of the build this controller belongs to. */
const char *variants_plan_default_table(void);

#endif
