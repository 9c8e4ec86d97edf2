/* controller/steps_client.h - a conducted run's own client: the controller asks its own socket, as
 * a scenario's `allocspike-run ask` does, one request a connection, from inside its event loop, so
 * that the run's steps (conduct_steps.h) go through the same requests, waits and records as any
 * client's. */
#ifndef ALLOCSPIKE_CONTROLLER_STEPS_CLIENT_H
#define ALLOCSPIKE_CONTROLLER_STEPS_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

struct event_base;
struct steps_client;

/* The answer's line (its newline gone, modifiable until the callback returns), or NULL when the
 * connection ended without one. */
typedef void steps_answer_fn(void *ctx, char *answer);

struct steps_client *steps_client_new(struct event_base *base, const char *socket_path,
                                      steps_answer_fn *answer, void *ctx);

/* Sends the request of words over a new connection; its answer goes to the callback. False (the
 * reason in err) when it could not be sent; a request is asked only when none is outstanding. */
bool steps_client_ask(struct steps_client *c, char *const *words, size_t count, char *err,
                      size_t err_size);

/* Closes the outstanding request's connection, if any (the controller drops what it held for
 * it, as for a client that goes); no callback follows. */
void steps_client_drop(struct steps_client *c);

void steps_client_free(struct steps_client *c);

#endif
