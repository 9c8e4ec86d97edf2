/* controller/plan_client.c - requests to the agents' /plan (plan_client.h). */
#include "plan_client.h"

#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent_http.h"
#include "sha256_hex.h"
#include "sockaddr_parse.h"

struct plan_calls {
	struct event_base *base;
	size_t pending;
};

struct plan_slot {
	struct plan_call *call;
	struct plan_calls *all;
	struct evhttp_connection *conn;
	bool answered;
};

static void plan_done(struct evhttp_request *req, void *arg)
{
	struct plan_slot *slot = arg;
	struct plan_call *call = slot->call;
	slot->answered = true;
	int code = req ? evhttp_request_get_response_code(req) : 0;
	if (code == 0)
		snprintf(call->error, sizeof(call->error),
		         "no answer (cannot connect, or it closed)");
	struct evbuffer *in = req && code ? evhttp_request_get_input_buffer(req) : NULL;
	size_t len = in ? evbuffer_get_length(in) : 0;
	if (code && (call->answer = malloc(len + 1))) {
		evbuffer_copyout(in, call->answer, len);
		/* the agent's reasons end in a newline; ours are printed after a colon (a file
		 * fetched is kept whole) */
		while (!call->path && len > 0 &&
		       (call->answer[len - 1] == '\n' || call->answer[len - 1] == '\r'))
			len--;
		call->answer[len] = '\0';
	}
	call->status = code;
	if (--slot->all->pending == 0)
		event_base_loopbreak(slot->all->base);
}

static void plan_timeout(evutil_socket_t fd, short what, void *arg)
{
	event_base_loopbreak(arg);
}

/* Opens the connection and sends the request; false (with the reason in the call) if it cannot. */
static bool plan_send(struct plan_slot *slot, const char *token, double timeout_s)
{
	struct plan_call *call = slot->call;
	slot->conn = agent_http_connect(slot->all->base, call->addr);
	struct evhttp_request *req =
	    slot->conn ? agent_http_request(plan_done, slot, call->addr_text, token) : NULL;
	if (!req) {
		snprintf(call->error, sizeof(call->error), "libevent could not make the request");
		return false;
	}
	struct timeval tv = {(time_t)timeout_s,
	                     (suseconds_t)((timeout_s - (time_t)timeout_s) * 1e6)};
	evhttp_connection_set_timeout_tv(slot->conn, &tv);
	evhttp_connection_set_retries(slot->conn, 0);
	struct evkeyvalq *headers = evhttp_request_get_output_headers(req);
	if (call->body && call->put) {
		evhttp_add_header(headers, "Content-Type", "application/octet-stream");
		evhttp_add_header(headers, SHA256_HEX_HEADER, call->sha256);
		evbuffer_add_reference(evhttp_request_get_output_buffer(req), call->body,
		                       call->body_len, NULL, NULL); /* a file: not copied */
	} else if (call->body) {
		evhttp_add_header(headers, "Content-Type", "application/json");
		evbuffer_add(evhttp_request_get_output_buffer(req), call->body, strlen(call->body));
	}
	enum evhttp_cmd_type method = call->put    ? EVHTTP_REQ_PUT
	                              : call->body ? EVHTTP_REQ_POST
	                              : call->get  ? EVHTTP_REQ_GET
	                                           : EVHTTP_REQ_DELETE;
	if (evhttp_make_request(slot->conn, req, method, call->path ? call->path : "/plan") != 0) {
		snprintf(call->error, sizeof(call->error), "the request could not be sent");
		return false; /* libevent freed req */
	}
	return true;
}

bool plan_client_call_all(struct plan_call *calls, size_t n, const char *token, double timeout_s)
{
	struct plan_calls all = {.base = event_base_new()};
	struct plan_slot *slots = calloc(n ? n : 1, sizeof(*slots));
	struct event *end = all.base ? evtimer_new(all.base, plan_timeout, all.base) : NULL;
	if (!slots || !end) {
		free(slots);
		if (all.base)
			event_base_free(all.base);
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		calls[i].status = 0;
		calls[i].answer = NULL;
		snprintf(calls[i].error, sizeof(calls[i].error), "no answer within %g s",
		         timeout_s);
		slots[i] = (struct plan_slot){.call = &calls[i], .all = &all};
		if (plan_send(&slots[i], token, timeout_s))
			all.pending++;
		else
			slots[i].answered = true;
	}
	/* a little past the connections' own timeout, which answers each call first */
	struct timeval wait = {(time_t)timeout_s + 1, 0};
	if (all.pending > 0 && evtimer_add(end, &wait) == 0)
		event_base_dispatch(all.base);
	for (size_t i = 0; i < n; i++)
		if (slots[i].conn)
			evhttp_connection_free(
			    slots[i].conn); /* a request still out is freed with it */
	event_free(end);
	event_base_free(all.base);
	free(slots);
	return true;
}

void plan_call_free(struct plan_call *call)
{
	free(call->answer);
	call->answer = NULL;
}
