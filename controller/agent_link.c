/* controller/agent_link.c - the controller's side of one agent (agent_link.h). */
#include "agent_link.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/keyvalq_struct.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent_http.h"
#include "monotonic.h"
#include "sockaddr_parse.h"

/* Reconnections start soon and back off to a few seconds: a restarted agent is found at once, a
 * dead one is not hammered. */
#define LINK_BACKOFF_FIRST_S 0.1
#define LINK_BACKOFF_MAX_S 2.0
/* A stream silent this long is taken for dead (an agent stopped this long has a gap anyway). */
#define LINK_STREAM_TIMEOUT_S 30

void agent_link_init(struct agent_link *link, const char *name, const struct sockaddr *addr,
                     socklen_t addr_len, const char *token, struct events_log *events)
{
	*link = (struct agent_link){.addr_len = addr_len,
	                            .token = token,
	                            .events = events,
	                            .live_fd = -1,
	                            .backoff_s = LINK_BACKOFF_FIRST_S};
	snprintf(link->name, sizeof(link->name), "%s", name);
	memcpy(&link->addr, addr, addr_len);
	sockaddr_format(addr, link->addr_text, sizeof(link->addr_text));
}

static void link_event(struct agent_link *link, const char *event, json_t *extra)
{
	if (!extra)
		extra = json_object();
	json_object_set_new(extra, "agent", json_string(link->addr_text));
	events_log_add(link->events, link->name, event, extra);
}

bool agent_link_measure(struct agent_link *link, unsigned count, double bound_ms, char *err,
                        size_t err_size)
{
	struct clock_offset off;
	if (!clock_measure((const struct sockaddr *)&link->addr, link->addr_len, count, link->token,
	                   &off, err, err_size)) {
		link_event(link, "clock_failed", json_pack("{s:s}", "reason", err));
		return false;
	}
	bool within = clock_offset_within(&off, bound_ms, err, err_size);
	json_t *extra = json_pack("{s:f, s:f, s:i, s:f, s:b}", "offset_ms", off.offset_ms, "rtt_ms",
	                          off.rtt_ms, "exchanges", (int)off.exchanges, "bound_ms", bound_ms,
	                          "within_bound", within);
	/* the agent's host label: the host of the row it samples (docs/run-folder.md, run.json) */
	if (extra && off.host[0])
		json_object_set_new(extra, "host", json_string(off.host));
	link_event(link, "clock", extra);
	if (within && !clock_history_add(&link->clock, realtime_ns(), &off)) {
		snprintf(err, err_size, "out of memory");
		return false;
	}
	return within;
}

/* A request to the agent with its Host and, when there is one, the token. */
static struct evhttp_request *link_request(struct agent_link *link,
                                           void (*done)(struct evhttp_request *, void *))
{
	return agent_http_request(done, link, link->addr_text, link->token);
}

/* Appends one read, placed with the latest measurement, to agents/NAME.jsonl as it arrives (the
 * file is rewritten whole, each read by its nearest measurement, at the end). */
static void link_append_live(struct agent_link *link, const struct series_read *r)
{
	if (link->live_fd < 0 || link->clock.n == 0)
		return;
	char *line = agent_series_place(r, &link->clock.points[link->clock.n - 1]);
	size_t len = line ? strlen(line) : 0;
	if (!line || write(link->live_fd, line, len) != (ssize_t)len) {
		fprintf(stderr,
		        "allocspike-run collect: agent %s: agents/%s.jsonl: %s; written at "
		        "the end only\n",
		        link->name, link->name, line ? strerror(errno) : "out of memory");
		close(link->live_fd);
		link->live_fd = -1;
	}
	free(line);
}

/* The stream's bytes so far: every whole line a read. */
static void link_stream_chunk(struct evhttp_request *req, void *arg)
{
	struct agent_link *link = arg;
	evbuffer_add_buffer(link->partial, evhttp_request_get_input_buffer(req));
	size_t len;
	char *line;
	while ((line = evbuffer_readln(link->partial, &len, EVBUFFER_EOL_LF))) {
		if (agent_series_add(&link->series, line, len, SERIES_FROM_STREAM) ==
		    SERIES_ADDED) {
			const struct series_read *r = &link->series.reads[link->series.n - 1];
			if (!link->have_first_seq) {
				link->first_seq = r->seq;
				link->have_first_seq = true;
			}
			link_append_live(link, r);
			link->backoff_s = LINK_BACKOFF_FIRST_S;
		}
		free(line);
	}
}

static void link_stream_open(struct agent_link *link);

static void link_retry(evutil_socket_t fd, short what, void *arg)
{
	link_stream_open(arg);
}

/* The stream ended: the agent went, the connection broke, or the agent refused it. */
static void link_stream_done(struct evhttp_request *req, void *arg)
{
	struct agent_link *link = arg;
	if (link->stopping)
		return;
	int code = req ? evhttp_request_get_response_code(req) : 0;
	char reason[160];
	if (code == 0)
		snprintf(reason, sizeof(reason), "connection lost or refused");
	else
		snprintf(reason, sizeof(reason), "HTTP %d %s", code,
		         evhttp_request_get_response_code_line(req));
	if (code == 401 || code == 403)
		fprintf(stderr,
		        "allocspike-run collect: agent %s (%s): GET /samples: %s (the token)\n",
		        link->name, link->addr_text, reason);
	link->drops++;
	link_event(link, "stream_dropped",
	           json_pack("{s:s, s:f}", "reason", reason, "retry_s", link->backoff_s));
	evbuffer_drain(link->partial, evbuffer_get_length(link->partial)); /* half a line */
	struct timeval tv = {(time_t)link->backoff_s,
	                     (suseconds_t)((link->backoff_s - (time_t)link->backoff_s) * 1e6)};
	evtimer_add(link->retry, &tv);
	link->backoff_s =
	    link->backoff_s * 2 > LINK_BACKOFF_MAX_S ? LINK_BACKOFF_MAX_S : link->backoff_s * 2;
}

static void link_stream_open(struct agent_link *link)
{
	struct evhttp_request *req = link_request(link, link_stream_done);
	if (!req)
		return;
	evhttp_request_set_chunked_cb(req, link_stream_chunk);
	if (evhttp_make_request(link->conn, req, EVHTTP_REQ_GET, "/samples") != 0)
		link_stream_done(NULL, link); /* freed by libevent; tried again later */
}

/* A connection to the agent (made when a request is sent on it). */
static bool link_connect(struct agent_link *link)
{
	link->conn = agent_http_connect(link->base, (const struct sockaddr *)&link->addr);
	if (link->conn)
		evhttp_connection_set_timeout(link->conn, LINK_STREAM_TIMEOUT_S);
	return link->conn != NULL;
}

bool agent_link_start(struct agent_link *link, struct event_base *base, int live_fd)
{
	link->base = base;
	link->live_fd = live_fd;
	link->partial = evbuffer_new();
	link->retry = evtimer_new(base, link_retry, link);
	if (!link->partial || !link->retry || !link_connect(link))
		return false;
	link_stream_open(link);
	return true;
}

void agent_link_stop(struct agent_link *link)
{
	link->stopping = true;
	if (link->retry)
		evtimer_del(link->retry);
	/* the stream's request goes with its connection, without a callback */
	if (link->conn)
		evhttp_connection_free(link->conn);
	link->conn = NULL;
}

/* GET /record answered: the reads the stream missed, within the run's window. */
static void link_record_done(struct evhttp_request *req, void *arg)
{
	struct agent_link *link = arg;
	int code = req ? evhttp_request_get_response_code(req) : 0;
	if (code != 200) {
		char reason[160];
		snprintf(reason, sizeof(reason), "GET /record: %s",
		         code ? evhttp_request_get_response_code_line(req) : "no answer");
		fprintf(stderr,
		        "allocspike-run collect: agent %s (%s): %s; what the stream missed "
		        "stays missing\n",
		        link->name, link->addr_text, reason);
		link_event(link, "record_unavailable", json_pack("{s:s}", "reason", reason));
	} else {
		struct evbuffer *body = evhttp_request_get_input_buffer(req);
		size_t len, filled = 0;
		char *line;
		while ((line = evbuffer_readln(body, &len, EVBUFFER_EOL_LF))) {
			json_t *o = json_loadb(line, len, 0, NULL);
			json_int_t t = json_integer_value(json_object_get(o, "t_start_ns"));
			const struct clock_point *p =
			    clock_history_nearest(&link->clock, (uint64_t)t);
			double ours = p ? (double)t - p->offset.offset_ms * 1e6 : 0;
			json_decref(o);
			if (p && ours >= (double)link->window_from_ns &&
			    ours <= (double)link->window_to_ns &&
			    agent_series_add(&link->series, line, len, SERIES_FROM_RECORD) ==
			        SERIES_ADDED)
				filled++;
			free(line);
		}
		link_event(link, "record_filled", json_pack("{s:i}", "reads", (int)filled));
	}
	if (--*link->pending == 0)
		event_base_loopbreak(link->base);
}

bool agent_link_fetch_record(struct agent_link *link, uint64_t from_ns, uint64_t to_ns,
                             unsigned *pending)
{
	if (link->drops == 0 && link->have_first_seq)
		return false; /* the stream brought every read */
	link->window_from_ns = from_ns;
	link->window_to_ns = to_ns;
	link->pending = pending;
	char path[64];
	snprintf(path, sizeof(path), "/record?from=%" PRIu64,
	         link->have_first_seq ? link->first_seq : 0);
	struct evhttp_request *req = NULL;
	if (!link_connect(link) || !(req = link_request(link, link_record_done)) ||
	    evhttp_make_request(link->conn, req, EVHTTP_REQ_GET, path) != 0) {
		link_event(link, "record_unavailable",
		           json_pack("{s:s}", "reason", "GET /record: cannot be sent"));
		return false;
	}
	(*pending)++;
	return true;
}

void agent_link_free(struct agent_link *link)
{
	agent_link_stop(link);
	if (link->retry)
		event_free(link->retry);
	if (link->partial)
		evbuffer_free(link->partial);
	if (link->live_fd >= 0)
		close(link->live_fd);
	agent_series_free(&link->series);
	clock_history_free(&link->clock);
}
