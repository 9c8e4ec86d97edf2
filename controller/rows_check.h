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

/* Where the check finds the programs. */
struct rows_places {
	const char *bin_dir;
	const char *daemons_dir;
	char *const *options; /* the run's resolver settings, as its launch passes them */
	size_t n_options;
};

/* What the check says of one chosen row: runnable with its binary's report (NULL: none, a daemon
 * reports once started), or failed with the `failed` event's reason and the message. */
typedef void rows_check_each(void *ctx, const char *name, const json_t *version, bool failed,
                             const char *reason, const char *message);

/* Every row of list ("a,b", empty: the defaults) checked in order, each told to each(ctx, ...);
 * returns run.json's rows with their reports (NULL, said in err, for a list that does not
 * select). The CLI's lines and the served `rows-check` request. */
json_t *rows_check_chosen(const struct variants_table *table, const char *list,
                          const struct rows_places *at, rows_check_each *each, void *ctx, char *err,
                          size_t err_size);

/* The judgement `rows-check --row` makes of a report got elsewhere (a daemon's allocator probe, the
 * served row-ready): false, with the `failed` event's reason and the message for the person, when
 * it names another allocator than row's or settings other than its env cell asks for. */
bool rows_check_report(const struct variant_row *row, const char *name, const json_t *version,
                       char *reason, size_t reason_size, char *message, size_t message_size);

#endif
