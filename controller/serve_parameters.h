/* controller/serve_parameters.h - a served run's `parameters` request (docs/controller.md, "The
 * run's parameters"): what the run used and where, recorded in run.json in one request: its
 * machine (run_context.h), its parameters (the options, the mode, the CPU placement decided as
 * `allocspike-run placement` decides it, the sampling interval, the resolvers' settings, which
 * repeat it is) and its harness programs. */
#ifndef ALLOCSPIKE_CONTROLLER_SERVE_PARAMETERS_H
#define ALLOCSPIKE_CONTROLLER_SERVE_PARAMETERS_H

#include <stdbool.h>
#include <stddef.h>

#include "serve_rows.h"

#define SERVE_PARAMETERS_REQUESTS "parameters"

/* parameters OPTIONS_JSON OPEN_FILES BIN_DIR [REPEAT_JSON]: run.json's machine (OPEN_FILES the
 * open-files limit in force), parameters {schedule: null, mode, cpu_placement, interval_ms,
 * options: OPTIONS_JSON, resolver {cache_size_bytes, max_inflight, memory_layout}, repeat:
 * REPEAT_JSON when given} and programs (those in BIN_DIR), in that order; the numbers and the
 * placement are OPTIONS_JSON's. Answered into reply (`ok`); false when w is not this request. */
bool serve_parameters_request(const struct serve_rows_host *h, char **w, int n, char *reply,
                              size_t size);

#endif
