/* controller/agent_http.h - the controller's HTTP to an agent (docs/agent.md): a connection to its
 * address, and requests carrying its Host and the run's token ("The token"). The collection
 * (agent_link.c) and the placement (plan_client.c) both speak through it. */
#ifndef ALLOCSPIKE_AGENT_HTTP_H
#define ALLOCSPIKE_AGENT_HTTP_H

#include <event2/event.h>
#include <event2/http.h>
#include <sys/socket.h>

/* A libevent connection to the agent at addr (IPv4 or IPv6; made when a request is sent on it),
 * or NULL. */
struct evhttp_connection *agent_http_connect(struct event_base *base, const struct sockaddr *addr);

/* A request answered to done(req, arg), with "Host: host" and, when token is not NULL, the
 * token as a bearer; NULL when libevent cannot make one. */
struct evhttp_request *agent_http_request(void (*done)(struct evhttp_request *, void *), void *arg,
                                          const char *host, const char *token);

#endif
