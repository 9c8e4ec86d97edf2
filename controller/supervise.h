/* controller/supervise.h - allocspike-run supervise: a plan's processes started, watched and
 * stopped (docs/controller.md); allocspike-run state-dir, register, unregister and clean-stale: the
 * runs in progress and what killed ones left, for the scenarios. */
#ifndef ALLOCSPIKE_CONTROLLER_SUPERVISE_H
#define ALLOCSPIKE_CONTROLLER_SUPERVISE_H

#include <stdio.h>

/* argv[0] is the subcommand; each returns the exit status (docs/cli.md). */
int supervise_main(int argc, char **argv);
int state_dir_main(int argc, char **argv);
int clean_stale_main(int argc, char **argv);
int register_main(int argc, char **argv);
int unregister_main(int argc, char **argv);

void supervise_usage(FILE *out);

#endif
