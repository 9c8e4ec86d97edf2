/* common/control_server.h - the Unix control socket the resolver and the hierarchy share: one
 * command a line (`stats`, `shutdown`), one line back. */
#ifndef ALLOCSPIKE_CONTROL_SERVER_H
#define ALLOCSPIKE_CONTROL_SERVER_H

#include <stddef.h>

#define CONTROL_MAX_CONNS 16    /* connections at once; more get an error line and are closed */
#define CONTROL_IDLE_SECONDS 30 /* a connection with no complete line for this long is closed */
#define CONTROL_LINE_MAX 512    /* longer command lines get an error and the connection closes */

struct event_base;
struct control_server;

/* The reply to `stats`: a malloc'd one-line JSON document, or NULL. */
typedef char *(*control_stats_fn)(void *ctx);

/* Listens on path, created with mode 0600 (only the owner may send `shutdown`). A socket file
 * already there is replaced; anything else there is an error and stays untouched. `shutdown`
 * answers "ok" and breaks base's loop. NULL with the reason in err. */
struct control_server *control_server_open(struct event_base *base, const char *path,
                                           control_stats_fn stats, void *ctx, char *err,
                                           size_t err_size);
/* The idle time of connections accepted from now on (default CONTROL_IDLE_SECONDS): a connection
 * that sends no complete line for this long is closed, however many bytes it trickles. */
void control_server_set_idle_ms(struct control_server *c, unsigned idle_ms);
/* Closes every connection and removes the socket file if it is still the one created. */
void control_server_close(struct control_server *c);

#endif
