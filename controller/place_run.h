/* controller/place_run.h - allocspike-run place --schedule: after the placement, the run itself
 * across the hosts: the collector (the agents' reads, on the schedule's clock) and the generator
 * (the queries on the schedule, from T0, to every placed row's address), supervised as one plan
 * (allocspike-run supervise --plan: process groups, events, the one stop path; a generator that
 * fails fails the run); then the run's run.json (docs/controller.md, "A run across hosts"). */
#ifndef ALLOCSPIKE_CONTROLLER_PLACE_RUN_H
#define ALLOCSPIKE_CONTROLLER_PLACE_RUN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "place.h"

/* Runs o's schedule against the placement's rows (place's JSON: t0, rows' resolver addresses);
 * returns the exit status: 0 completed, 1 failed, 130 interrupted (a signal, passed on). */
int place_run_schedule(const struct place_options *o, const json_t *placement,
                       const struct place_row *rows, size_t n);

/* o->out/run.json for the run that ended with status (place_run_schedule's): the rows with their
 * hosts and agents, the schedule, the interval, T0, the query file, this host's machine. */
bool place_run_record(const struct place_options *o, const json_t *placement,
                      const struct place_row *rows, size_t n, int status);

#endif
