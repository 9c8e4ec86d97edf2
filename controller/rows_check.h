/* controller/rows_check.h - allocspike-run rows-check: which of a run's chosen rows can run. A row
 * runs when its program is there (our resolver's build, or a daemon's definition), and its binary,
 * run with the row's environment and the run's resolver settings, reports the allocator the table
 * names with the settings its env cell asks for (docs/controller.md, "The rows a run can run"). */
#ifndef ALLOCSPIKE_CONTROLLER_ROWS_CHECK_H
#define ALLOCSPIKE_CONTROLLER_ROWS_CHECK_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "variants_table.h"

void rows_check_usage(FILE *out);
int rows_check_main(int argc, char **argv);

/* The judgement `rows-check --row` makes of a report got elsewhere (a daemon's allocator probe, the
 * served row-ready): false, with the `failed` event's reason and the message for the person, when
 * it names another allocator than row's or settings other than its env cell asks for. */
bool rows_check_report(const struct variant_row *row, const char *name, const json_t *version,
                       char *reason, size_t reason_size, char *message, size_t message_size);

#endif
