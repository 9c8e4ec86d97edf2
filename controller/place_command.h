/* controller/place_command.h - how a served run places its rows on their hosts' agents and runs
 * its schedule across them (spike.sh --hosts, docs/controller.md "spike.sh --hosts"): the command
 * `allocspike-run place --schedule --in-run` it starts as _place, and the placement a dry run
 * shows; one builder for drive's place= and for --dry-run. */
#ifndef ALLOCSPIKE_CONTROLLER_PLACE_COMMAND_H
#define ALLOCSPIKE_CONTROLLER_PLACE_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "variants_table.h"

/* Appends to the word list (*list, *n): BIN_DIR/allocspike-run place --out DIR --schedule
 * SCHEDULE --queries QUERIES --in-run --rows ROWS (the drive's rows, "a,b": a calibration's
 * extension pass places only the rows still answering), then each line of words (the scenario's
 * options of place: hosts file, token, run id, the run's root hints, intervals, resolver options
 * after `--`); false when out of memory. */
bool place_command_add(char ***list, size_t *n, const char *bin_dir, const char *dir,
                       const char *schedule, const char *queries, const char *rows,
                       const char *words);

/* The placement the hosts file asks for, read against table and printed to out a line per agent
 * (`placement: host t1, agent 10.231.1.2:9110, row glibc`), nothing contacted; false with the
 * file's FILE:LINE reason in err. */
bool place_command_print_placement(FILE *out, const char *hosts_path,
                                   const struct variants_table *table, char *err, size_t err_size);

#endif
