/* controller/run_outdir.h - the folder a run writes into (docs/cli.md, "--out"): a new folder, or
 * an empty one of this user's; a control character in its name, a link, something not a folder, a
 * folder of another user or one not empty is refused, with why. Used by the served controller's
 * `begin` and, for the folders of tune.sh, scale.sh and --repeat, by `allocspike-run outdir`. */
#ifndef ALLOCSPIKE_CONTROLLER_RUN_OUTDIR_H
#define ALLOCSPIKE_CONTROLLER_RUN_OUTDIR_H

#include <stdbool.h>
#include <stdio.h>

/* Why dir cannot be a run's folder (into why), or true when it can (nothing there, or an empty
 * folder of ours). */
bool run_outdir_ok(const char *dir, char *why, size_t size);

/* dir made the run's folder: created (its parents as needed) when missing, taken when empty and
 * ours; false with why otherwise. */
bool run_outdir_make(const char *dir, char *why, size_t size);

/* allocspike-run outdir [--check] DIR */
void run_outdir_usage(FILE *out);
int run_outdir_main(int argc, char **argv);

#endif
