/* controller/plan_client.h - the controller's requests to the agents' /plan (docs/agent.md,
 * "Taking the row from a controller") and a shard's /fragment: sent to every agent at once, each
 * answer awaited up to a bound, so that a placement waits for its slowest row and no longer. */
#ifndef ALLOCSPIKE_CONTROLLER_PLAN_CLIENT_H
#define ALLOCSPIKE_CONTROLLER_PLAN_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

struct plan_call {
	const struct sockaddr *addr; /* the agent */
	const char *addr_text;
	const char *body; /* POST this as JSON; NULL: DELETE, or GET with get */
	bool get;         /* without a body: GET rather than DELETE */
	/* with put: PUT body_len bytes of body (a file) with its digest in SHA256_HEX_HEADER */
	bool put;
	size_t body_len;
	const char *sha256;
	const char *path; /* NULL: /plan */
	int status;       /* the answer's HTTP status; 0: none came */
	char *answer;     /* its body, NUL-terminated (NULL: none) */
	char error[256];  /* with status 0: why */
};

/* Sends each call's request to /plan at once and waits up to timeout_s for every answer. token:
 * sent as a bearer token. False when libevent cannot set up; otherwise each call says how it
 * went. */
bool plan_client_call_all(struct plan_call *calls, size_t n, const char *token, double timeout_s);

void plan_call_free(struct plan_call *call);

#endif
