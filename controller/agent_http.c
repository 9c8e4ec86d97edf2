/* controller/agent_http.c - the controller's HTTP to an agent (agent_http.h). */
#include "agent_http.h"

#include <arpa/inet.h>
#include <event2/keyvalq_struct.h>
#include <netinet/in.h>
#include <stdio.h>

#include "sockaddr_parse.h"

struct evhttp_connection *agent_http_connect(struct event_base *base, const struct sockaddr *addr)
{
	char host[INET6_ADDRSTRLEN] = "";
	const void *bytes = addr->sa_family == AF_INET
	                        ? (const void *)&((const struct sockaddr_in *)addr)->sin_addr
	                        : (const void *)&((const struct sockaddr_in6 *)addr)->sin6_addr;
	inet_ntop(addr->sa_family, bytes, host, sizeof(host));
	return evhttp_connection_base_new(base, NULL, host, (unsigned short)sockaddr_port(addr));
}

struct evhttp_request *agent_http_request(void (*done)(struct evhttp_request *, void *), void *arg,
                                          const char *host, const char *token)
{
	struct evhttp_request *req = evhttp_request_new(done, arg);
	if (!req)
		return NULL;
	struct evkeyvalq *h = evhttp_request_get_output_headers(req);
	evhttp_add_header(h, "Host", host);
	if (token) {
		char value[300];
		snprintf(value, sizeof(value), "Bearer %s", token);
		evhttp_add_header(h, "Authorization", value);
	}
	return req;
}
