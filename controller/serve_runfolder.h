/* controller/serve_runfolder.h - the run folder's requests of a served run (docs/controller.md,
 * "The run folder"): its beginning (`begin`: what killed runs left cleaned, the folder made,
 * logs/, run.json, processes.tsv, the run registered, events.jsonl, the stale_run events), run.json
 * changed a value at a time (`runjson`, `runjson-set`, `runjson-fields`, `runjson-finish`), the
 * harness's CPU checked (`harness-scan`), and the run's end (`finish`). */
#ifndef ALLOCSPIKE_CONTROLLER_SERVE_RUNFOLDER_H
#define ALLOCSPIKE_CONTROLLER_SERVE_RUNFOLDER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "run_events.h"
#include "supervisor.h"

#define SERVE_RUNFOLDER_REQUESTS                                                                   \
	"begin, finish, runjson, runjson-set, runjson-fields, runjson-finish, harness-scan"

struct serve_runfolder {
	char dir[PATH_MAX];           /* the run's folder once begun, "" before */
	char run_json[PATH_MAX + 16]; /* the run.json the runjson requests change, "" before */
	char scenario[64];            /* the scenario's name, as its messages start */
	char state[4096];             /* the state folder the run is registered in, "" if not */
	pid_t owner;                  /* the scenario's process, registered as the run's owner */
};

/* Answers request w[0..n) into reply when it is one of these; false when it is none of them. */
bool serve_runfolder_request(struct serve_runfolder *rf, struct supervisor *sup,
                             struct run_events *ev, char **w, int n, char *reply, size_t size);

#endif
