/* controller/agent_link.h - the controller's side of one agent: its clock measured into a
 * history, its /samples stream read over one libevent connection (reconnected with backoff when
 * it drops), and its record fetched at the end to fill what the stream missed
 * (docs/controller.md). */
#ifndef ALLOCSPIKE_CONTROLLER_AGENT_LINK_H
#define ALLOCSPIKE_CONTROLLER_AGENT_LINK_H

#include <event2/event.h>
#include <event2/http.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "agent_series.h"
#include "clock_history.h"
#include "events_log.h"
#include "identifier.h"

struct agent_link {
	char name[IDENTIFIER_MAX_LEN + 1]; /* --agent NAME=..., an identifier */
	char addr_text[96];                /* ADDR:PORT as given back by sockaddr_format */
	struct sockaddr_storage addr;
	socklen_t addr_len;
	const char *token; /* NULL: none sent */
	struct events_log *events;

	struct event_base *base;
	struct evhttp_connection *conn;
	struct evbuffer *partial; /* a line of the stream not yet ended */
	struct event *retry;      /* the next connection attempt */
	double backoff_s;
	bool stopping;
	unsigned drops; /* streams that ended before the controller did */
	int live_fd;    /* agents/NAME.jsonl appended as reads arrive; -1 once failed */

	struct agent_series series;
	struct clock_history clock;
	bool have_first_seq;
	uint64_t first_seq; /* the first read the stream brought: the record is fetched from it */
	uint64_t window_from_ns, window_to_ns; /* the record's reads kept: those in this window */
	unsigned *pending;                     /* fetches not answered yet */
};

/* Sets link up for the agent NAME at addr (libevent's objects made by agent_link_start). */
void agent_link_init(struct agent_link *link, const char *name, const struct sockaddr *addr,
                     socklen_t addr_len, const char *token, struct events_log *events);

/* Measures the agent's offset (count exchanges) and records it as a "clock" event, or a
 * "clock_failed" one; a measurement within bound_ms is kept to place reads. False with the
 * reason in err when it failed or is over the bound. */
bool agent_link_measure(struct agent_link *link, unsigned count, double bound_ms, char *err,
                        size_t err_size);

/* Opens the stream on base; reads arrive into series and are appended, placed with the latest
 * measurement, to live_fd. False when libevent cannot make its objects. */
bool agent_link_start(struct agent_link *link, struct event_base *base, int live_fd);

/* Ends the stream (no more reconnections). */
void agent_link_stop(struct agent_link *link);

/* When a stream dropped (or never came): GET /record from the first read the stream brought (or
 * from 0) and keeps the reads it missed whose time, on our clock, lies in [from_ns, to_ns].
 * *pending is counted up when the request is sent, down when its answer is in (the loop breaks
 * at 0). False when nothing needs fetching or it cannot be sent. */
bool agent_link_fetch_record(struct agent_link *link, uint64_t from_ns, uint64_t to_ns,
                             unsigned *pending);

void agent_link_free(struct agent_link *link);

#endif
