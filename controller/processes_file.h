/* controller/processes_file.h - reading a run's processes.tsv (written by run_registry.h's
 * processes_file_create and processes_file_add): its rows as targets, for the cleanup of a killed
 * run (clean-stale) and the leftovers of a run whose controller is gone (leftovers --run). */
#ifndef ALLOCSPIKE_CONTROLLER_PROCESSES_FILE_H
#define ALLOCSPIKE_CONTROLLER_PROCESSES_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "proc_target.h"

/* The rows of RUN_DIR/processes.tsv other than the owners' (_scenario, _controller), at most max,
 * as targets not yet opened (pidfd -1); the header and rows cut off are skipped. *owner_alive:
 * an owner's row still names its process (the run is in progress). Returns how many, or -1 when
 * there is no file to read. */
long processes_file_read(const char *run_dir, struct proc_target *targets, size_t max,
                         bool *owner_alive);

#endif
