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
/* A server of more commands (allocspike-run supervise --serve): lines up to line_max bytes (set
 * before any connection), and every line other than `stats` and `shutdown` given to command. It
 * answers with control_conn_reply, at once or later after control_conn_hold; a held connection
 * reads no further line and is never closed for idleness, and closed() is told when its client
 * goes before the answer (the connection is freed after). */
struct control_conn;
typedef void (*control_command_fn)(void *ctx, struct control_conn *conn, char *line);
typedef void (*control_closed_fn)(void *ctx, struct control_conn *conn);
void control_server_set_commands(struct control_server *c, size_t line_max,
                                 control_command_fn command, control_closed_fn closed, void *ctx);
void control_conn_hold(struct control_conn *conn);
/* One line (the newline added); a client that does not read it is dropped. */
void control_conn_reply(struct control_conn *conn, const char *line);

/* Closes every connection and removes the socket file if it is still the one created. */
void control_server_close(struct control_server *c);

#endif
