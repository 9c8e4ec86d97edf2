/* controller/conduct_steps.h - a conducted run's steps carried out by the controller itself
 * (docs/controller.md, "The steps"): the order every load scenario shares (the run's parameters,
 * its rows checked, the hierarchy, the query file, the rows' settings, the schedule, the drive, the
 * warm-up check) with each scenario's own steps (conduct_presets.h), asked one after the other of
 * the controller's own socket (steps_client.h), each once the one before it was answered, so that
 * they go through the same requests, waits and records as a client's would. */
#ifndef ALLOCSPIKE_CONTROLLER_CONDUCT_STEPS_H
#define ALLOCSPIKE_CONTROLLER_CONDUCT_STEPS_H

#include <stdbool.h>

struct event_base;
struct serve_conduct;
struct conduct_steps;

/* Begins the steps of c's scenario (c->steps_given) in base's loop, the run begun in c->dir; they
 * end by setting c->ended with c->status (0, or exit 1 with c->failure). NULL (said on stderr)
 * when they cannot begin. */
struct conduct_steps *conduct_steps_start(struct serve_conduct *c, struct event_base *base,
                                          const char *socket_path);

/* The run is interrupted: the request under way is dropped (as for a client that goes) and the
 * steps end. */
void conduct_steps_interrupt(struct conduct_steps *s);

void conduct_steps_free(struct conduct_steps *s);

#endif
