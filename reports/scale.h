/* reports/scale.h - `allocspike-report scale`: the scale law over runs at different spike heights
 * (scenarios/scale.sh), per variant the memory the allocator holds after the spikes against the
 * peak requests in flight, with the fitted MB per 1,000 requests in flight (reports/README.md,
 * "Scale"). */
#ifndef ALLOCSPIKE_REPORTS_SCALE_H
#define ALLOCSPIKE_REPORTS_SCALE_H

#include <jansson.h>
#include <stddef.h>

/* The scale.json object over n runs; run_jsons[i] and summaries[i] belong to dirs[i]. */
json_t *scale_build(const char *const *dirs, const json_t *const *run_jsons,
                    const json_t *const *summaries, size_t n);

/* allocspike-report scale RUN_DIR... [-o FILE]: FILE (default scale.html) and scale.json beside
 * it; prints the page's path. Returns the exit status (2 on bad input). */
int scale_command(int argc, char **argv);

#endif
