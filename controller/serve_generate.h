/* controller/serve_generate.h - a served run's `generate` request (docs/controller.md, "The
 * generator"): the generator's command made from run.json's options (loadgen_command.h), the
 * ready rows' --target words (serve_rows_target) and the running hierarchy's --watch; serve.c
 * starts it as _loadgen, sets the events' origin from its `started` line as `origin-from` does,
 * and holds the request until it exits: `ok ORIGIN STATUS`. */
#ifndef ALLOCSPIKE_CONTROLLER_SERVE_GENERATE_H
#define ALLOCSPIKE_CONTROLLER_SERVE_GENERATE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "serve_rows.h"
#include "serve_runfolder.h"

#define SERVE_GENERATE_REQUESTS "generate"
/* How long the generator may take to read its query file and say when its schedule starts
 * (then the events count from now, as origin-from does). */
#define GENERATE_ORIGIN_TIMEOUT_S 60.0

struct serve_generate {
	char log[PATH_MAX + 32];
	char **command; /* the generator's words (loadgen_command_make's) */
	/* `start _loadgen LOG CPUS -- COMMAND...`, for serve.c's start; points into the above */
	char **start;
	int start_count;
};

/* generate LOADGEN DIR SCHEDULE QUERIES CPUS [ROW...]: the start words made into g (the
 * hierarchy watched when upstream_pid is not NULL); false with the error in reply. */
bool serve_generate_prepare(struct serve_generate *g, const struct serve_runfolder *rf,
                            struct serve_rows *rows, const char *upstream_pid, char **w, int n,
                            char *reply, size_t size);
/* The start words' memory given back (after serve.c's start, whatever it answered). */
void serve_generate_started(struct serve_generate *g);

#endif
