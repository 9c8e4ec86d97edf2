/* controller/scenario_schedule.h - the schedules the scenarios run (docs/schedule.md), made from
 * the run's options as run.json records them (parameters.options: every option by name, a string),
 * and what they cost: how many queries, how long, how long a whole spike run takes. The one maker
 * of them (allocspike-run schedule), so that the run, its --dry-run and tune.sh/scale.sh's
 * estimates all read the same schedule. */
#ifndef ALLOCSPIKE_CONTROLLER_SCENARIO_SCHEDULE_H
#define ALLOCSPIKE_CONTROLLER_SCENARIO_SCHEDULE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* One spike run's time beyond its schedules: starting the hierarchy, the query file and the
 * variants, the calibration's own fresh processes, stopping everything and writing the report.
 * Measured on two --quick runs of four variants on 2 cores (run.json "started" to report.html: 138
 * s and 144 s for 108 s of schedules), rounded up. */
#define SCENARIO_SPIKE_OVERHEAD_S 35

/* The schedule of kind (spike RATE: warm-up, baseline, N x (spike, recovery), a connection spike
 * with --clients; calibrate TOP: the resperf-style ramp from the baseline rate; ramp TOP: a warm-up
 * then that ramp; steady RATE: a warm-up then RATE) into out; false with the reason in err. */
bool scenario_schedule(const json_t *options, const char *kind, const char *arg, char *out,
                       size_t size, char *err, size_t err_size);

/* Its queries, as the generator counts them, and its length in seconds. */
bool scenario_schedule_measure(const char *text, unsigned long long *queries, double *seconds,
                               char *err, size_t err_size);

/* A query file's size for n queries: whole hundred thousands, 100,000 to 2,000,000 (the generator
 * wraps around; the cache keys files by size, so few sizes means few files). */
unsigned long long scenario_round_count(unsigned long long n);

/* The queries a spike run's file must hold: its schedule's, at the highest spike an auto
 * calibration can ask for (the ramp's top doubled at each of `extensions`, times the multiple). */
bool scenario_spike_queries(const json_t *options, unsigned extensions,
                            unsigned long long *queries, char *err, size_t err_size);

/* allocspike-run schedule ... (usage: --help). */
int scenario_schedule_main(int argc, char **argv);

#endif
