/* controller/run_registry.h - the runs in progress, so that the next run can stop what a killed one
 * left: each run's processes.tsv (every process with its start time, written before any signal)
 * and the state folder where each running run is registered (docs/controller.md, "The state
 * folder"). */
#ifndef ALLOCSPIKE_CONTROLLER_RUN_REGISTRY_H
#define ALLOCSPIKE_CONTROLLER_RUN_REGISTRY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The state folder: $ALLOCSPIKE_STATE_DIR, or allocspike-UID/runs under $XDG_RUNTIME_DIR, $TMPDIR
 * or /tmp, created mode 0700. Its name is fixed so that the next run finds it; so it is refused
 * (false, the reason in err) unless it, and the allocspike-UID folder holding it, are ours, no
 * link, and writable by no one else: whoever could add an entry would choose what a run stops. */
bool run_registry_dir(char *out, size_t out_size, char *err, size_t err_size);

/* STATE/OWNER_PID holding run_dir: the run of that process is in progress. */
bool run_registry_add(const char *state, pid_t owner, const char *run_dir, char *err,
                      size_t err_size);
void run_registry_remove(const char *state, pid_t owner);

/* A run's control folder, name in at_fd (AT_FDCWD: a path), with what is in it (sockets, ready
 * files and answers: no folder within) removed. */
void run_registry_remove_ctl_dir(int at_fd, const char *name);

/* RUN_DIR/processes.tsv, created new (refused when anything, a link included, is there), with its
 * header; returns the descriptor, -1 with the reason in err. */
int processes_file_create(const char *run_dir, char *err, size_t err_size);
/* One row, NAME PID START_TICKS, in one write. */
bool processes_file_add(int fd, const char *name, pid_t pid, unsigned long long start_ticks);

/* The row naming the process that owns a run (the controller, or a scenario script). */
#define RUN_OWNER_CONTROLLER "_controller"
#define RUN_OWNER_SCENARIO "_scenario"

/* Called once per killed run found: its folder and what was stopped of it (a JSON list of
 * "name:pid" strings, borrowed). */
typedef void (*run_registry_stale_fn)(void *ctx, const char *run_dir, json_t *stopped);

/* Every registered run whose owner is gone (killed): its processes and their groups stopped
 * (SIGKILL), each only if its start time is the recorded one; its entry removed; its run.json
 * marked failed while it still says running; found() told. A run whose owner still runs is
 * another run in progress, left alone. Returns how many killed runs were found. */
unsigned run_registry_clean_stale(const char *state, run_registry_stale_fn found, void *ctx);

#endif
