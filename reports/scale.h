/* reports/scale.h - `allocspike-report scale`: the scale law over runs at different spike heights
 * (scenarios/scale.sh), per variant the memory the allocator holds after the spikes against the
 * peak requests in flight, with the fitted MB per 1,000 requests in flight (reports/README.md,
 * "Scale"). */
#ifndef ALLOCSPIKE_REPORTS_SCALE_H
#define ALLOCSPIKE_REPORTS_SCALE_H

#include <jansson.h>
#include <stddef.h>

/* The scale.json object, built a run at a time: scale_new, scale_add_run for each run (its
 * run.json and summary), then scale_fit for the lines. */
json_t *scale_new(void);
void scale_add_run(json_t *scale, const char *dir, const json_t *run, const json_t *summary);
void scale_fit(json_t *scale);

/* allocspike-report scale RUN_DIR... [-o FILE]: FILE (default scale.html) and scale.json beside
 * it; prints the page's path. Returns the exit status (2 on bad input). */
int scale_command(int argc, char **argv);

#endif
