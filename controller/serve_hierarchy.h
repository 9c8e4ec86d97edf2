/* controller/serve_hierarchy.h - a served run's `hierarchy` request (docs/controller.md, "The
 * hierarchy"): the simulated hierarchy's command made from run.json's options
 * (hierarchy_command.h), its latency, loss and world recorded in parameters.hierarchy; once serve.c
 * has started it as _upstream and its ready line came (at most HIERARCHY_READY_TIMEOUT_S), its root
 * hints checked, its `ready` event and port recorded, and the scenario answered `ok PORT PID
 * ROOT_HINTS`. */
#ifndef ALLOCSPIKE_CONTROLLER_SERVE_HIERARCHY_H
#define ALLOCSPIKE_CONTROLLER_SERVE_HIERARCHY_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "hierarchy_command.h"
#include "run_events.h"
#include "serve_runfolder.h"

#define HIERARCHY_READY_TIMEOUT "30s"
#define SERVE_HIERARCHY_REQUESTS "hierarchy"

/* The hierarchy being started, between the request and its ready line. */
struct serve_hierarchy {
	char root_hints[PATH_MAX + 16];
	char log[PATH_MAX + 32];
	/* `start _upstream LOG CPUS READY_FILE TIMEOUT -- COMMAND...`, for serve.c's start */
	char *start[HIERARCHY_MAX_ARGS + 8];
	int start_count;
	struct hierarchy_command command;
};

/* hierarchy UPSTREAM CPUS PORT [given=NAME,...]: the command made into h->start (its control
 * socket and ready file in ctl_dir, the served run's control folder) and the parameters recorded;
 * false with the error in reply. */
bool serve_hierarchy_prepare(struct serve_hierarchy *h, struct serve_runfolder *rf,
                             struct supervisor *sup, struct run_events *ev, const char *ctl_dir,
                             char **w, int n, char *reply, size_t size);
/* The start words' memory given back (after serve.c's start, whatever it answered). */
void serve_hierarchy_started(struct serve_hierarchy *h);

/* Its ready line came (addr: ADDR:PORT): the root hints checked, `ready` and the port recorded,
 * the answer into reply. */
void serve_hierarchy_ready(struct serve_hierarchy *h, struct serve_runfolder *rf,
                           struct supervisor *sup, struct run_events *ev, pid_t pid,
                           const char *addr, char *reply, size_t size);
/* It exited first (how: serve.c's exit words) or its time ran out (how NULL): the error. */
void serve_hierarchy_failed(const struct serve_hierarchy *h, const char *how, char *reply,
                            size_t size);

#endif
